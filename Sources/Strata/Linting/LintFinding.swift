/// One thing `MigrationLinter` found in a pending migration's up part.
package struct LintFinding: Hashable, Sendable, Codable {
  /// The migration file, as the user named it.
  package let file: String
  /// The line on which the statement (or the directive) starts.
  package let line: Int
  /// The rule.
  package let rule: LintRule
  /// What was found.
  package let message: String
  /// What to do about it.
  package let help: String

  /// A finding of `rule` at `file`:`line`, with the rule's own help.
  package init(file: String, line: Int, rule: LintRule, message: String) {
    self.file = file
    self.line = line
    self.rule = rule
    self.message = message
    self.help = rule.help
  }

  /// "migrations/0002_x.sql:3: drop-table: drops table person".
  package var description: String { "\(file):\(line): \(rule.rawValue): \(message)" }
}

/// Where the linter's replay of the migrations stopped: a statement failed, so what follows it
/// was not linted.
package struct LintStop: Hashable, Sendable, Codable {
  /// The migration file.
  package let file: String
  /// The failing statement's line.
  package let line: Int
  /// SQLite's error.
  package let reason: String
}

/// What `MigrationLinter` found.
package struct LintResult: Hashable, Sendable, Codable {
  /// Every finding, in the order of the migrations and their lines.
  package let findings: [LintFinding]
  /// How many migrations were pending (and linted).
  package let pendingMigrations: Int
  /// Where the replay stopped, when a statement failed; nil when every pending part ran.
  package let stoppedAt: LintStop?
}
