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
  package var up: String { Self.text(upStatements) }

  /// The down part's SQL; nil when the change cannot be undone (``irreversibleReason``).
  package var down: String? { downStatements.map { Self.text($0) } }

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

  /// The statements as a part's text, a blank line between them.
  static func text(_ statements: [PlannedStatement]) -> String {
    NewMigrationContent.text(statements.map(newStatement))
  }

  /// A statement as a new migration's file holds it: its comment lines (each fit for one
  /// `--` line) and its SQL, ending with `;`.
  static func newStatement(_ statement: PlannedStatement) -> NewMigrationContent.Statement {
    NewMigrationContent.Statement(
      comments: statement.comments.map { "-- \(commentText($0))\n" }.joined(),
      sql: terminatedStatement(statement.sql)
    )
  }
}
