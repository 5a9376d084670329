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
    bytes.withUnsafeBufferPointer { buffer in
      var result: [SQLToken] = []
      let count = buffer.count
      var i = SQLScanner.skipTrivia(buffer, from: 0, end: count)
      while i < count {
        let byte = buffer[i]
        let start = i
        let kind: SQLToken.Kind
        if byte == UInt8(ascii: "'") {
          i = SQLScanner.quotedEnd(buffer, quote: byte, doubled: true, from: i + 1, end: count)
          kind = .string
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "`") {
          i = SQLScanner.quotedEnd(buffer, quote: byte, doubled: true, from: i + 1, end: count)
          kind = .quotedIdentifier
        } else if byte == UInt8(ascii: "[") {
          i = SQLScanner.quotedEnd(
            buffer,
            quote: UInt8(ascii: "]"),
            doubled: false,
            from: i + 1,
            end: count
          )
          kind = .quotedIdentifier
        } else if SQLScanner.isDigit(byte)
          || (byte == UInt8(ascii: ".") && i + 1 < count && SQLScanner.isDigit(buffer[i + 1]))
        {
          i += 1
          while i < count, SQLScanner.isWordByte(buffer[i]) || buffer[i] == UInt8(ascii: ".") {
            i += 1
          }
          kind = .number
        } else if SQLScanner.isWordStart(byte) {
          i += 1
          while i < count, SQLScanner.isWordByte(buffer[i]) { i += 1 }
          kind = .word
        } else {
          i += 1
          // Keep a multi-byte UTF-8 character whole.
          while i < count, buffer[i] & 0xC0 == 0x80 { i += 1 }
          kind = .symbol
        }
        result.append(SQLToken(kind: kind, text: text(from: start, to: i), start: start, end: i))
        i = SQLScanner.skipTrivia(buffer, from: i, end: count)
      }
      return result
    }
  }
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
