/// A migration generated from a desired schema, checked before it is returned: applied to a
/// scratch copy of the schema with sample rows, it gives the desired schema, keeps the rows of
/// every table it does not change, and its down part gives the schema back.
package struct GeneratedMigration: Hashable, Sendable {
  /// The desired schema's file, as the user named it.
  package let desiredFile: String
  /// The up part's statements.
  let upStatements: [PlannedStatement]
  /// The down part's statements; nil when the change cannot be undone.
  let downStatements: [PlannedStatement]?
  /// Why there is no down part, when there is none.
  package let irreversibleReason: String?
  /// One line per change, in the order the statements make them ("add column person.email").
  package let changes: [String]
  /// The changes that lose data, each also marked in the file by a comment before its
  /// statement.
  package let destructiveChanges: [String]
  /// How many tables of the current schema held sample rows in the check (a table whose
  /// constraints refuse every sample row is checked without rows).
  package let sampledTableCount: Int
  /// How many tables the current schema has.
  package let tableCount: Int

  /// True when the two schemas are already the same: there is nothing to migrate.
  package var isEmpty: Bool { upStatements.isEmpty }

  /// The up part's SQL: each statement after its comment lines, a blank line between them.
  package var up: String { Self.text(upStatements, wrapping: nil) }

  /// The down part's SQL; nil when the change cannot be undone (``irreversibleReason``).
  package var down: String? { downStatements.map { Self.text($0, wrapping: nil) } }

  /// The up and down parts as `format` writes them in one file or in two (the up part after a
  /// comment listing the changes); the down part is nil when there is none.
  func parts(for format: MigrationFormat) -> (up: String, down: String?) {
    let wrap: (begin: String, end: String)? =
      switch format {
      case .goose: ("-- +goose StatementBegin", "-- +goose StatementEnd")
      case .sqlMigrate: ("-- +migrate StatementBegin", "-- +migrate StatementEnd")
      default: nil
      }
    let header =
      ["-- Generated from \(Self.commentText(desiredFile)):"]
      + changes.map { "--   \(Self.commentText($0))" }
    var up = header.joined(separator: "\n") + "\n" + Self.text(upStatements, wrapping: wrap)
    if let irreversibleReason {
      up += "\n-- No down part: \(Self.commentText(irreversibleReason)).\n"
    }
    return (up, downStatements.map { Self.text($0, wrapping: wrap) })
  }

  /// `text` (which may name a table or a column, or the desired schema's file) fit for one
  /// `--` comment line: a line break would end the comment and run the rest of the name as
  /// SQL, and a carriage return ends a line for some tools, so each is written as `\u{A}` or
  /// `\u{D}`. A comment runs nothing, so the migration is the same.
  static func commentText(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
    var shown = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": shown.append(contentsOf: "\\u{A}".unicodeScalars)
      case "\r": shown.append(contentsOf: "\\u{D}".unicodeScalars)
      default: shown.append(scalar)
      }
    }
    return String(shown)
  }

  /// The statements as a part's text; a statement that holds `;` of its own (a trigger), or a
  /// line that goose and sql-migrate would take as its end, goes between `wrapping`'s lines,
  /// for the tools that split a part at each `;`.
  static func text(
    _ statements: [PlannedStatement],
    wrapping: (begin: String, end: String)?
  ) -> String {
    statements.map { statement in
      let sql = terminatedStatement(statement.sql)
      let comments = statement.comments.map { "-- \(commentText($0))\n" }.joined()
      guard let wrapping,
        SQLTokenizer(sql).tokens().filter({ $0.isSymbol(";") }).count > 1
          || endsEarly(sql)
      else {
        return comments + sql + "\n"
      }
      return comments + wrapping.begin + "\n" + sql + "\n" + wrapping.end + "\n"
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
