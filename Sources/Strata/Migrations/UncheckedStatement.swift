// Declared beside the migrations rather than with the replay (Inspection/MigrationReplay.swift)
// that fills most of them: a dry run of `migrate` lists the statements it does not check too,
// and Migrations/ sits below Inspection/.

/// A statement of a migration that the replay of the migrations did not run, so `validate` and
/// `inspect --diff` did not check it: where it is and why.
package struct UncheckedStatement: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The migration file, as the user named it.
  package let file: String
  /// The line on which the statement starts; nil when the whole file was not checked.
  package let line: Int?
  /// The statement's first 200 characters, on one line.
  package let statement: String?
  /// Why the replay did not run it.
  package let reason: String

  /// "migrations/0002_x.sql:1 `ATTACH 'o.db' AS o`: not checked: …".
  package var description: String {
    let place = line.map { "\(file):\($0)" } ?? file
    let shown = statement.map { " `\($0)`" } ?? ""
    return "\(place)\(shown): not checked: \(reason)"
  }
}

extension UncheckedStatement {
  /// A whole file the replay did not run.
  init(wholeFile file: String, reason: String) {
    self.init(file: file, line: nil, statement: nil, reason: reason)
  }
}
