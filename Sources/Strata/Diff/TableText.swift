/// A `CREATE TABLE` statement's text, split where a generated migration needs it: each column
/// definition as written (for `ALTER TABLE … ADD COLUMN`), whether a column carries a
/// constraint `ADD COLUMN` cannot add, and the table's name (to create the statement under
/// another name for a rebuild).
struct TableText {
  /// One column definition: its name and its text as written (`email TEXT NOT NULL DEFAULT ''`).
  struct ColumnText {
    let name: String
    let text: String
    /// The definition's words, upper-cased (keywords and bare names), to look for a constraint.
    let words: [String]

    /// A `PRIMARY KEY` or `UNIQUE` on the column: an index `ADD COLUMN` cannot build.
    var hasKeyConstraint: Bool { words.contains("PRIMARY") || words.contains("UNIQUE") }
    /// A `REFERENCES` clause: the column is the child of a foreign key.
    var references: Bool { words.contains("REFERENCES") }
    /// A `STORED` generated column, which `ADD COLUMN` refuses.
    var isStored: Bool { words.contains("STORED") }
  }

  let sql: String
  /// The column definitions, in table order.
  let columns: [ColumnText]
  /// Where the table's name sits in `sql` (UTF-8 byte offsets), with any `schema.` before it.
  private let nameRange: Range<Int>?

  init(_ sql: String) {
    self.sql = sql
    let tokenizer = SQLTokenizer(sql)
    let tokens = tokenizer.tokens()
    var columns: [ColumnText] = []
    if let open = tokens.firstIndex(where: { $0.isSymbol("(") }),
      let close = matchingParenthesis(tokens, open)
    {
      for range in splitAtCommas(tokens, from: open + 1, to: close) {
        let item = Array(tokens[range])
        guard let first = item.first, let last = item.last else { continue }
        let startsConstraint =
          first.kind == .word
          && ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains(
            first.text.uppercased()
          )
        if startsConstraint { continue }
        columns.append(
          ColumnText(
            name: first.identifier,
            text: tokenizer.text(from: first.start, to: last.end),
            words: item.dropFirst().filter { $0.kind == .word }.map { $0.text.uppercased() }
          )
        )
      }
    }
    self.columns = columns
    nameRange = Self.nameRange(tokens)
  }

  /// The column definition of `name` (ASCII case-insensitively, as SQLite compares names).
  func column(_ name: String) -> ColumnText? {
    columns.first { sameName($0.name, name) }
  }

  /// The statement creating the same table under `name`.
  func renamed(to name: String) -> String {
    guard let nameRange else { return sql }
    var bytes = Array(sql.utf8)
    bytes.replaceSubrange(nameRange, with: Array(quoteIdentifier(name).utf8))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The name after `CREATE [TEMP] [VIRTUAL] TABLE [IF NOT EXISTS]`, with a `schema.` prefix.
  private static func nameRange(_ tokens: [SQLToken]) -> Range<Int>? {
    guard let table = tokens.firstIndex(where: { $0.isKeyword("TABLE") }) else { return nil }
    var index = table + 1
    if index + 2 < tokens.count, tokens[index].isKeyword("IF"), tokens[index + 1].isKeyword("NOT"),
      tokens[index + 2].isKeyword("EXISTS")
    {
      index += 3
    }
    guard index < tokens.count else { return nil }
    if index + 2 < tokens.count, tokens[index + 1].isSymbol(".") {
      return tokens[index].start..<tokens[index + 2].end
    }
    return tokens[index].start..<tokens[index].end
  }
}

/// Whether `sql` names any of `names` (lower-cased) as a word or quoted identifier: what a
/// view, trigger or expression may depend on. It over-counts (a column of the same name as a
/// table counts), which only means a view or trigger is dropped and created again unchanged.
func mentions(_ sql: String, anyOf names: Set<String>) -> Bool {
  guard !names.isEmpty else { return false }
  return SQLTokenizer(sql).tokens().contains { token in
    (token.kind == .word || token.kind == .quotedIdentifier)
      && names.contains(asciiLowercased(token.identifier))
  }
}

/// `sql` with each identifier token named in `renames` (lower-cased old name → new name)
/// replaced by the new name, quoted: an index or check as it reads after the renames.
func renamingIdentifiers(in sql: String, _ renames: [String: String]) -> String {
  guard !renames.isEmpty else { return sql }
  var bytes = Array(sql.utf8)
  for token in SQLTokenizer(sql).tokens().reversed()
  where token.kind == .word || token.kind == .quotedIdentifier {
    if let new = renames[asciiLowercased(token.identifier)] {
      bytes.replaceSubrange(token.start..<token.end, with: Array(quoteIdentifier(new).utf8))
    }
  }
  return String(decoding: bytes, as: UTF8.self)
}
