/// One token of SQL text, located by its UTF-8 byte range in the source.
struct SQLToken: Equatable {
  enum Kind: Equatable {
    /// A bare word: a keyword or an unquoted identifier.
    case word
    /// `"…"`, `` `…` `` or `[…]`.
    case quotedIdentifier
    /// `'…'`.
    case string
    case number
    /// One punctuation or operator character.
    case symbol
  }

  let kind: Kind
  /// The token exactly as written.
  let text: String
  /// Byte offsets in the source's UTF-8.
  let start: Int
  let end: Int

  /// True for a bare word equal to `keyword`, ignoring ASCII case.
  func isKeyword(_ keyword: String) -> Bool {
    kind == .word && text.count == keyword.count && text.uppercased() == keyword
  }

  func isSymbol(_ symbol: Character) -> Bool {
    kind == .symbol && text.first == symbol
  }

  /// The name this token spells when it is an identifier: quotes removed, doubled quotes undone.
  var identifier: String {
    switch kind {
    case .quotedIdentifier:
      guard let first = text.first, text.count >= 2 else { return text }
      let inner = String(text.dropFirst().dropLast())
      switch first {
      case "\"": return inner.replacingOccurrences(of: "\"\"", with: "\"")
      case "`": return inner.replacingOccurrences(of: "``", with: "`")
      default: return inner
      }
    case .string:
      return String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    default:
      return text
    }
  }
}

/// Splits SQL into tokens the way SQLite's tokenizer does, for the few things the PRAGMAs do
/// not tell: CHECK constraints, generation expressions, collations, AUTOINCREMENT, index
/// expressions and partial WHERE clauses, trigger timing. Comments and white space are dropped.
struct SQLTokenizer {
  let source: String
  let bytes: [UInt8]

  init(_ source: String) {
    self.source = source
    self.bytes = Array(source.utf8)
  }

  /// The source text between two byte offsets.
  func text(from start: Int, to end: Int) -> String {
    guard start < end else { return "" }
    return String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
  }

  func tokens() -> [SQLToken] {
    var result: [SQLToken] = []
    var i = 0
    let count = bytes.count
    while i < count {
      let byte = bytes[i]
      let start = i
      let kind: SQLToken.Kind
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
        i += 1
        continue
      } else if byte == UInt8(ascii: "-"), i + 1 < count, bytes[i + 1] == UInt8(ascii: "-") {
        while i < count, bytes[i] != 0x0A { i += 1 }
        continue
      } else if byte == UInt8(ascii: "/"), i + 1 < count, bytes[i + 1] == UInt8(ascii: "*") {
        i += 2
        while i + 1 < count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) {
          i += 1
        }
        i = min(count, i + 2)
        continue
      } else if byte == UInt8(ascii: "'") {
        i = closing(UInt8(ascii: "'"), doubled: true, from: i + 1)
        kind = .string
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "`") {
        i = closing(byte, doubled: true, from: i + 1)
        kind = .quotedIdentifier
      } else if byte == UInt8(ascii: "[") {
        i = closing(UInt8(ascii: "]"), doubled: false, from: i + 1)
        kind = .quotedIdentifier
      } else if isDigit(byte)
        || (byte == UInt8(ascii: ".") && i + 1 < count && isDigit(bytes[i + 1]))
      {
        i += 1
        while i < count, isDigit(bytes[i]) || isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".")
        {
          i += 1
        }
        kind = .number
      } else if isWordStart(byte) {
        i += 1
        while i < count, isWordByte(bytes[i]) { i += 1 }
        kind = .word
      } else {
        i += 1
        // Keep a multi-byte UTF-8 character whole.
        while i < count, bytes[i] & 0xC0 == 0x80 { i += 1 }
        kind = .symbol
      }
      result.append(SQLToken(kind: kind, text: text(from: start, to: i), start: start, end: i))
    }
    return result
  }

  /// The offset just past the closing quote (or the end, for an unterminated one).
  private func closing(_ quote: UInt8, doubled: Bool, from start: Int) -> Int {
    var i = start
    while i < bytes.count {
      if bytes[i] == quote {
        if doubled, i + 1 < bytes.count, bytes[i + 1] == quote {
          i += 2
          continue
        }
        return i + 1
      }
      i += 1
    }
    return bytes.count
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private func isWordStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
  }

  private func isWordByte(_ byte: UInt8) -> Bool {
    isWordStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
  }
}

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

/// The index of the `)` that closes the `(` at `open`.
func matchingParenthesis(_ tokens: [SQLToken], _ open: Int) -> Int? {
  var depth = 0
  var index = open
  while index < tokens.count {
    if tokens[index].isSymbol("(") { depth += 1 }
    if tokens[index].isSymbol(")") {
      depth -= 1
      if depth == 0 { return index }
    }
    index += 1
  }
  return nil
}

/// The ranges between top-level commas in `tokens[from..<to]`.
func splitAtCommas(_ tokens: [SQLToken], from: Int, to: Int) -> [Range<Int>] {
  var ranges: [Range<Int>] = []
  var depth = 0
  var start = from
  var index = from
  while index < to {
    let token = tokens[index]
    if token.isSymbol("(") { depth += 1 }
    if token.isSymbol(")") { depth -= 1 }
    if depth == 0, token.isSymbol(",") {
      ranges.append(start..<index)
      start = index + 1
    }
    index += 1
  }
  if start < to { ranges.append(start..<to) }
  return ranges
}

/// A name as a person reads it: bare when it is a plain word, SQL-quoted when it holds
/// anything else (spaces, quotes, punctuation) or starts with a digit, so it is never
/// ambiguous. Non-ASCII letters are plain, as SQLite reads them.
public func displayIdentifier(_ name: String) -> String {
  guard let first = name.unicodeScalars.first else { return quoteIdentifier(name) }
  let plain = name.unicodeScalars.allSatisfy { scalar in
    scalar == "_" || (scalar.isASCII ? isASCIIAlphanumeric(scalar) : scalar.properties.isAlphabetic)
      || (!scalar.isASCII && scalar.properties.numericType != nil)
  }
  let startsWell = !(first.isASCII && first.value >= 0x30 && first.value <= 0x39)
  return plain && startsWell ? name : quoteIdentifier(name)
}

private func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
    || (value >= 0x61 && value <= 0x7A)
}

extension String {
  /// Without the white space SQL allows around an expression.
  func trimmingSQLSpace() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
