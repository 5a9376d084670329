import Foundation
import Strata

extension BackupError {
  /// The same error with its paths as the CLI shows them (relative to the current folder).
  func shown(_ context: CommandContext) -> BackupError {
    let show = { CommonOptions.shown(URL(fileURLWithPath: $0), context) }
    switch self {
    case .notWritten(let database, let backup, let version, let reason):
      return .notWritten(
        database: show(database),
        backup: show(backup),
        version: version,
        reason: reason
      )
    case .missing(let path): return .missing(path: show(path))
    case .notADatabase(let path): return .notADatabase(path: show(path))
    case .noBackups(let database): return .noBackups(database: show(database))
    case .wouldUndo(let database, let backup, let versions):
      return .wouldUndo(database: show(database), backup: show(backup), versions: versions)
    case .restoreFailed(let database, let backup, let reason):
      return .restoreFailed(database: show(database), backup: show(backup), reason: reason)
    case .damaged(let backup, let database, let problem):
      return .damaged(backup: show(backup), database: show(database), problem: problem)
    case .isTheDatabase(let backup, let database):
      return .isTheDatabase(backup: show(backup), database: show(database))
    case .databaseUnreadable(let database, let backup, let reason):
      return .databaseUnreadable(database: show(database), backup: show(backup), reason: reason)
    case .folderNotListed(let database, let folder, let reason):
      return .folderNotListed(database: show(database), folder: show(folder), reason: reason)
    case .restoreFailedAfterEmptying(let database, let backup, let reason):
      return .restoreFailedAfterEmptying(
        database: show(database),
        backup: show(backup),
        reason: reason
      )
    }
  }
}
