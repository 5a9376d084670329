/// One thing `MigrationLinter` found in a pending migration's up part.
public struct LintFinding: Hashable, Sendable, Codable {
  /// The migration file, as the user named it.
  public let file: String
  /// The line on which the statement (or the directive) starts.
  public let line: Int
  /// The rule.
  public let rule: LintRule
  /// What was found.
  public let message: String
  /// What to do about it.
  public let help: String

  /// A finding of `rule` at `file`:`line`, with the rule's own help.
  public init(file: String, line: Int, rule: LintRule, message: String) {
    self.file = file
    self.line = line
    self.rule = rule
    self.message = message
    self.help = rule.help
  }

  /// "migrations/0002_x.sql:3: drop-table: drops table person".
  public var description: String { "\(file):\(line): \(rule.rawValue): \(message)" }
}

/// Where the linter's replay of the migrations stopped: a statement failed, so what follows it
/// was not linted.
public struct LintStop: Hashable, Sendable, Codable {
  /// The migration file.
  public let file: String
  /// The failing statement's line.
  public let line: Int
  /// SQLite's error.
  public let reason: String
}

/// What `MigrationLinter` found.
public struct LintResult: Hashable, Sendable, Codable {
  /// Every finding, in the order of the migrations and their lines.
  public let findings: [LintFinding]
  /// How many migrations were pending (and linted).
  public let pendingMigrations: Int
  /// Where the replay stopped, when a statement failed; nil when every pending part ran.
  public let stoppedAt: LintStop?
}
