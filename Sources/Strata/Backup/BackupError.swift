import Foundation

/// Why a backup was not written, listed or restored.
public enum BackupError: StrataError, RemedialError, Equatable {
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

  /// What failed, where, and the state the database is in now.
  public var message: String {
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
    }
  }

  /// What to do next, in the library's words.
  public var help: String { help { $0.description } }

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
    }
  }
}
