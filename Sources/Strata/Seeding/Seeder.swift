import Foundation

/// Loads CSV seed files into their tables: typed, idempotent by default, all or nothing.
///
/// A run is one transaction (`BEGIN IMMEDIATE`, or a savepoint when the connection is already
/// in a transaction): files are loaded parents first by the foreign-key graph, foreign keys are
/// deferred so cycles load, `PRAGMA foreign_key_check` runs before the commit, and each loaded
/// file gets a row in the `strata_seeds` ledger. Any problem rolls everything back and throws a
/// `SeedError` naming the file and line. Never uses `INSERT OR REPLACE`.
///
/// ```swift
/// let report = try Seeder(connection: connection).seed(
///   directory: seedsFolder,
///   options: SeedOptions(onlyUnrecorded: true)
/// )
/// ```
public struct Seeder {
  /// The database the seeds load into, through the seam (SQLDatabase.swift).
  package let connection: any SQLDatabase

  /// A seeder for `connection`'s database, which must already have the tables (migrate first).
  public init(connection: Connection) {
    self.connection = connection
  }

  /// A seeder for any engine behind the seam; on one that is not SQLite's `Connection`, a
  /// trigger's writes to strata's own tables are not fenced off (the fence is SQLite's).
  package init(database: any SQLDatabase) {
    self.connection = database
  }

  // MARK: - Finding files

  /// Every `*.csv` and `*.tsv` file (each maybe gzipped: `*.csv.gz`) directly in `directory`,
  /// sorted by name; other files (such as a `template.sqlite3`) and hidden files are skipped.
  /// Each loads into the table named by its stem (`people.csv.gz` → `people`).
  ///
  /// A `.csv` entry that is not a regular file (a named pipe would block forever), or a
  /// symbolic link out of the folder, is an error unless `followSymlinks` allows the link.
  ///
  /// - Parameter directory: the seeds folder.
  /// - Parameter followSymlinks: read files that are symbolic links out of the folder.
  /// - Parameter displayPath: how the folder is shown in messages (default: its path).
  /// - Throws: `SeedError` when the folder is missing or unreadable, or a file in it is not a
  ///   regular file or links out of the folder.
  package static func files(
    in directory: URL,
    displayPath: String? = nil,
    followSymlinks: Bool = false
  ) throws -> [SeedFile] {
    let shown = displayPath ?? directory.path
    let names = try seedFileNames(in: directory, shown: shown, followSymlinks: followSymlinks)
    return names.sorted()
      .map { name in
        SeedFile(
          url: directory.appendingPathComponent(name),
          displayPath: shown.hasSuffix("/") ? shown + name : shown + "/" + name
        )
      }
  }

  /// The SHA-256 (hex) of a file's bytes, as the ledger records it.
  ///
  /// - Throws: `CSVError` when the file cannot be opened or read.
  package static func checksum(of url: URL) throws -> String {
    let reader = try CSVReader(url: url, computeChecksum: true)
    return try reader.checksum() ?? ""
  }

  // MARK: - Seeding

  /// Seeds every CSV file in `directory` (see `files(in:displayPath:)`).
  ///
  /// - Throws: `SeedError`, naming the file, line and column; the database is then exactly as
  ///   before.
  public func seed(
    directory: URL,
    displayPath: String? = nil,
    options: SeedOptions = SeedOptions(),
    progress: ((SeedProgress) -> Void)? = nil
  ) throws -> SeedReport {
    try seed(
      Self.files(in: directory, displayPath: displayPath),
      options: options,
      progress: progress
    )
  }

  /// Seeds `files` in one transaction, parents before children, and reports what each did.
  ///
  /// - Throws: `SeedError`; the database is then exactly as before.
  public func seed(
    _ files: [SeedFile],
    options: SeedOptions = SeedOptions(),
    progress: ((SeedProgress) -> Void)? = nil
  ) throws -> SeedReport {
    let clock = ContinuousClock()
    let start = clock.now
    guard !files.isEmpty else {
      return SeedReport(tables: [], dryRun: options.dryRun, durationMs: 0)
    }
    let restoreCache = try enlargeCache(kibibytes: options.cacheKiB)
    defer { restoreCache() }
    let ownTransaction = connection.isAutocommit
    do {
      try connection.execute(ownTransaction ? "BEGIN IMMEDIATE" : "SAVEPOINT strata_seed")
    } catch let error as SQLiteError {
      throw SeedError.database(file: connection.path, error: error)
    }
    // Restored after the commit or rollback below, whichever way the run ends.
    var restoreDeferral: () -> Void = {}
    defer { restoreDeferral() }
    do {
      restoreDeferral = try deferForeignKeys()
      let tables = try run(files, options: options, progress: progress)
      if options.dryRun {
        rollBack(ownTransaction)
      } else {
        try connection.execute(ownTransaction ? "COMMIT" : "RELEASE strata_seed")
      }
      return SeedReport(
        tables: tables,
        dryRun: options.dryRun,
        durationMs: milliseconds(clock.now - start)
      )
    } catch {
      rollBack(ownTransaction)
      switch error {
      case let error as SeedError: throw error
      case let error as SQLiteError: throw SeedError.database(file: connection.path, error: error)
      default: throw error
      }
    }
  }

  /// A file to load, with its table.
  struct Planned {
    let file: SeedFile
    let table: Table
  }

  private func run(
    _ files: [SeedFile],
    options: SeedOptions,
    progress: ((SeedProgress) -> Void)?
  ) throws -> [SeedTableReport] {
    // 1. Every file's table, and which files are already recorded.
    var (planned, skipped) = try plan(files, options: options)
    // 2. Every header, before any row is written.
    var streams = try checkHeaders(planned, options: options)
    let order = Self.parentsFirst(planned.map { ($0.file, $0.table) })
    let ordered = order.map { planned[$0] }
    // 3. Foreign-key violations already in the database are not this run's to report.
    let checked = try tablesToCheck(ordered.map(\.table), mode: options.mode)
    let before = try foreignKeyViolations(checked)
    try createLedger()

    var loaded: [(file: SeedFile, report: SeedTableReport)] = []
    var loadedItems: [Planned] = []
    for (offset, item) in ordered.enumerated() {
      let stream = streams.removeValue(forKey: order[offset])
      let number = (offset + 1, ordered.count)
      switch try load(item, stream: stream, number: number, options: options, progress) {
      case .loaded(let report):
        loadedItems.append(item)
        loaded.append((item.file, report))
      case .alreadyRecorded(let report):
        skipped.append(report)
      }
    }
    // 4. Orphans made by this run fail it, traced back to their file and line.
    try checkForeignKeys(
      checked,
      before: before,
      loaded: loadedItems,
      maximumFieldBytes: options.maximumFieldBytes
    )
    // 5. The ledger, in the same transaction.
    try record(loaded)
    return skipped + loaded.map(\.report)
  }

  /// Each file's table, in the given order, and the reports of the files skipped because the
  /// ledger has them (`onlyUnrecorded`).
  private func plan(
    _ files: [SeedFile],
    options: SeedOptions
  ) throws -> (planned: [Planned], skipped: [SeedTableReport]) {
    var skipped: [SeedTableReport] = []
    var planned: [Planned] = []
    for file in files {
      let table = try Self.readTable(named: file.table, file: file.displayPath, connection)
      // A stream is read once: it is checked against the ledger after its load (below).
      if options.onlyUnrecorded, !file.isReadOnce {
        guard FileManager.default.fileExists(atPath: file.url.path) else {
          throw SeedError.fileNotFound(file: file.displayPath)
        }
        let checksum: String
        do {
          checksum = try Self.checksum(of: file.url)
        } catch let error as CSVError {
          throw SeedError.malformed(file: file.displayPath, error)
        }
        // A sync file is up to date only as its last version: one that goes back loads again.
        let recorded =
          options.mode == .sync
          ? try isLastLoad(of: file, checksum: checksum, table: table.name)
          : try isRecorded(checksum: checksum, table: table.name, format: file.format)
        if recorded {
          skipped.append(
            .alreadyRecorded(file, table: table.name, mode: options.mode, checksum: checksum)
          )
          continue
        }
      }
      // Two files into one table in one run: in `replace` mode the second would delete the
      // first's rows, and in the others the order of two files would decide the outcome.
      if let earlier = planned.first(where: {
        Self.folded($0.table.name) == Self.folded(table.name)
      }) {
        throw SeedError.sameTableTwice(
          table: table.name,
          files: [earlier.file.displayPath, file.displayPath]
        )
      }
      planned.append(Planned(file: file, table: table))
    }
    return (planned, skipped)
  }

  /// Reads every header (and, for a mode that empties tables, refuses a delete that would
  /// cascade). A stream (standard input, a pipe, a FIFO) is read once: its loader, header
  /// read, is returned by its index in `planned`, to load from.
  private func checkHeaders(
    _ planned: [Planned],
    options: SeedOptions
  ) throws -> [Int: SeedLoader] {
    var streams: [Int: SeedLoader] = [:]
    for (index, item) in planned.enumerated() {
      let stream = item.file.isReadOnce
      let loader = try SeedLoader(
        file: item.file,
        table: item.table,
        mode: options.mode,
        connection: connection,
        computeChecksum: stream,
        chunkSize: stream ? 1 << 20 : 1 << 16,
        rowsPerStatement: options.rowsPerStatement,
        maximumFieldBytes: options.maximumFieldBytes,
        keylessOnce: options.mode.seedsKeylessOnce(onlyUnrecorded: options.onlyUnrecorded)
      )
      if stream { streams[index] = loader }
      if options.mode.rules.deletesFirst, !options.force {
        let children = try Self.referencingTables(
          of: item.table.name,
          changedByDelete: true,
          connection
        )
        if !children.isEmpty {
          throw SeedError.cascadingReplace(
            file: item.file.displayPath,
            table: item.table.name,
            children: children
          )
        }
      }
    }
    return streams
  }

  /// The loader of a file that is not a stream: its header read, its checksum computed as it
  /// loads.
  private func newLoader(_ item: Planned, options: SeedOptions) throws -> SeedLoader {
    try SeedLoader(
      file: item.file,
      table: item.table,
      mode: options.mode,
      connection: connection,
      computeChecksum: true,
      rowsPerStatement: options.rowsPerStatement,
      maximumFieldBytes: options.maximumFieldBytes,
      keylessOnce: options.mode.seedsKeylessOnce(onlyUnrecorded: options.onlyUnrecorded)
    )
  }

  private enum Outcome {
    case loaded(SeedTableReport)
    case alreadyRecorded(SeedTableReport)
  }

  /// Loads one file (from `stream`, when it is one whose header is read), reporting progress.
  private func load(
    _ item: Planned,
    stream: SeedLoader?,
    number: (file: Int, of: Int),
    options: SeedOptions,
    _ progress: ((SeedProgress) -> Void)?
  ) throws -> Outcome {
    let clock = ContinuousClock()
    let start = clock.now
    let loader = try stream ?? newLoader(item, options: options)
    if loader.seedsOnce {
      switch try keylessPlan(item.file, table: item.table.name) {
      case .firstLoad: break
      case .merge: loader.mergesKeyless = true
      case .unchanged(let checksum):
        return .alreadyRecorded(
          .alreadyRecorded(
            item.file,
            table: item.table.name,
            mode: options.mode,
            checksum: checksum
          )
        )
      }
    }
    let total = loader.totalBytes
    func report(rows: Int, bytes: Int64, finished: Bool) {
      progress?(
        SeedProgress(
          file: item.file.displayPath,
          table: item.table.name,
          fileNumber: number.file,
          fileCount: number.of,
          bytesRead: bytes,
          totalBytes: total,
          rowsRead: rows,
          isFinished: finished
        )
      )
    }
    report(rows: 0, bytes: 0, finished: false)
    func load() throws -> SeedLoader.Counts {
      let loading = {
        try loader.load { rows, bytes in report(rows: rows, bytes: bytes, finished: false) }
      }
      // A trigger on the seeded table must not change strata's own tables either: the fence is
      // an SQLite-only power (Authorizer.swift), raised when the database is a `Connection`.
      guard let sqlite = connection as? Connection else { return try loading() }
      return try sqlite.withFence(.strataTables, loading)
    }
    let counts: SeedLoader.Counts
    // The loader whose reading the report tells (its checksum): another when the file loaded
    // again the usual way.
    var reader = loader
    if stream != nil, options.onlyUnrecorded {
      // Its checksum is known only once it is read (see `loadUnlessRecorded`).
      guard let loaded = try loadUnlessRecorded(loader, item, load: load)
      else {
        return .alreadyRecorded(
          .alreadyRecorded(
            item.file,
            table: item.table.name,
            mode: options.mode,
            checksum: (try? loader.checksum()) ?? ""
          )
        )
      }
      counts = loaded
    } else if stream == nil, try checksKeysAfterwards(loader) {
      (reader, counts) = try loadCheckingKeysAfterwards(loader, load: load) {
        let again = try newLoader(item, options: options)
        return (again, try again.load { report(rows: $0, bytes: $1, finished: false) })
      }
    } else {
      counts = try load()
    }
    report(rows: counts.rowsRead, bytes: total ?? reader.bytesRead, finished: true)
    return .loaded(
      SeedTableReport(
        item.file,
        table: item.table.name,
        mode: options.mode,
        checksum: try reader.checksum(),
        counts: counts,
        durationMs: milliseconds(clock.now - start)
      )
    )
  }
}
