import Foundation

/// Why a backup was not written, listed or restored.
package enum BackupError: StrataError, RemedialError, Equatable {
  /// The backup before a migrate run could not be written: no migration ran.
  case notWritten(database: String, backup: String, version: MigrationVersion, reason: String)
  /// The backup file does not exist.
  case missing(path: String)
  /// The backup file is not an SQLite database (or is a folder, or empty).
  case notADatabase(path: String)
  /// No backup of the database was found beside it.
  case noBackups(database: String)
  /// The database's history has migrations the backup's lacks (or records them otherwise):
  /// restoring would undo `versions`. Nothing was changed.
  case wouldUndo(database: String, backup: String, versions: [MigrationVersion])
  /// SQLite failed while copying the backup into the database: it is unchanged.
  case restoreFailed(database: String, backup: String, reason: String)
  /// The backup is damaged (its integrity check fails, or SQLite cannot read it): it is never
  /// restored, forced or not. Nothing was written to the database.
  case damaged(backup: String, database: String, problem: String)
  /// The backup is the database file itself (the same device and inode: the same path, a
  /// link to it). Nothing was changed.
  case isTheDatabase(backup: String, database: String)
  /// The database cannot be read as SQLite (damaged, or not starting with SQLite's header), so
  /// its history cannot be compared with the backup's: restored only when forced. Nothing was
  /// changed.
  case databaseUnreadable(database: String, backup: String, reason: String)
  /// The folder the database's backups would be in cannot be listed (it does not exist, is not
  /// a folder, or may not be read).
  case folderNotListed(database: String, folder: String, reason: String)
  /// A forced restore over a database SQLite could not read emptied the file, then copying the
  /// backup into it failed: the database is now an empty file.
  case restoreFailedAfterEmptying(database: String, backup: String, reason: String)

  /// What failed, where, and the state the database is in now.
  package var message: String {
    switch self {
    case .notWritten(let database, let backup, let version, let reason):
      "the backup of \(database) could not be written to \(backup): \(reason). No migration "
        + "was run: the database is still at version \(version)."
    case .missing(let path):
      "the backup \(path) does not exist"
    case .notADatabase(let path):
      "the backup \(path) is not an SQLite database"
    case .noBackups(let database):
      "no backup of \(database) was found beside it"
    case .wouldUndo(let database, let backup, let versions):
      "restoring \(backup) would undo "
        + (versions.count == 1 ? "version " : "versions ")
        + versions.map(\.text).joined(separator: ", ")
        + ", applied to \(database) after the backup was written (or recorded otherwise "
        + "in it). Nothing was changed."
    case .restoreFailed(let database, let backup, let reason):
      "restoring \(backup) into \(database) failed: \(reason). The database is unchanged."
    case .damaged(let backup, let database, let problem):
      "the backup \(backup) is damaged (\(problem)), so it was not restored: nothing was written, "
        + "and the database \(database) was left unchanged."
    case .isTheDatabase(let backup, let database):
      "the backup \(backup) is the database \(database) itself (the same file), so there is "
        + "nothing to restore. Nothing was changed."
    case .databaseUnreadable(let database, let backup, let reason):
      "the database \(database) cannot be read (\(reason)), so its history cannot be compared "
        + "with the backup \(backup)'s. Nothing was changed."
    case .folderNotListed(let database, let folder, let reason):
      "the backups of \(database) cannot be listed: its folder \(folder) \(reason). Nothing "
        + "was changed."
    case .restoreFailedAfterEmptying(let database, let backup, let reason):
      "restoring \(backup) into \(database) failed: \(reason). What \(database) held could not "
        + "be read and was removed before the copy: it is now an empty file."
    }
  }

  /// What to do next, in the library's words.
  package var help: String { help { $0.description } }

  /// What to do next, each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .notWritten:
      "Free space on the disk or make the database's folder writable, then \(say(.runAgain(.migrate))); "
        + "or \(say(.migrateWithoutBackup))."
    case .missing, .notADatabase:
      "Name a backup strata wrote beside the database: \(say(.listBackups))."
    case .noBackups:
      "Name the backup file to restore; a backup strata writes before migrating is named "
        + "<database file>.backup-<time>-v<version>.backup."
    case .wouldUndo:
      "To undo those migrations and lose what was written since the backup, "
        + "\(say(.forceRestore)); or roll them back with their down parts instead."
    case .restoreFailed:
      "Fix what SQLite reported (a lock another connection holds, a full disk), then restore again."
    case .damaged:
      "A damaged backup is never restored, not even when forced: restore another backup "
        + "(\(say(.listBackups)))."
    case .isTheDatabase:
      "Name a backup strata wrote beside the database: \(say(.listBackups))."
    case .databaseUnreadable(let database, let backup, _):
      "If \(database) is damaged and \(backup) is the copy to go back to, "
        + "\(say(.forceRestore)): what \(database) holds now is replaced by the backup, after "
        + "its bytes are copied beside it (\(database).damaged-…)."
    case .folderNotListed(_, let folder, _):
      sentence(say(.checkDatabasePath)) + ": a database's backups are beside it, in \(folder)."
    case .restoreFailedAfterEmptying:
      "Fix what SQLite reported (a lock another connection holds, a full disk), then "
        + "\(say(.forceRestore))."
    }
  }
}
