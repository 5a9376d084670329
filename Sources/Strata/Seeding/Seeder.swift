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
  /// The database the seeds load into.
  public let connection: Connection

  /// A seeder for `connection`'s database, which must already have the tables (migrate first).
  public init(connection: Connection) {
    self.connection = connection
  }

  // MARK: - Finding files

  /// Every `*.csv` file directly in `directory`, sorted by name; other files (such as a
  /// `template.sqlite3`) and hidden files are skipped. Each loads into the table named by its
  /// stem.
  ///
  /// A `.csv` entry that is not a regular file (a named pipe would block forever), or a
  /// symbolic link out of the folder, is an error unless `followSymlinks` allows the link.
  ///
  /// - Parameter directory: the seeds folder.
  /// - Parameter followSymlinks: read files that are symbolic links out of the folder.
  /// - Parameter displayPath: how the folder is shown in messages (default: its path).
  /// - Throws: `SeedError` when the folder is missing or unreadable, or a file in it is not a
  ///   regular file or links out of the folder.
  public static func files(
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
  public static func checksum(of url: URL) throws -> String {
    let reader = try CSVReader(url: url, computeChecksum: true)
    return try reader.checksum() ?? ""
  }

  // MARK: - Ledger

  /// Every row of the `strata_seeds` ledger, oldest first; empty when there is none.
  ///
  /// - Throws: `SQLiteError` when the ledger cannot be read.
  public func ledger() throws -> [SeedLedgerEntry] {
    guard try Self.ledgerExists(connection) else { return [] }
    return try connection.rows(
      "SELECT file, checksum, table_name, mode, rows_inserted, rows_updated, applied_at "
        + "FROM strata_seeds ORDER BY rowid"
    ).map { row in
      SeedLedgerEntry(
        file: row[0].textValue ?? "",
        checksum: row[1].textValue ?? "",
        table: row[2].textValue ?? "",
        mode: row[3].textValue ?? "",
        rowsInserted: Int(row[4].integerValue ?? 0),
        rowsUpdated: Int(row[5].integerValue ?? 0),
        appliedAt: row[6].textValue ?? ""
      )
    }
  }

  /// Whether a file with this checksum has been loaded into `table` before.
  ///
  /// - Throws: `SQLiteError` when the ledger cannot be read.
  public func isRecorded(checksum: String, table: String) throws -> Bool {
    guard try Self.ledgerExists(connection) else { return false }
    return try connection.scalar(
      "SELECT 1 FROM strata_seeds WHERE checksum = ? AND table_name = ? COLLATE NOCASE LIMIT 1",
      [.text(checksum), .text(table)]
    ) != nil
  }

  static func ledgerExists(_ connection: Connection) throws -> Bool {
    try connection.scalar(
      "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'strata_seeds'"
    ) != nil
  }

  private func createLedger() throws {
    try connection.execute(
      """
      CREATE TABLE IF NOT EXISTS strata_seeds (
        file          TEXT NOT NULL,
        checksum      TEXT NOT NULL,
        table_name    TEXT NOT NULL,
        mode          TEXT NOT NULL,
        rows_inserted INTEGER NOT NULL,
        rows_updated  INTEGER NOT NULL,
        applied_at    TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS strata_seeds_checksum ON strata_seeds (checksum, table_name);
      """
    )
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

  /// Rolls back; a failure here never hides the error that caused it.
  private func rollBack(_ ownTransaction: Bool) {
    if ownTransaction {
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
    } else {
      try? connection.execute("ROLLBACK TO strata_seed")
      try? connection.execute("RELEASE strata_seed")
    }
  }

  /// Defers foreign keys for the run, so cycles load; returns how to put the setting back.
  /// COMMIT and ROLLBACK turn it off, but releasing or rolling back to a savepoint does not,
  /// so inside a caller's transaction it would otherwise stay on after the run. A caller that
  /// already deferred them is left alone: turning the pragma off also forgets the violations
  /// it deferred.
  private func deferForeignKeys() throws -> () -> Void {
    guard try connection.scalar("PRAGMA defer_foreign_keys")?.integerValue != 1 else {
      return {}
    }
    try connection.execute("PRAGMA defer_foreign_keys = ON")
    let connection = self.connection
    return { try? connection.execute("PRAGMA defer_foreign_keys = OFF") }
  }

  /// A large page cache for the load (SQLite's default is 2 MiB); returns how to restore it.
  private func enlargeCache(kibibytes: Int) throws -> () -> Void {
    guard let current = try connection.scalar("PRAGMA cache_size")?.integerValue else {
      return {}
    }
    let pageSize = try connection.scalar("PRAGMA page_size")?.integerValue ?? 4096
    let currentKiB = current < 0 ? -current : current * pageSize / 1024
    guard Int64(kibibytes) > currentKiB else { return {} }
    try connection.execute("PRAGMA cache_size = -\(kibibytes)")
    let connection = self.connection
    return { try? connection.execute("PRAGMA cache_size = \(current)") }
  }

  private struct Planned {
    let file: SeedFile
    let table: Table
  }

  private func run(
    _ files: [SeedFile],
    options: SeedOptions,
    progress: ((SeedProgress) -> Void)?
  ) throws -> [SeedTableReport] {
    // 1. Every file's table, and which files are already recorded.
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
        if try isRecorded(checksum: checksum, table: table.name) {
          skipped.append(
            SeedTableReport(
              file: file.displayPath,
              table: table.name,
              mode: options.mode,
              checksum: checksum,
              rowsRead: 0,
              inserted: 0,
              updated: 0,
              unchanged: 0,
              deleted: 0,
              alreadyRecorded: true,
              durationMs: 0
            )
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
    // 2. Every header, before any row is written. A stream (standard input, a pipe, a FIFO)
    // is read once: its loader, header read, is kept for step 3.
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
        maximumFieldBytes: options.maximumFieldBytes
      )
      if stream { streams[index] = loader }
      if options.mode == .replace, !options.force {
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
    let order = Self.parentsFirst(planned.map { ($0.file, $0.table) })
    let ordered = order.map { planned[$0] }
    // 3. Foreign-key violations already in the database are not this run's to report.
    let checked = try tablesToCheck(ordered.map(\.table), mode: options.mode)
    let before = try foreignKeyViolations(checked)
    try createLedger()

    var reports: [SeedTableReport] = []
    let clock = ContinuousClock()
    var loadedItems: [Planned] = []
    for (offset, item) in ordered.enumerated() {
      let start = clock.now
      let kept = streams.removeValue(forKey: order[offset])
      let loader =
        try kept
        ?? SeedLoader(
          file: item.file,
          table: item.table,
          mode: options.mode,
          connection: connection,
          computeChecksum: true,
          rowsPerStatement: options.rowsPerStatement,
          maximumFieldBytes: options.maximumFieldBytes
        )
      let total = loader.totalBytes
      func report(rows: Int, bytes: Int64, finished: Bool) {
        progress?(
          SeedProgress(
            file: item.file.displayPath,
            table: item.table.name,
            fileNumber: offset + 1,
            fileCount: ordered.count,
            bytesRead: bytes,
            totalBytes: total,
            rowsRead: rows,
            isFinished: finished
          )
        )
      }
      report(rows: 0, bytes: 0, finished: false)
      func load() throws -> SeedLoader.Counts {
        // A trigger on the seeded table must not change strata's own tables either.
        try connection.withFence(.strataTables) {
          try loader.load { rows, bytes in report(rows: rows, bytes: bytes, finished: false) }
        }
      }
      let counts: SeedLoader.Counts
      if kept != nil, options.onlyUnrecorded {
        // Its checksum is known only once it is read (see `loadUnlessRecorded`).
        guard let loaded = try loadUnlessRecorded(loader, table: item.table.name, load: load)
        else {
          skipped.append(
            Self.alreadyRecorded(item.file, table: item.table.name, mode: options.mode, loader)
          )
          continue
        }
        counts = loaded
      } else {
        counts = try load()
      }
      report(rows: counts.rowsRead, bytes: total ?? loader.bytesRead, finished: true)
      loadedItems.append(item)
      reports.append(
        SeedTableReport(
          file: item.file.displayPath,
          table: item.table.name,
          mode: options.mode,
          checksum: try loader.checksum(),
          rowsRead: counts.rowsRead,
          inserted: counts.inserted,
          updated: counts.updated,
          unchanged: options.mode == .replace
            ? 0 : counts.rowsRead - counts.inserted - counts.updated,
          deleted: counts.deleted,
          alreadyRecorded: false,
          durationMs: milliseconds(clock.now - start)
        )
      )
    }
    // 4. Orphans made by this run fail it, traced back to their file and line.
    try checkForeignKeys(
      checked,
      before: before,
      loaded: loadedItems,
      maximumFieldBytes: options.maximumFieldBytes
    )
    // 5. The ledger, in the same transaction.
    let appliedAt = utcTimestamp(Date())
    let insert = try connection.prepare(
      "INSERT INTO strata_seeds (file, checksum, table_name, mode, rows_inserted, rows_updated, "
        + "applied_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    for (item, report) in zip(loadedItems, reports) {
      try insert.bind([
        .text(item.file.ledgerName), .text(report.checksum), .text(report.table),
        .text(report.mode.rawValue), .integer(Int64(report.inserted)),
        .integer(Int64(report.updated)), .text(appliedAt),
      ])
      while try insert.step() {}
      insert.reset()
    }
    return skipped + reports
  }

  // MARK: - Order

  /// Indexes of `items` with each table after the tables it references (Kahn's algorithm,
  /// keeping the given order among equals). Tables in a cycle keep their given order; deferred
  /// foreign keys let them load.
  static func parentsFirst(_ items: [(file: SeedFile, table: Table)]) -> [Int] {
    let names = items.map { folded($0.table.name) }
    let parents = items.enumerated().map { offset, item in
      Set(item.table.foreignKeys.map { folded($0.parent) }).subtracting([names[offset]])
    }
    var placed = Array(repeating: false, count: items.count)
    var order: [Int] = []
    /// Whether `start` reaches itself through files not yet placed.
    func inCycle(_ start: Int) -> Bool {
      var stack = [start]
      var seen = Set<Int>()
      while let current = stack.popLast() {
        for other in items.indices
        where !placed[other] && parents[current].contains(names[other]) && other != current {
          if other == start { return true }
          if seen.insert(other).inserted { stack.append(other) }
        }
      }
      return false
    }
    while order.count < items.count {
      let ready = items.indices.first { index in
        !placed[index]
          && items.indices.allSatisfy { other in
            placed[other] || other == index || !parents[index].contains(names[other])
          }
      }
      // Stuck: break a cycle at its first file (a file merely waiting on a cycle waits on).
      let next =
        ready ?? items.indices.first { !placed[$0] && inCycle($0) }
        ?? items.indices.first { !placed[$0] } ?? 0
      placed[next] = true
      order.append(next)
    }
    return order
  }

  // MARK: - Foreign keys

  /// The seeded tables with foreign keys, plus (for `replace` and `upsert`, which can delete
  /// or change parent rows) every table that references them, directly or through a chain of
  /// cascades: a cascade into a child can orphan a grandchild.
  private func tablesToCheck(_ tables: [Table], mode: SeedMode) throws -> [String] {
    var names: [String] = []
    @discardableResult
    func add(_ name: String) -> Bool {
      guard !names.contains(where: { Self.folded($0) == Self.folded(name) }) else { return false }
      names.append(name)
      return true
    }
    var parents: [String] = []
    for table in tables {
      if !table.foreignKeys.isEmpty { add(table.name) }
      if mode == .replace || mode == .upsert { parents.append(table.name) }
    }
    var visited = Set(parents.map(Self.folded))
    while let parent = parents.popLast() {
      for child in try Self.referencingTables(of: parent, connection) {
        add(child)
        if visited.insert(Self.folded(child)).inserted { parents.append(child) }
      }
    }
    return names
  }

  private struct Violation: Hashable {
    let table: String
    let rowid: Int64?
    let parent: String
    let foreignKey: Int
  }

  private func foreignKeyViolations(_ tables: [String]) throws -> [Violation: Int] {
    var found: [Violation: Int] = [:]
    for table in tables {
      for row in try connection.rows("PRAGMA main.foreign_key_check(\(quoteIdentifier(table)))") {
        let violation = Violation(
          table: row[0].textValue ?? table,
          rowid: row[1].integerValue,
          parent: row[2].textValue ?? "",
          foreignKey: Int(row[3].integerValue ?? 0)
        )
        found[violation, default: 0] += 1
      }
    }
    return found
  }

  private func checkForeignKeys(
    _ tables: [String],
    before: [Violation: Int],
    loaded: [Planned],
    maximumFieldBytes: Int
  ) throws {
    guard !tables.isEmpty else { return }
    var remaining = before
    var fresh: [Violation] = []
    for (violation, count) in try foreignKeyViolations(tables) {
      let old = remaining[violation] ?? 0
      if count > old { fresh += Array(repeating: violation, count: count - old) }
      remaining[violation] = max(0, old - count)
    }
    guard !fresh.isEmpty else { return }
    // Report the first table (in load order) and foreign key with a new orphan.
    let loadOrder = loaded.map { Self.folded($0.table.name) }
    let first = fresh.min { a, b in
      let rankA = loadOrder.firstIndex(of: Self.folded(a.table)) ?? Int.max
      let rankB = loadOrder.firstIndex(of: Self.folded(b.table)) ?? Int.max
      return (rankA, a.foreignKey, a.rowid ?? 0) < (rankB, b.foreignKey, b.rowid ?? 0)
    }
    guard let first else { return }
    let count = fresh.filter { $0.table == first.table && $0.foreignKey == first.foreignKey }.count
    let child = try Self.readTable(named: first.table, file: "", connection)
    let foreignKey = child.foreignKeys.first { $0.id == first.foreignKey }
    let columns = foreignKey?.from ?? []
    var parentColumns = foreignKey?.to.compactMap { $0 } ?? []
    if let foreignKey, parentColumns.count != columns.count {
      let parent = try Self.readTable(named: foreignKey.parent, file: "", connection)
      parentColumns = parent.columns.filter { $0.primaryKeyPosition > 0 }
        .sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
    }
    for item in loaded where Self.folded(item.table.name) == Self.folded(first.table) {
      // A stream cannot be read again to find the line: name the file alone.
      if item.file.isReadOnce {
        throw SeedError.foreignKeyViolation(
          file: item.file.displayPath,
          line: nil,
          table: child.name,
          columns: columns,
          parent: first.parent,
          count: count
        )
      }
      if let line = try SeedLoader.firstOrphanLine(
        file: item.file,
        table: item.table,
        columns: columns,
        parent: first.parent,
        parentColumns: parentColumns,
        connection: connection,
        maximumFieldBytes: maximumFieldBytes
      ) {
        throw SeedError.foreignKeyViolation(
          file: item.file.displayPath,
          line: line,
          table: child.name,
          columns: columns,
          parent: first.parent,
          count: count
        )
      }
    }
    // The orphan is not a row of a file: a replaced or updated parent left it behind.
    let culprit = loaded.first { Self.folded($0.table.name) == Self.folded(first.parent) }
    throw SeedError.foreignKeyViolation(
      file: culprit?.file.displayPath,
      line: nil,
      table: child.name,
      columns: columns,
      parent: first.parent,
      count: count
    )
  }
}
