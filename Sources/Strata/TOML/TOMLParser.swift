/// Parses the TOML subset of strata's settings file (see `TOMLValue`): comments, `[table]`
/// headers with bare, quoted and dotted keys, and `key = value` lines. Everything outside the
/// subset, a duplicate key and a table defined twice are errors at their line and column.
struct TOMLParser {
  private let text: [Unicode.Scalar]
  private var index = 0
  private var line = 1
  private var lineStart = 0

  /// Parses `text`.
  ///
  /// - Throws: `TOMLSyntaxError` at the first thing outside the subset.
  static func parse(_ text: String) throws -> TOMLDocument {
    var parser = TOMLParser(text: Array(text.unicodeScalars))
    return try parser.document()
  }

  private init(text: [Unicode.Scalar]) {
    self.text = text
    if text.first == "\u{FEFF}" { index = 1; lineStart = 1 }
  }

  private var position: TOMLPosition { TOMLPosition(line: line, column: index - lineStart + 1) }
  private var current: Unicode.Scalar? { index < text.count ? text[index] : nil }
  private func peek(_ offset: Int) -> Unicode.Scalar? {
    index + offset < text.count ? text[index + offset] : nil
  }

  private func failure(_ reason: String, at place: TOMLPosition? = nil) -> TOMLSyntaxError {
    TOMLSyntaxError(position: place ?? position, reason: reason)
  }

  private mutating func document() throws -> TOMLDocument {
    var builder = TOMLBuilder()
    var table = 0
    while true {
      skipBlanks()
      guard let scalar = current else { break }
      switch scalar {
      case "#", "\n", "\r": try endOfLine()
      case "[":
        let start = position
        if peek(1) == "[" {
          throw failure("arrays of tables ([[…]]) are not supported; use [table] headers")
        }
        index += 1
        skipBlanks()
        let path = try dottedKey()
        skipBlanks()
        guard current == "]" else { throw failure("expected ] to close the table header") }
        index += 1
        try endOfLine()
        table = try builder.open(path, at: start)
      default:
        let start = position
        let key = try dottedKey()
        guard key.count == 1 else {
          throw failure(
            "dotted keys (\(TOMLTable.header(key))) are not supported; "
              + "use a [\(TOMLTable.header(Array(key.dropLast())))] table header",
            at: start
          )
        }
        skipBlanks()
        guard current == "=" else { throw failure("expected = after the key \(tomlKey(key[0]))") }
        index += 1
        skipBlanks()
        let value = try self.value()
        try endOfLine()
        try builder.add(TOMLEntry(key: key[0], value: value, position: start), to: table)
      }
    }
    return builder.document
  }

  private mutating func skipBlanks() {
    while current == " " || current == "\t" { index += 1 }
  }

  /// Blanks, an optional comment, then a newline or the end of the file.
  private mutating func endOfLine() throws {
    skipBlanks()
    if current == "#" {
      while let scalar = current, scalar != "\n" {
        if scalar != "\t", scalar.value < 0x20 || scalar.value == 0x7F, scalar != "\r" {
          throw failure("control character U+\(hex(scalar)) in a comment")
        }
        index += 1
      }
    }
    try newline(orEnd: true)
  }

  private mutating func newline(orEnd: Bool) throws {
    if current == "\r", peek(1) == "\n" { index += 1 }
    if current == "\n" {
      index += 1
      line += 1
      lineStart = index
    } else if !(orEnd && current == nil) {
      throw failure("expected the end of the line, found \(found)")
    }
  }

  private var found: String {
    guard let scalar = current else { return "the end of the file" }
    return scalar.value < 0x20 ? "U+\(hex(scalar))" : "'\(Character(scalar))'"
  }

  /// `a`, `"a b"`, `'a'`, `seeds."penguins.csv".columns`.
  private mutating func dottedKey() throws -> [String] {
    var parts = [try simpleKey()]
    while true {
      skipBlanks()
      guard current == "." else { return parts }
      index += 1
      skipBlanks()
      parts.append(try simpleKey())
    }
  }

  private mutating func simpleKey() throws -> String {
    switch current {
    case "\"":
      if peek(1) == "\"", peek(2) == "\"" { throw failure("a key cannot be a multi-line string") }
      return try basicString()
    case "'":
      if peek(1) == "'", peek(2) == "'" { throw failure("a key cannot be a multi-line string") }
      return try literalString()
    case let scalar? where isBareKeyScalar(scalar):
      var key = ""
      while let scalar = current, isBareKeyScalar(scalar) {
        key.unicodeScalars.append(scalar)
        index += 1
      }
      return key
    default:
      throw failure(
        "expected a key (letters, digits, _ and -, or a quoted string), found \(found)"
      )
    }
  }

  private mutating func value() throws -> TOMLValue {
    switch current {
    case "\"", "'":
      if peek(1) == current, peek(2) == current {
        throw failure("multi-line strings are not supported; write \\n in a \"basic\" string")
      }
      return .string(current == "\"" ? try basicString() : try literalString())
    case "[": return .strings(try stringArray())
    case "{": return .table(try inlineTable())
    case "t", "f":
      for word in ["true", "false"] where matches(word) {
        index += word.unicodeScalars.count
        return .boolean(word == "true")
      }
    case let scalar? where scalar == "+" || scalar == "-" || ("0"..."9").contains(scalar):
      return .integer(try integer())
    default: break
    }
    if matches("inf") || matches("nan") { throw failure("floats are not supported") }
    throw failure(
      "expected a value (a \"string\", an integer, true or false, [\"an\", \"array\"] or "
        + "{ inline = \"table\" }), found \(found)"
    )
  }

  private func matches(_ word: String) -> Bool {
    for (offset, scalar) in word.unicodeScalars.enumerated() where peek(offset) != scalar {
      return false
    }
    if let next = peek(word.unicodeScalars.count), isBareKeyScalar(next) { return false }
    return true
  }

  private mutating func integer() throws -> Int64 {
    let start = position
    var digits = ""
    if let sign = current, sign == "+" || sign == "-" {
      digits.unicodeScalars.append(sign)
      index += 1
    }
    if matches("inf") || matches("nan") { throw failure("floats are not supported", at: start) }
    var previousDigit = false
    while let scalar = current, ("0"..."9").contains(scalar) || scalar == "_" {
      if scalar == "_" {
        guard previousDigit, let next = peek(1), ("0"..."9").contains(next) else {
          throw failure("an underscore in a number must be between two digits")
        }
      } else {
        digits.unicodeScalars.append(scalar)
      }
      previousDigit = scalar != "_"
      index += 1
    }
    let body = digits.drop { $0 == "+" || $0 == "-" }
    if current == "." || current == "e" || current == "E" {
      throw failure("floats are not supported", at: start)
    }
    if current == ":" || (current == "-" && body.count == 4) {
      throw failure("dates and times are not supported", at: start)
    }
    if body == "0", current == "x" || current == "o" || current == "b" {
      throw failure("hexadecimal, octal and binary integers are not supported", at: start)
    }
    guard !body.isEmpty else { throw failure("expected digits", at: start) }
    if body.count > 1, body.first == "0" {
      throw failure("an integer cannot have leading zeros", at: start)
    }
    guard let number = Int64(digits) else {
      throw failure("the integer \(digits) does not fit in 64 bits", at: start)
    }
    return number
  }

  /// `"…"` with TOML's escapes.
  private mutating func basicString() throws -> String { try quotedString(escapes: true) }

  /// `'…'`: no escapes.
  private mutating func literalString() throws -> String { try quotedString(escapes: false) }

  /// A string on one line up to its closing quote (the one it starts with).
  private mutating func quotedString(escapes: Bool) throws -> String {
    let quote = current
    index += 1
    var out = ""
    while true {
      guard let scalar = current, scalar != "\n", scalar != "\r" else {
        throw failure("the string has no closing quote on its line")
      }
      index += 1
      if scalar == quote { return out }
      if escapes, scalar == "\\" {
        out.unicodeScalars.append(try escape())
      } else {
        try checkControl(scalar)
        out.unicodeScalars.append(scalar)
      }
    }
  }

  private mutating func escape() throws -> Unicode.Scalar {
    let start = TOMLPosition(line: line, column: index - lineStart)
    guard let letter = current else { throw failure("the string has no closing quote") }
    index += 1
    switch letter {
    case "b": return "\u{08}"
    case "t": return "\t"
    case "n": return "\n"
    case "f": return "\u{0C}"
    case "r": return "\r"
    case "\"": return "\""
    case "\\": return "\\"
    case "u", "U":
      let count = letter == "u" ? 4 : 8
      var digits = ""
      for _ in 0..<count {
        guard let digit = current, digit.properties.isASCIIHexDigit else {
          throw failure("\\\(letter) needs \(count) hexadecimal digits", at: start)
        }
        digits.unicodeScalars.append(digit)
        index += 1
      }
      guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
        throw failure("\\\(letter)\(digits) is not a Unicode scalar value", at: start)
      }
      return scalar
    default:
      throw failure(
        "unknown escape \\\(Character(letter)); allowed: \\b \\t \\n \\f \\r \\\" \\\\ "
          + "\\uXXXX \\UXXXXXXXX",
        at: start
      )
    }
  }

  private func checkControl(_ scalar: Unicode.Scalar) throws {
    if scalar != "\t", scalar.value < 0x20 || scalar.value == 0x7F {
      throw TOMLSyntaxError(
        position: TOMLPosition(line: line, column: index - lineStart),
        reason: "control character U+\(hex(scalar)) in a string; write it as an escape"
      )
    }
  }

  /// `["a", "b"]`, over several lines if need be, with comments and a trailing comma.
  private mutating func stringArray() throws -> [String] {
    index += 1
    var strings: [String] = []
    while true {
      try skipArrayBlanks()
      if current == "]" { break }
      guard current == "\"" || current == "'" else {
        if current == "[" || current == "{" || current == "t" || current == "f"
          || current.map({ ("0"..."9").contains($0) || $0 == "-" || $0 == "+" }) == true
        {
          throw failure("only arrays of strings are supported")
        }
        throw failure("expected a string or ] in the array, found \(found)")
      }
      guard case .string(let string) = try value() else { fatalError("a quote starts a string") }
      strings.append(string)
      try skipArrayBlanks()
      if current == "," {
        index += 1
      } else if current != "]" {
        throw failure("expected , or ] in the array, found \(found)")
      }
    }
    index += 1
    return strings
  }

  private mutating func skipArrayBlanks() throws {
    while true {
      skipBlanks()
      guard current == "#" || current == "\n" || current == "\r" else { return }
      guard current != nil else { return }
      try endOfLine()
      if current == nil { throw failure("the array has no closing ]") }
    }
  }

  /// `{ key = "value", … }` on one line, without a trailing comma (as TOML says).
  private mutating func inlineTable() throws -> [TOMLPair] {
    index += 1
    var pairs: [TOMLPair] = []
    skipBlanks()
    if current == "}" {
      index += 1
      return pairs
    }
    while true {
      skipBlanks()
      let start = position
      let key = try dottedKey()
      guard key.count == 1 else { throw failure("dotted keys are not supported", at: start) }
      if pairs.contains(where: { $0.key == key[0] }) {
        throw failure("duplicate key \(tomlKey(key[0])) in the inline table", at: start)
      }
      skipBlanks()
      guard current == "=" else { throw failure("expected = after the key \(tomlKey(key[0]))") }
      index += 1
      skipBlanks()
      let valueStart = position
      guard case .string(let string) = try value() else {
        throw failure("only strings are supported in an inline table", at: valueStart)
      }
      pairs.append(TOMLPair(key: key[0], value: string))
      skipBlanks()
      if current == "}" { break }
      guard current == "," else {
        throw failure("expected , or } in the inline table (on one line), found \(found)")
      }
      index += 1
      skipBlanks()
      if current == "}" { throw failure("an inline table cannot end with a comma") }
    }
    index += 1
    return pairs
  }
}

func hex(_ scalar: Unicode.Scalar) -> String {
  let digits = String(scalar.value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
