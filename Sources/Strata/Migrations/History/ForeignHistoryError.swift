/// Why another tool's history stops `migrate`, or cannot be adopted.
///
/// Nothing is changed when one of these is thrown: the database keeps both its schema and the
/// other tool's table as they were.
package enum ForeignHistoryError: StrataError, Equatable {
  /// `migrate` on a database with another tool's history and none of strata's: it would run
  /// again what that tool applied.
  case notAdopted(ForeignHistory)
  /// The other tool records a migration that failed half-way (golang-migrate's dirty flag,
  /// sqlx's or Flyway's failed row).
  case failedHalfWay(tool: ForeignTool, migration: String)
  /// Entries of the other tool's history that are not version numbers (GRDB's names, Flyway's
  /// dotted versions), so no file can be matched with them.
  case unmappable(tool: ForeignTool, entries: [String])
  /// Versions the other tool applied that no migration file here has.
  case noFile(tool: ForeignTool, versions: [MigrationVersion], directory: String)
  /// Flyway's repeatable migrations (by the description it records) applied and not marked
  /// deleted, that no file here has.
  case noRepeatableFile(tool: ForeignTool, descriptions: [String], directory: String)
  /// The tool asked for left no history in the database; `found` lists the ones that did.
  case notFound(tool: ForeignTool?, found: [ForeignTool])
  /// More than one tool's history, and no tool named: strata cannot tell which one to adopt.
  case severalFound([ForeignTool])
  /// Files edited since the other tool applied them: their checksum is not the one it recorded
  /// (Flyway's and sqlx's validation refuse them too).
  case editedFiles(tool: ForeignTool, files: [EditedFile])

  /// What was found and why it stops the command; says that nothing was changed.
  package var message: String {
    switch self {
    case .notAdopted(let history):
      return "the database has no strata history but has \(history.tool.displayName)'s "
        + "(\(history.table)), which records \(history.recordedDescription): applying the "
        + "migrations would run again what \(history.tool.displayName) already applied; "
        + "nothing was changed"
    case .failedHalfWay(let tool, let migration):
      return "\(tool.displayName)'s history (\(tool.table)) records that \(migration) failed "
        + "half-way"
        + (tool == .golangMigrate ? " (the database is marked dirty)" : "")
        + ": its schema may be partly changed, so what is applied cannot be known; nothing "
        + "was changed"
    case .unmappable(let tool, let entries):
      return "\(tool.displayName)'s history (\(tool.table)) records "
        + entries.map { "'\($0)'" }.joined(separator: ", ")
        + ", which \(entries.count == 1 ? "is not a version" : "are not versions"): strata "
        + "matches a history entry with the file of the same version number, and these match "
        + "none; nothing was changed"
    case .noFile(let tool, let versions, let directory):
      return "\(tool.displayName)'s history (\(tool.table)) records "
        + (versions.count == 1 ? "version " : "versions ")
        + versions.map(String.init).joined(separator: ", ")
        + ", which no migration file in \(directory) has; nothing was changed"
    case .noRepeatableFile(let tool, let descriptions, let directory):
      let names = descriptions.map { "'\($0)'" }.joined(separator: ", ")
      return "\(tool.displayName)'s history (\(tool.table)) records the repeatable "
        + (descriptions.count == 1 ? "migration " : "migrations ") + names + " as applied, "
        + "which no file in \(directory) has (R__"
        + (descriptions.first ?? "").replacingOccurrences(of: " ", with: "_") + ".sql); "
        + "\(tool.displayName)'s validate fails with \"Detected applied migration not resolved "
        + "locally: \(descriptions[0])\"; nothing was changed"
    case .notFound(let tool?, let found):
      return "the database has no \(tool.displayName) history (\(tool.table))"
        + Self.foundClause(found) + "; nothing was changed"
    case .notFound(nil, _):
      return "the database has no other migration tool's history (none of "
        + Set(ForeignTool.allCases.map(\.table)).sorted().joined(separator: ", ")
        + " is there); nothing was changed"
    case .editedFiles(let tool, let files):
      return Self.editedMessage(tool, files)
    case .severalFound(let tools):
      return "the database has the histories of "
        + tools.map { "\($0.displayName) (\($0.table))" }.joined(separator: " and ")
        + ", and strata cannot tell which one these migrations continue; nothing was changed"
    }
  }

  /// What to do next, in the library's words (the CLI names its own command).
  package var help: String {
    switch self {
    case .notAdopted(let history) where history.failed != nil:
      // Adopting it is refused while a migration is marked failed: repair comes first.
      return ForeignHistoryError.failedHalfWay(tool: history.tool, migration: history.failed ?? "")
        .help
    case .notAdopted(let history):
      return "Adopt \(history.tool.displayName)'s history first: strata then records the "
        + "versions it applied as applied, without running them, and applies only the newer "
        + "migrations."
    case .failedHalfWay(let tool, _):
      return "Repair the database with \(tool.displayName) first (finish or undo that "
        + "migration and clear its failed mark), then adopt its history."
    case .unmappable:
      return "Check which files those entries correspond to, then record every migration up "
        + "to the newest one the database has as applied (a baseline to that version)."
    case .noFile:
      return "Use the migrations folder whose files that tool applied, or add the missing "
        + "files, then adopt again."
    case .noRepeatableFile(let tool, _, _):
      return "Restore the file (from version control), or, if it was removed on purpose, let "
        + "\(tool.displayName) mark it deleted first (its repair), then adopt again."
    case .notFound(_, let found) where !found.isEmpty:
      return "Adopt the history the database has: "
        + found.map(\.rawValue).joined(separator: ", ") + "."
    case .notFound:
      return "To adopt a database that has the schema but no history, record every "
        + "migration up to the newest one it has as applied (a baseline to that version)."
    case .severalFound:
      return "Name the tool whose history matches these migrations."
    case .editedFiles(let tool, let files):
      return "Restore " + (files.count == 1 ? "the file" : "the files") + " as "
        + "\(tool.displayName) applied " + (files.count == 1 ? "it" : "them")
        + " (from version control), then adopt again"
        + (tool == .flyway
          ? "; or let Flyway accept the edit first (its repair records the "
            + (files.count == 1 ? "file's checksum)" : "files' checksums)")
          : "")
        + "; or, if the edit changes nothing the database needs, adopt allowing changed files "
        + "(allowChanged): " + (files.count == 1 ? "today's file is" : "today's files are")
        + " recorded as applied and the database keeps what the "
        + (files.count == 1 ? "old one" : "old ones") + " did."
    }
  }

  /// The tool of the history at fault, when there is one.
  package var tool: ForeignTool? {
    switch self {
    case .notAdopted(let history): history.tool
    case .failedHalfWay(let tool, _), .unmappable(let tool, _), .noFile(let tool, _, _),
      .noRepeatableFile(let tool, _, _):
      tool
    case .notFound(let tool, _): tool
    case .editedFiles(let tool, _): tool
    case .severalFound: nil
    }
  }

  /// Each file with the checksums, and the words the tool's own validation uses.
  private static func editedMessage(_ tool: ForeignTool, _ files: [EditedFile]) -> String {
    func shown(_ checksum: String) -> String {
      tool == .sqlx ? "SHA-384 " + checksum.prefix(16) + "…" : "checksum " + checksum
    }
    func detail(_ file: EditedFile) -> String {
      "version \(file.version): \(tool.displayName) recorded \(shown(file.recorded)), the file "
        + "now has \(shown(file.current))"
    }
    func toolWords(_ version: MigrationVersion) -> String {
      tool == .flyway
        ? "Flyway's validate fails with \"Migration checksum mismatch for migration version "
          + "\(version)\""
        : "\(tool.displayName) fails with \"migration \(version) was previously applied but "
          + "has been modified\""
    }
    let head =
      files.count == 1
      ? "\(files[0].file) was edited after \(tool.displayName) applied it ("
        + detail(files[0]) + ")"
      : "\(files.count) files were edited after \(tool.displayName) applied them: "
        + files.map { "\($0.file) (\(detail($0)))" }.joined(separator: ", ")
    return head + "; " + toolWords(files[0].version)
      + (files.count == 1 ? "" : " and the like for each")
      + "; recording " + (files.count == 1 ? "it" : "them") + " as applied would hide that the "
      + "database has what the " + (files.count == 1 ? "old file" : "old files") + " did; "
      + "nothing was adopted and the database is unchanged"
  }

  private static func foundClause(_ found: [ForeignTool]) -> String {
    guard !found.isEmpty else { return "" }
    return "; it has " + found.map { "\($0.displayName)'s (\($0.table))" }.joined(separator: ", ")
  }
}
