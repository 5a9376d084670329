/// The statements a migration part that runs in strata's transaction may not hold: SQLite
/// refuses them inside a transaction (`VACUUM`, `PRAGMA synchronous = …`), silently ignores
/// them there (`PRAGMA journal_mode = …`), or they would commit or drop strata's transaction
/// half way through the migration (`BEGIN`, `COMMIT`, `END`, `ROLLBACK`; `ROLLBACK TO` a
/// savepoint stays inside it and is fine).
///
/// SQLite's authorizer classifies each statement as it is prepared (PreparedStatementKind.swift);
/// only `VACUUM`, which SQLite compiles without asking the authorizer anything, is recognised
/// by its first token (SQLTokenizer.swift).
enum TransactionBoundStatement {
  /// The first words of the statements that begin or end a transaction, as messages name them.
  static let transactionControl: Set<String> = ["BEGIN", "COMMIT", "END", "ROLLBACK"]
  /// The pragmas SQLite refuses or ignores when they are set inside a transaction.
  static let pragmas: Set<String> = ["journal_mode", "synchronous"]

  /// How a message names the statement `sql`, which SQLite compiled as `kind`, when it cannot
  /// run inside a transaction (`VACUUM`, `END`, `PRAGMA journal_mode`); nil when it can.
  static func named(_ kind: PreparedStatementKind, sql: String) -> String? {
    switch kind {
    case .transaction:
      // The user's own word: SQLite reports `END` as `COMMIT`.
      return firstWord(sql)
    case .pragma(let name, setsValue: true) where pragmas.contains(name):
      return "PRAGMA \(name)"
    case .unreported:
      return firstWord(sql) == "VACUUM" ? "VACUUM" : nil
    case .savepoint, .attach, .detach, .pragma, .other:
      return nil
    }
  }

  /// The statement's first keyword, uppercased. Only its start is tokenized: the statement may
  /// be a many-megabyte `INSERT` that failed to parse.
  private static func firstWord(_ sql: String) -> String? {
    let first = SQLTokenizer(String(sql.prefix(64))).tokens().first
    guard let first, first.kind == .word else { return nil }
    return first.text.uppercased()
  }
}
