import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What restoring a backup did.
package struct RestoreReport: Hashable, Sendable, Codable {
  /// The database written.
  package let database: URL
  /// The backup copied into it.
  package let backup: URL
  /// The database's version now (its history's newest, from the backup).
  package let version: MigrationVersion
  /// The versions the database had and the backup lacks (or records otherwise), undone by a
  /// forced restore; empty when it had nothing the backup lacks (or no history to read).
  package let undone: [MigrationVersion]
  /// What was at the database's path before the restore.
  package let before: Before
  /// For a database that could not be read: where its bytes were copied before the backup
  /// replaced them (`app.sqlite3.damaged-20261201T053012.345Z`, beside it), so that a forced
  /// restore loses nothing that a recovery tool might still read. nil otherwise.
  package var damagedCopy: URL? = nil

  /// What was at the database's path before a restore.
  package enum Before: String, Hashable, Sendable, Codable {
    /// A database SQLite could read: its history was compared with the backup's.
    case readable
    /// No file: the database was created from the backup.
    case missing
    /// A file SQLite could not read as a database (damaged, or not starting with SQLite's
    /// header): replaced by the backup, as forced.
    case unreadable
  }
}

extension DatabaseBackup {
  /// Copies `backup` into the database file at `database` through SQLite's backup API, page
  /// for page under the database's write lock: the file is written in place, never renamed or
  /// replaced, so connections that have it open read the backup's data in their next
  /// transaction. Afterwards the database has the backup's pages, rows and history.
  ///
  /// Before anything is written the backup is checked: it must be SQLite, pass SQLite's
  /// `integrity_check`, and not be the database file itself. A damaged backup is refused even
  /// with `force`.
  ///
  /// Refuses, changing nothing, when the database's history has a migration the backup's lacks
  /// or records with another checksum (it has moved past the backup), unless `force`. The
  /// history is compared, not file times; rows written since the backup without a migration
  /// are lost by any restore. A database SQLite cannot read (damaged, or its header
  /// overwritten) has no history to compare: refused unless `force`, which writes the backup
  /// over it, after copying its bytes aside (`RestoreReport.damagedCopy`; a file that is not
  /// SQLite at all is then emptied in place, see `RestoreReport.Before.unreadable`). A missing
  /// database is created from the backup.
  ///
  /// - Throws: `BackupError`: a missing, damaged or non-SQLite backup, the database itself
  ///   named as its backup, versions that would be undone, an unreadable database, a copy that
  ///   failed; `DatabaseOpenError` when the database cannot be written or created (read-only,
  ///   its folder missing or read-only).
  @discardableResult
  package static func restore(
    _ backup: URL,
    into database: URL,
    force: Bool = false,
    busyTimeout: Int = Connection.defaultBusyTimeout
  ) throws -> RestoreReport {
    switch databaseFileKind(at: backup.path) {
    case .missing: throw BackupError.missing(path: backup.path)
    case .sqlite: break
    case .protectedDataUnavailable:
      throw DatabaseOpenError.protectedDataUnavailable(path: backup.path)
    case .directory, .empty, .notSQLite: throw BackupError.notADatabase(path: backup.path)
    }
    try checkDatabasePath(database)
    if isSameFile(backup.path, database.path) {
      throw BackupError.isTheDatabase(backup: backup.path, database: database.path)
    }
    let (source, kept) = try checkedBackup(backup, into: database, busyTimeout: busyTimeout)
    func report(
      _ before: RestoreReport.Before,
      undone: [MigrationVersion] = [],
      damagedCopy: URL? = nil
    ) -> RestoreReport {
      RestoreReport(
        database: database,
        backup: backup,
        version: kept.last?.version ?? .zero,
        undone: undone,
        before: before,
        damagedCopy: damagedCopy
      )
    }
    switch try liveDatabase(database, busyTimeout: busyTimeout) {
    case .missing:
      let live = try Connection.open(at: database, access: .create, busyTimeout: busyTimeout)
      do {
        try copy(source, into: live, database: database, backup: backup)
      } catch {
        if databaseFileKind(at: database.path) == .empty { unlink(database.path) }
        throw error
      }
      return report(.missing)
    case .unreadable(let reason):
      guard force else {
        throw BackupError.databaseUnreadable(
          database: database.path,
          backup: backup.path,
          reason: reason
        )
      }
      let damaged = try keepDamagedCopy(of: database, backup: backup)
      try copy(source, overUnreadable: database, backup: backup, busyTimeout: busyTimeout)
      return report(.unreadable, damagedCopy: damaged)
    case .readable(let live, let history):
      let recorded = Dictionary(kept.map { ($0.version, $0.checksum) }, uniquingKeysWith: { $1 })
      let undone = history.filter { recorded[$0.version] != $0.checksum }.map(\.version)
      if !undone.isEmpty, !force {
        throw BackupError.wouldUndo(database: database.path, backup: backup.path, versions: undone)
      }
      try copy(source, into: live, database: database, backup: backup)
      return report(.readable, undone: undone)
    }
  }

  /// Copies the backup's pages into `live`.
  static func copy(_ source: Connection, into live: Connection, database: URL, backup: URL) throws {
    do {
      try source.copyPages(into: live)
    } catch let error as SQLiteError {
      throw BackupError.restoreFailed(
        database: database.path,
        backup: backup.path,
        reason: error.message
      )
    }
  }
}
