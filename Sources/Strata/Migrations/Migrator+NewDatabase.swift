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
  package func migrateNewDatabase(
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
    guard !options.dryRun else { return nil }
    guard options.backup == nil, !NewDatabaseFile.nameIsTaken(url) else {
      NewDatabaseFile.removeLeftoversOfKilledRuns(of: url)
      return nil
    }
    try checkDatabasePath(url)
    try prepareFolder(for: url, creating: createsFolder)
    try checkWritableFolder(for: url)
    guard let temporary = NewDatabaseFile.temporaryURL(for: url) else { return nil }
    // One build of a name at a time: a second process waits here, then finds the name taken
    // and migrates the file that is there, so no migration runs twice.
    let lock = try BuildLock.forCreating(url, waitingMilliseconds: busyTimeout)
    if NewDatabaseFile.nameIsTaken(url) {
      if lock != nil { NewDatabaseFile.removeTemporaryFiles(url) }
      lock?.release()
      return nil
    }
    // Under the lock every temporary file for the name is a killed run's.
    NewDatabaseFile.removeTemporaryFiles(
      url,
      olderThan: lock == nil ? NewDatabaseFile.staleAfter : -.infinity
    )
    defer { NewDatabaseFile.remove(temporary) }
    // A file system without hard links (FAT, some network shares) could not link the build
    // into place: found before anything runs, and the caller migrates the file in place.
    guard NewDatabaseFile.canLink(temporary) else {
      lock?.release()
      return nil
    }
    let (outcome, size) = try build(
      temporary,
      shownAs: url,
      options,
      busyTimeout,
      configuration,
      willRun,
      around
    )
    // A failed run (a full disk) may leave pages past the database's end: not kept.
    if case .failure = outcome, let size { truncate(temporary.path, off_t(size)) }
    let linked: Bool
    do {
      linked = try linkIntoPlace(temporary, url)
    } catch let error as FileSyncError where error.linksUnsupported {
      lock?.release()
      return nil
    } catch let error as FileSyncError {
      throw DatabaseOpenError.notCreated(path: url.path, reason: error.reason)
    }
    // The database is in place (or someone else's is, and the caller migrates that one).
    lock?.release()
    guard linked else { return nil }
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
  ) throws -> (Result<MigrationReport, any Error>, size: Int64?) {
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
    let pages = try connection.scalar("PRAGMA page_count")?.integerValue
    let pageSize = try connection.scalar("PRAGMA page_size")?.integerValue
    return (outcome, pages.flatMap { count in pageSize.map { count * $0 } })
  }
}
