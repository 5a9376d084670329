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
    }
  }
}
