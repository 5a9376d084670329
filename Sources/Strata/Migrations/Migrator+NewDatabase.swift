import Foundation

extension Migrator {
  /// `migrate` of a database that does not exist yet, built the way a template is installed:
  /// in a temporary file beside `url`, then flushed once and linked into place when the run
  /// ends. A crash or power cut during the run leaves no database rather than a part-built
  /// one, and the run needs one flush in all instead of four per migration (nothing else can
  /// see the file, so there is nothing for SQLite's per-commit syncs to protect).
  ///
  /// The file is linked also when a migration fails: it then holds the migrations before the
  /// failing one, as a run on an existing file leaves it, and the error says so.
  ///
  /// - Parameter createsFolder: make `url`'s folder when it is missing.
  /// - Parameter willRun: as `migrate(_:options:willRun:)`'s.
  /// - Returns: the report and a connection to the new database; nil when there is something
  ///   at `url` already (or another process created it during the run), the run is a dry run
  ///   or asks for a backup, or the folder's file system cannot make a hard link: the caller
  ///   then opens `url` and migrates it as usual.
  /// - Throws: what `migrate` throws, once the file is in place; `DatabaseOpenError` when the
  ///   folder is missing or read-only, or the new file could not be flushed or linked (nothing
  ///   is then at `url`).
  @_spi(StrataCLI)
  public func migrateNewDatabase(
    at url: URL,
    options: MigrateOptions,
    busyTimeout: Int,
    configuration: ConnectionConfiguration,
    createsFolder: Bool = false
  ) throws -> (report: MigrationReport, connection: Connection)? {
    try migrateNewDatabase(
      at: url,
      options: options,
      busyTimeout: busyTimeout,
      configuration: configuration,
      createsFolder: createsFolder,
      willRun: nil,
      around: nil
    )
  }

  /// How a caller wraps the run on the new database's connection (the launch call's
  /// cancellation, which interrupts a running statement on it).
  typealias RunWrapper = (Connection, () throws -> MigrationReport) throws -> MigrationReport

  func migrateNewDatabase(
    at url: URL,
    options: MigrateOptions,
    busyTimeout: Int,
    configuration: ConnectionConfiguration,
    createsFolder: Bool,
    willRun: WillRun?,
    around: RunWrapper?,
    linkIntoPlace: (URL, URL) throws -> Bool = NewDatabaseFile.linkIntoPlace
  ) throws -> (report: MigrationReport, connection: Connection)? {
    guard !options.dryRun, options.backup == nil, !NewDatabaseFile.nameIsTaken(url) else {
      return nil
    }
    try checkDatabasePath(url)
    try prepareFolder(for: url, creating: createsFolder)
    try checkWritableFolder(for: url)
    let temporary = NewDatabaseFile.temporaryURL(for: url)
    defer { NewDatabaseFile.remove(temporary) }
    let outcome = try build(
      temporary,
      shownAs: url,
      options,
      busyTimeout,
      configuration,
      willRun,
      around
    )
    let linked: Bool
    do {
      linked = try linkIntoPlace(temporary, url)
    } catch let error as FileSyncError where error.linksUnsupported {
      // A file system without hard links (FAT, some network shares): the build is thrown
      // away and the caller migrates the file in place, as before there was a build.
      return nil
    } catch let error as FileSyncError {
      throw DatabaseOpenError.notCreated(path: url.path, reason: error.reason)
    }
    // Someone else's database is there now: the caller migrates that one instead.
    guard linked else { return nil }
    // What killed runs left beside it; a build still running elsewhere finds the name taken.
    NewDatabaseFile.removeAll(of: url)
    let report = try outcome.get()
    let connection = try Connection.open(
      at: url,
      access: .write,
      busyTimeout: busyTimeout,
      configuration: configuration
    )
    return (report, connection)
  }

  /// Opens `temporary` with SQLite's syncs off and its rollback journal in memory, runs the
  /// migrations and closes it, leaving everything in the one file.
  private func build(
    _ temporary: URL,
    shownAs url: URL,
    _ options: MigrateOptions,
    _ busyTimeout: Int,
    _ configuration: ConnectionConfiguration,
    _ willRun: WillRun?,
    _ around: RunWrapper?
  ) throws -> Result<MigrationReport, any Error> {
    let connection: Connection
    do {
      connection = try configuration.open(
        path: temporary.path,
        mode: .readWriteCreate,
        busyTimeout: busyTimeout,
        foreignKeys: true,
        shownAs: url.path
      )
    } catch let error as SQLiteError {
      throw DatabaseOpenError.sqlite(path: url.path, error)
    }
    try connection.execute("PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY")
    let run = { try migrate(connection, options: options, willRun: willRun) }
    let outcome = Result { try around.map { try $0(connection, run) } ?? run() }
    // A migration may have switched the file to WAL: its log goes into the file before the
    // file is linked, or committed migrations would stay behind in the -wal.
    if try connection.scalar("PRAGMA journal_mode")?.textValue == "wal" {
      try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    var info = stat()
    if stat(temporary.path + "-wal", &info) == 0, info.st_size > 0 {
      throw DatabaseOpenError.notCreated(
        path: url.path,
        reason: "its write-ahead log could not be checkpointed into it"
      )
    }
    return outcome
  }
}
