/// What the PRAGMAs leave out of a `CREATE TABLE`, read from its text.
struct TableDefinition {
  struct ColumnDefinition {
    var name: String
    var collation: String?
    var generatedExpression: String?
  }

  var columns: [ColumnDefinition] = []
  var checks: [Schema.CheckConstraint] = []
  var autoincrement = false
  var withoutRowID = false
  var strict = false

  init(sql: String) {
    let tokenizer = SQLTokenizer(sql)
    let tokens = tokenizer.tokens()
    guard let open = tokens.firstIndex(where: { $0.isSymbol("(") }),
      let close = matchingParenthesis(tokens, open)
    else { return }
    for item in splitAtCommas(tokens, from: open + 1, to: close) {
      parseItem(Array(tokens[item]), tokenizer)
    }
    let options = tokens[(close + 1)...]
    for (index, token) in options.enumerated() {
      if token.isKeyword("STRICT") { strict = true }
      if token.isKeyword("ROWID"), index > 0,
        options[options.index(options.startIndex, offsetBy: index - 1)].isKeyword("WITHOUT")
      {
        withoutRowID = true
      }
    }
  }

  private static let tableConstraintStarts = [
    "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN",
  ]

  private mutating func parseItem(_ item: [SQLToken], _ tokenizer: SQLTokenizer) {
    guard let first = item.first else { return }
    let isTableConstraint =
      first.kind == .word && Self.tableConstraintStarts.contains(first.text.uppercased())
    var column: ColumnDefinition? =
      isTableConstraint ? nil : ColumnDefinition(name: first.identifier)
    var constraintName: String?
    var index = isTableConstraint ? 0 : 1
    while index < item.count {
      let token = item[index]
      if token.isSymbol("(") {
        index = (matchingParenthesis(item, index) ?? item.count - 1) + 1
        continue
      }
      if token.isKeyword("CONSTRAINT"), index + 1 < item.count {
        constraintName = item[index + 1].identifier
        index += 2
        continue
      }
      if token.isKeyword("AUTOINCREMENT") { autoincrement = true }
      if token.isKeyword("COLLATE"), index + 1 < item.count, column != nil {
        column?.collation = item[index + 1].identifier
        index += 2
        continue
      }
      if token.isKeyword("CHECK"), index + 1 < item.count, item[index + 1].isSymbol("("),
        let close = matchingParenthesis(item, index + 1)
      {
        let expression = tokenizer.text(from: item[index + 1].end, to: item[close].start)
        checks.append(
          Schema.CheckConstraint(
            name: constraintName,
            column: column?.name,
            expression: expression.trimmingSQLSpace()
          )
        )
        constraintName = nil
        index = close + 1
        continue
      }
      if token.isKeyword("AS"), column != nil, index + 1 < item.count,
        item[index + 1].isSymbol("("),
        let close = matchingParenthesis(item, index + 1)
      {
        let expression = tokenizer.text(from: item[index + 1].end, to: item[close].start)
        column?.generatedExpression = expression.trimmingSQLSpace()
        index = close + 1
        continue
      }
      if token.kind == .word, !token.isKeyword("NOT"), !token.isKeyword("NULL") {
        // Any other constraint keyword ends a pending CONSTRAINT name's reach.
        if ["PRIMARY", "UNIQUE", "DEFAULT", "REFERENCES", "FOREIGN", "GENERATED"].contains(
          token.text.uppercased()
        ) {
          constraintName = nil
        }
      }
      index += 1
    }
    if let column { columns.append(column) }
  }
}

/// What `index_xinfo` leaves out of a `CREATE INDEX`: each key term as written (for expression
/// columns) and the partial WHERE clause.
struct IndexDefinition {
  var terms: [String] = []
  var whereClause: String?

  init(sql: String) {
    let tokenizer = SQLTokenizer(sql)
    let tokens = tokenizer.tokens()
    guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }),
      let open = tokens[on...].firstIndex(where: { $0.isSymbol("(") }),
      let close = matchingParenthesis(tokens, open)
    else { return }
    for range in splitAtCommas(tokens, from: open + 1, to: close) {
      var term = Array(tokens[range])
      // Drop a trailing ASC/DESC and COLLATE name: index_xinfo reports those.
      if let last = term.last, last.isKeyword("ASC") || last.isKeyword("DESC") {
        term.removeLast()
      }
      if term.count >= 2, term[term.count - 2].isKeyword("COLLATE") {
        term.removeLast(2)
      }
      guard let first = term.first, let last = term.last else {
        terms.append("")
        continue
      }
      terms.append(tokenizer.text(from: first.start, to: last.end))
    }
    if let whereIndex = tokens[(close + 1)...].firstIndex(where: { $0.isKeyword("WHERE") }),
      whereIndex + 1 < tokens.count
    {
      var last = tokens.count - 1
      while last > whereIndex, tokens[last].isSymbol(";") { last -= 1 }
      if last > whereIndex {
        whereClause = tokenizer.text(from: tokens[whereIndex + 1].start, to: tokens[last].end)
      }
    }
  }
}

/// When a trigger fires, read from its `CREATE TRIGGER`.
struct TriggerDefinition {
  var timing = "BEFORE"
  var event = ""

  init(sql: String) {
    let tokenizer = SQLTokenizer(sql)
    let tokens = tokenizer.tokens()
    guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }) else { return }
    var index = 0
    while index < on {
      let token = tokens[index]
      if token.isKeyword("BEFORE") || token.isKeyword("AFTER") {
        timing = token.text.uppercased()
      } else if token.isKeyword("INSTEAD") {
        timing = "INSTEAD OF"
      } else if token.isKeyword("INSERT") || token.isKeyword("DELETE") {
        event = token.text.uppercased()
      } else if token.isKeyword("UPDATE") {
        event = "UPDATE"
        if index + 1 < on, tokens[index + 1].isKeyword("OF") {
          let columns = tokens[(index + 2)..<on].filter { !$0.isSymbol(",") }.map(\.identifier)
          event = "UPDATE OF " + columns.map(displayIdentifier).joined(separator: ", ")
        }
        break
      }
      index += 1
    }
  }
}

/// The module and arguments of a `CREATE VIRTUAL TABLE … USING module(arguments)`.
struct VirtualTableDefinition {
  var module = ""
  var arguments = ""

  init(sql: String) {
    let tokenizer = SQLTokenizer(sql)
    let tokens = tokenizer.tokens()
    guard let using = tokens.firstIndex(where: { $0.isKeyword("USING") }), using + 1 < tokens.count
    else { return }
    module = tokens[using + 1].identifier
    if using + 2 < tokens.count, tokens[using + 2].isSymbol("("),
      let close = matchingParenthesis(tokens, using + 2)
    {
      arguments = tokenizer.text(from: tokens[using + 2].end, to: tokens[close].start)
        .trimmingSQLSpace()
    }
  }
}

/// SQL reduced to a form that two equivalent texts share: comments and layout dropped,
/// identifiers and keywords unquoted and lower-cased (SQLite compares them without ASCII case),
/// string and number literals kept as written. For drift comparison only.
func normalizedSQL(_ sql: String) -> String {
  var parts: [String] = []
  for token in SQLTokenizer(sql).tokens() {
    switch token.kind {
    case .word, .quotedIdentifier: parts.append(quoteIdentifier(token.identifier.lowercased()))
    case .string, .number: parts.append(token.text)
    case .symbol: if !token.isSymbol(";") { parts.append(token.text) }
    }
  }
  return parts.joined(separator: " ")
}
