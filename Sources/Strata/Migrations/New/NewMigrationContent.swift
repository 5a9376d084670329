/// SQL for a new migration's parts, in place of the `-- strata:todo` lines: a migration
/// generated from a desired schema (`GeneratedMigration.newMigrationContent`). The caller says
/// what the parts hold; the writer lays them out as the folder's format needs.
struct NewMigrationContent: Hashable, Sendable {
  /// One statement of a part.
  struct Statement: Hashable, Sendable {
    /// The comment lines before it, each starting with `--` and ending with a line break.
    let comments: String
    /// The statement, ending with its `;`.
    let sql: String
  }

  /// The comment lines the up part starts with (what the migration changes), each ending with
  /// a line break.
  let header: String
  /// The up part's statements.
  let up: [Statement]
  /// A comment line after the up part's statements, ending with a line break (why there is no
  /// down part).
  let upNote: String?
  /// The down part's statements; nil when there is no down part.
  let down: [Statement]?

  /// The up and down parts as `format` writes them in one file or in two; the down part is nil
  /// when there is none.
  func parts(for format: MigrationFormat) -> (up: String, down: String?) {
    let wrap: (begin: String, end: String)? =
      switch format {
      case .goose: ("-- +goose StatementBegin", "-- +goose StatementEnd")
      case .sqlMigrate: ("-- +migrate StatementBegin", "-- +migrate StatementEnd")
      default: nil
      }
    var upText = header + Self.text(up, wrapping: wrap)
    if let upNote { upText += "\n" + upNote }
    return (upText, down.map { Self.text($0, wrapping: wrap) })
  }

  /// The statements as a part's text, a blank line between them; a statement that holds `;` of
  /// its own (a trigger), or a line that goose and sql-migrate would take as its end, goes
  /// between `wrapping`'s lines, for the tools that split a part at each `;`.
  static func text(
    _ statements: [Statement],
    wrapping: (begin: String, end: String)? = nil
  ) -> String {
    statements.map { statement in
      let sql = statement.sql
      guard let wrapping,
        SQLTokenizer(sql).tokens().filter({ $0.isSymbol(";") }).count > 1
          || endsEarly(sql)
      else {
        return statement.comments + sql + "\n"
      }
      return statement.comments + wrapping.begin + "\n" + sql + "\n" + wrapping.end + "\n"
    }.joined(separator: "\n")
  }

  /// True when a line of `sql` before its last ends a statement as goose and sql-migrate read
  /// it: its last word before a `--` word ends in `;`, whether or not that `;` is inside a
  /// string or a quoted name (`DEFAULT 'x;` then a line break).
  static func endsEarly(_ sql: String) -> Bool {
    let lines = sql.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.dropLast().contains { line in
      var last: Substring?
      for word in Substring(line).split(whereSeparator: \.isWhitespace) {
        if word.hasPrefix("--") { break }
        last = word
      }
      return last?.hasSuffix(";") == true
    }
  }
}
