/// The `REPLACE` conflict resolution of a statement that writes rows: SQLite's authorizer
/// reports `INSERT OR REPLACE` as a plain insert, so the words decide, read by the tokenizer
/// (comments and strings never match; an UPSERT's `DO UPDATE` and the `replace()` function are
/// not it).
enum ReplaceClause {
  /// "INSERT OR REPLACE", "REPLACE INTO" or "UPDATE OR REPLACE" when `sql` uses it; nil
  /// otherwise. Only the statement's start is read: the clause comes before its values.
  static func phrase(in sql: String) -> String? {
    let tokens = SQLTokenizer(String(sql.prefix(65_536))).tokens()
    for index in tokens.indices where tokens[index].isKeyword("REPLACE") {
      if index >= 2, tokens[index - 1].isKeyword("OR") {
        if tokens[index - 2].isKeyword("INSERT") { return "INSERT OR REPLACE" }
        if tokens[index - 2].isKeyword("UPDATE") { return "UPDATE OR REPLACE" }
      }
      if index + 1 < tokens.count, tokens[index + 1].isKeyword("INTO") { return "REPLACE INTO" }
    }
    return nil
  }
}
