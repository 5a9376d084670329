import StrataArguments

/// The one rule for output in a language, which is saved and run again (the SQL of `inspect
/// --format sql` and of `diff`): to a file or a pipe, the text exactly as it was made and
/// checked, byte for byte, so that `strata diff … > migrations/0002.sql` saves the migration
/// that was checked and a dump recreates the same names and values; on a terminal, escaped as
/// every other output is, so that a name or value from a database cannot set the window's
/// title, clear the screen or forge a line.
///
/// On a terminal the controls inside a name or a string, line breaks included, are written as
/// `\u{1B}` (`SchemaDisplay.escapingQuotedLineBreaks`, as the text formats show CREATE
/// statements), and so is every control outside one but the statements' own line breaks and
/// tabs. Text for people (text, Markdown, Mermaid, help, messages) is escaped wherever it goes
/// (`CommandContext.print`); JSON is escaped as JSON (`CommandContext.printJSON`).
package enum SQLOutput {
  /// Where standard output goes, as far as the rule is concerned.
  package enum Destination: Sendable {
    /// A terminal (`isatty`): a person reads it.
    case terminal
    /// A file, a pipe, a socket, /dev/null: a program or a saved file reads it.
    case fileOrPipe
  }

  /// `sql` as written to `destination`.
  package static func rendered(_ sql: String, to destination: Destination) -> String {
    switch destination {
    case .fileOrPipe:
      return sql
    case .terminal:
      let quoted = SchemaDisplay.escapingQuotedLineBreaks(sql)
      var lines = quoted.split(separator: "\n", omittingEmptySubsequences: false)
      let last = lines.removeLast()
      return lines.map { escapingControls(String($0), keepingTabs: true) + "\n" }.joined()
        + escapingControls(String(last), keepingTabs: true)
    }
  }

  /// What `strata diff` prints for a migration's files (one in most formats; diesel's `up.sql`
  /// and `down.sql`): each file's text, after a `-- file:` comment naming it when there are
  /// more, a blank line between them.
  package static func migrationFiles(_ files: [(ending: String, text: String)]) -> String {
    guard files.count > 1 else { return files.first.map { terminated($0.text) } ?? "" }
    return files.enumerated().map { index, file in
      (index > 0 ? "\n" : "") + "-- file: \(file.ending)\n" + terminated(file.text)
    }.joined()
  }

  private static func terminated(_ text: String) -> String {
    text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
  }
}
