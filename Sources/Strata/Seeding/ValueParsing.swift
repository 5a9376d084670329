import Foundation

/// How a field's bytes become a value for a column, by the column's declared type.
enum SeedConversion: Hashable, Sendable {
  /// TEXT affinity: the bytes as written.
  case text
  /// No declared type (or STRICT `ANY`): the bytes as written, stored as TEXT.
  case asWritten
  /// INTEGER affinity: canonical 64-bit integers only.
  case integer
  /// REAL affinity: decimal numbers.
  case real
  /// NUMERIC affinity: numbers must be canonical (SQLite would otherwise rewrite them); other
  /// text (dates, words) is kept as written.
  case numeric
  /// A declared BLOB: hexadecimal digits, two per byte.
  case hexBlob
  /// A declared `BOOLEAN` or `BOOL` (NUMERIC affinity): `true`/`false` in any ASCII case, `1`
  /// or `0`, stored as 1 and 0 as SQLite's `TRUE` and `FALSE` are.
  case boolean

  /// The conversion for a declared type: its affinity (``Schema/Affinity``, the one place
  /// SQLite's rules are written), with a declared BLOB read as hexadecimal.
  init(declaredType: String, strict: Bool) {
    switch Schema.Affinity(declaredType: declaredType, strict: strict) {
    case .integer: self = .integer
    case .text: self = .text
    case .real: self = .real
    case .numeric:
      let name = declaredType.trimmingCharacters(in: .whitespaces).uppercased()
      self = name == "BOOLEAN" || name == "BOOL" ? .boolean : .numeric
    case .blob:
      // No type (or STRICT `ANY`) stores the text as written; a declared BLOB takes hex.
      self = declaredType.uppercased().contains("BLOB") ? .hexBlob : .asWritten
    }
  }

  /// The name used in messages.
  var typeName: String {
    switch self {
    case .text: "TEXT"
    case .asWritten: "no type"
    case .integer: "INTEGER"
    case .real: "REAL"
    case .numeric: "NUMERIC"
    case .hexBlob: "BLOB"
    case .boolean: "BOOLEAN"
    }
  }
}

/// The result of reading a number from a field.
enum ParsedNumber {
  case integer(Int64)
  case real(Double)
  /// Not a number (for NUMERIC: text that SQLite keeps as text).
  case text
  case invalid(SeedValueProblem)
}

/// Byte-level number parsing: no `String` per field.
enum ValueParsing {
  private static let zero = UInt8(ascii: "0")
  private static let nine = UInt8(ascii: "9")
  private static let minus = UInt8(ascii: "-")
  private static let plus = UInt8(ascii: "+")
  private static let dot = UInt8(ascii: ".")

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

  @inline(__always)
  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B
  }

  /// An INTEGER column's value: `-?(0|[1-9][0-9]*)` within Int64, nothing else.
  static func integer(_ p: UnsafePointer<UInt8>, _ count: Int) -> ParsedNumber {
    if count == 0 { return .invalid(.emptyString) }
    var i = 0
    let negative = p[0] == minus
    if negative || p[0] == plus { i = 1 }
    let digitsStart = i
    var value: Int64 = 0
    while i < count {
      let byte = p[i]
      guard isDigit(byte) else { return .invalid(nonIntegerProblem(p, count)) }
      let digit = Int64(byte &- zero)
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) =
        negative
        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return .invalid(.integerOverflow) }
      value = next
      i += 1
    }
    let digits = count - digitsStart
    if digits == 0 { return .invalid(.notInteger) }
    if p[0] == plus { return .invalid(.plusSign) }
    if digits > 1 && p[digitsStart] == zero { return .invalid(.leadingZeros) }
    if negative && value == 0 { return .invalid(.negativeZero) }
    return .integer(value)
  }

  /// Why a field that is not `[+-]?digits` is not an integer.
  private static func nonIntegerProblem(_ p: UnsafePointer<UInt8>, _ count: Int) -> SeedValueProblem
  {
    let (start, end) = trimmed(p, count)
    if start > 0 || end < count, end > start, isDecimal(p + start, end - start) {
      return .surroundingSpaces
    }
    return .notInteger
  }

  /// A REAL column's value: a decimal number (`1`, `-2.5`, `.5`, `1e3`), finite.
  static func real(_ p: UnsafePointer<UInt8>, _ count: Int) -> ParsedNumber {
    if count == 0 { return .invalid(.emptyString) }
    guard isDecimal(p, count) else {
      let (start, end) = trimmed(p, count)
      if end > start, start > 0 || end < count, isDecimal(p + start, end - start) {
        return .invalid(.surroundingSpaces)
      }
      return .invalid(.notNumber)
    }
    return checkedReal(p, count)
  }

  /// A decimal's value as a REAL, refused where storing it would change it: infinite, a
  /// non-zero number that underflows to 0 or to a subnormal, or a negative zero.
  private static func checkedReal(_ p: UnsafePointer<UInt8>, _ count: Int) -> ParsedNumber {
    let value = parseDouble(p, count)
    guard value.isFinite else { return .invalid(.notFinite) }
    if value == 0 || abs(value) < Double.leastNormalMagnitude {
      if mantissaHasNonZeroDigit(p, count) { return .invalid(.underflow) }
      if p[0] == minus { return .invalid(.negativeZero) }
    }
    return .real(value)
  }

  /// Whether any digit before the exponent is not 0.
  private static func mantissaHasNonZeroDigit(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var i = 0
    while i < count, p[i] != UInt8(ascii: "e"), p[i] != UInt8(ascii: "E") {
      if isDigit(p[i]), p[i] != zero { return true }
      i += 1
    }
    return false
  }

  /// A NUMERIC column's value: canonical integers and decimals become numbers; numbers SQLite
  /// would rewrite (`00501`, `+5`, ` 12 `, overflow) are refused; other text stays text.
  static func numeric(_ p: UnsafePointer<UInt8>, _ count: Int) -> ParsedNumber {
    if count == 0 { return .text }
    let asInteger = integer(p, count)
    switch asInteger {
    case .integer:
      return asInteger
    case .invalid(.leadingZeros), .invalid(.plusSign), .invalid(.integerOverflow),
      .invalid(.negativeZero), .invalid(.surroundingSpaces):
      return asInteger
    default:
      break
    }
    if isDecimal(p, count) {
      if p[0] == plus { return .invalid(.plusSign) }
      let digits = p[0] == minus ? 1 : 0
      if count > digits + 1, p[digits] == zero, isDigit(p[digits + 1]) {
        return .invalid(.leadingZeros)
      }
      return checkedReal(p, count)
    }
    let (start, end) = trimmed(p, count)
    if end > start, isDecimal(p + start, end - start) { return .invalid(.surroundingSpaces) }
    return .text
  }

  /// A BOOLEAN column's value: 1 for `true` or `1`, 0 for `false` or `0` (letters in any ASCII
  /// case); nil for anything else.
  static func boolean(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
    func spells(_ word: StaticString) -> Bool {
      guard count == word.utf8CodeUnitCount else { return false }
      let letters = word.utf8Start
      for i in 0..<count where p[i] | 0x20 != letters[i] { return false }
      return true
    }
    if count == 1, p[0] == zero || p[0] == zero + 1 { return Int64(p[0] - zero) }
    if spells("true") { return 1 }
    if spells("false") { return 0 }
    return nil
  }

  /// `[+-]?(digits[.digits*] | .digits)([eE][+-]?digits)?`
  static func isDecimal(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var i = 0
    if i < count, p[i] == plus || p[i] == minus { i += 1 }
    var mantissaDigits = 0
    while i < count, isDigit(p[i]) {
      i += 1
      mantissaDigits += 1
    }
    if i < count, p[i] == dot {
      i += 1
      while i < count, isDigit(p[i]) {
        i += 1
        mantissaDigits += 1
      }
    }
    if mantissaDigits == 0 { return false }
    if i < count, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
      i += 1
      if i < count, p[i] == plus || p[i] == minus { i += 1 }
      var exponentDigits = 0
      while i < count, isDigit(p[i]) {
        i += 1
        exponentDigits += 1
      }
      if exponentDigits == 0 { return false }
    }
    return i == count
  }

  private static func trimmed(_ p: UnsafePointer<UInt8>, _ count: Int) -> (Int, Int) {
    var start = 0
    var end = count
    while start < end, isSpace(p[start]) { start += 1 }
    while end > start, isSpace(p[end - 1]) { end -= 1 }
    return (start, end)
  }

  /// strtod on a NUL-terminated copy (the field is not NUL-terminated in the buffer).
  private static func parseDouble(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { scratch in
      guard let base = scratch.baseAddress else { return .nan }
      UnsafeMutableRawPointer(base).copyMemory(from: p, byteCount: count)
      base[count] = 0
      return strtod(base, nil)
    }
  }

  /// Hexadecimal digits to bytes, written to `output` (room for count / 2 bytes); nil when the
  /// field is not an even number of hex digits.
  static func hexBytes(
    _ p: UnsafePointer<UInt8>,
    _ count: Int,
    into output: UnsafeMutablePointer<UInt8>
  ) -> Int? {
    guard count % 2 == 0 else { return nil }
    func nibble(_ byte: UInt8) -> UInt8? {
      switch byte {
      case zero...nine: byte - zero
      case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    var i = 0
    while i < count {
      guard let high = nibble(p[i]), let low = nibble(p[i + 1]) else { return nil }
      output[i / 2] = high << 4 | low
      i += 2
    }
    return count / 2
  }
}
