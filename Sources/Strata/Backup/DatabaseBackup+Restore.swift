import Foundation

/// What restoring a backup did.
public struct RestoreReport: Hashable, Sendable, Codable {
  /// The database written.
  public let database: URL
  /// The backup copied into it.
  public let backup: URL
  /// The database's version now (its history's newest, from the backup).
  public let version: MigrationVersion
  /// The versions the database had and the backup lacks (or records otherwise), undone by a
  /// forced restore; empty when it had nothing the backup lacks.
  public let undone: [MigrationVersion]
}

extension DatabaseBackup {
  /// Copies `backup` into the database file at `database` through SQLite's backup API, page
  /// for page under the database's write lock: the file is written in place, never renamed or
  /// replaced, so connections that have it open read the backup's data in their next
  /// transaction. Afterwards the database has the backup's pages, rows and history.
  ///
  /// Refuses, changing nothing, when the database's history has a migration the backup's lacks
  /// or records with another checksum (it has moved past the backup), unless `force`. The
  /// history is compared, not file times; rows written since the backup without a migration
  /// are lost by any restore.
  ///
  /// - Throws: `BackupError`: a missing backup or one that is not SQLite, versions that would
  ///   be undone, a copy that failed; `DatabaseOpenError` when the database cannot be opened for
  ///   writing (missing, read-only).
  @discardableResult
  public static func restore(
    _ backup: URL,
    into database: URL,
    force: Bool = false,
    busyTimeout: Int = Connection.defaultBusyTimeout
  ) throws -> RestoreReport {
    switch databaseFileKind(at: backup.path) {
    case .missing: throw BackupError.missing(path: backup.path)
    case .sqlite: break
    case .directory, .empty, .notSQLite: throw BackupError.notADatabase(path: backup.path)
    }
    let live = try Connection.open(at: database, access: .write, busyTimeout: busyTimeout)
    let source: Connection
    let kept: [AppliedMigration]
    do {
      source = try ConnectionConfiguration.none.open(
        path: backup.path,
        mode: .readOnly,
        busyTimeout: busyTimeout
      )
      kept = try History.read(source)
    } catch let error as SQLiteError where error.isNotADatabase {
      throw BackupError.notADatabase(path: backup.path)
    }
    let recorded = Dictionary(kept.map { ($0.version, $0.checksum) }, uniquingKeysWith: { $1 })
    let undone = try History.read(live).filter { recorded[$0.version] != $0.checksum }
      .map(\.version)
    if !undone.isEmpty, !force {
      throw BackupError.wouldUndo(database: database.path, backup: backup.path, versions: undone)
    }
    do {
      try source.copyPages(into: live)
    } catch let error as SQLiteError {
      throw BackupError.restoreFailed(
        database: database.path,
        backup: backup.path,
        reason: error.message
      )
    }
    return RestoreReport(
      database: database,
      backup: backup,
      version: try History.currentVersion(live),
      undone: undone
    )
  }
}
