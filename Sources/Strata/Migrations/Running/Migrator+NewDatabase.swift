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

  /// `migrateNewDatabase(at:options:busyTimeout:configuration:createsFolder:)` with the launch
  /// call's hooks; the build is `NewDatabaseBuild`'s.
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
    try NewDatabaseBuild(
      migrator: self,
      options: options,
      busyTimeout: busyTimeout,
      configuration: configuration,
      willRun: willRun,
      around: around
    )
    .run(at: url, createsFolder: createsFolder, linkIntoPlace: linkIntoPlace)
  }
}
