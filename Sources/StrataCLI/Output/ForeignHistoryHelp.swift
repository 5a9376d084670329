import Strata

extension ForeignHistoryError {
  /// The library's help in the CLI's words: which `strata baseline` to run.
  var foreignHistoryHelp: String {
    switch self {
    case .notAdopted(let history) where history.failed != nil:
      return "Repair the database with \(history.tool.displayName) first (finish or undo "
        + "\(history.failed ?? "that migration") and clear its failed mark), then run 'strata "
        + "baseline --from \(history.tool.rawValue)'."
    case .notAdopted(let history):
      return "Run 'strata baseline --from \(history.tool.rawValue)' to record the versions "
        + "\(history.tool.displayName) applied as applied (without running them); 'strata "
        + "migrate' then applies only the newer migrations."
    case .severalFound(let tools):
      return "Run 'strata baseline --from TOOL' with the tool whose history matches these "
        + "migrations: " + tools.map(\.rawValue).joined(separator: " or ") + "."
    case .unmappable:
      return "Check which files those entries correspond to, then run 'strata baseline "
        + "--version V' (V: the newest migration the database already has)."
    case .notFound(_, let found) where !found.isEmpty:
      return "Run 'strata baseline --from "
        + found.map(\.rawValue).joined(separator: "' or '--from ") + "'."
    case .notFound:
      return "If the database already has the schema of some migrations, run 'strata baseline "
        + "--version V' (V: the newest one it has)."
    case .noFile:
      return "Point --migrations at the folder whose files that tool applied, or add the "
        + "missing files, then run 'strata baseline --from \(tool?.rawValue ?? "auto")' again."
    case .noRepeatableFile(let tool, _, _):
      return "Restore the file (from version control), or, if it was removed on purpose, run "
        + "'\(tool.rawValue) repair' first to mark it deleted in \(tool.displayName)'s history; "
        + "then run 'strata baseline --from \(tool.rawValue)' again."
    case .failedHalfWay:
      return help
    case .editedFiles(let tool, let files):
      return "Restore " + files.map(\.file).joined(separator: ", ") + " as \(tool.displayName) "
        + "applied " + (files.count == 1 ? "it" : "them") + " (from version control), then run "
        + "'strata baseline --from \(tool.rawValue)' again"
        + (tool == .flyway
          ? "; or run 'flyway repair' first to record the edited "
            + (files.count == 1 ? "file's checksum" : "files' checksums") + " in Flyway's history"
          : "")
        + "; or, if the edit changes nothing the database needs, add --allow-changed to record "
        + (files.count == 1 ? "today's file" : "today's files") + " as applied (the database "
        + "keeps what the " + (files.count == 1 ? "old one" : "old ones") + " did)."
    }
  }
}
