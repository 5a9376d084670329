import Strata

/// A statement's values written into its SQL as literals, for a statement with more values
/// than the wire's parameter tuple carries (255): the seeder's multi-row INSERTs. Each literal
/// is the one SQLite parses back to the same value and storage class (an integer, a real with
/// its `.` or exponent, quoted text, `X'…'` for a blob, `NULL`), so the rows are what binding
/// would have written.
package enum InlinedParameters {
  /// `sql` with each `?` outside quotes and comments replaced by the next value's literal.
  ///
  /// - Throws: `DqliteError.cannotEncode` for a numbered or named parameter (`?3`, `:name`),
  ///   or when the count of `?` differs from the values'.
  package static func render(_ sql: String, _ values: [SQLValue]) throws(DqliteError) -> String {
    var out = ""
    out.reserveCapacity(sql.utf8.count + values.count * 12)
    var next = 0
    var quote: Character?
    var comment: Character?
    var previous: Character = " "
    var pendingParameter = false
    for character in sql {
      defer { previous = character }
      if pendingParameter {
        pendingParameter = false
        if character.isNumber {
          throw .cannotEncode(detail: "a numbered parameter (?NNN) among more than 255 values")
        }
      }
      if let open = comment {
        out.append(character)
        if open == "-" ? character == "\n" : previous == "*" && character == "/" { comment = nil }
        continue
      }
      if let open = quote {
        out.append(character)
        if character == open { quote = nil }
        continue
      }
      switch character {
      case "?":
        guard next < values.count else {
          throw .cannotEncode(detail: "the statement has more parameters than values")
        }
        out += literal(values[next])
        next += 1
        pendingParameter = true
        continue
      case ":", "@", "$":
        throw .cannotEncode(detail: "a named parameter (\(character)name) among more than 255 values")
      case "'", "\"", "`": quote = character
      case "[": quote = "]"
      case "-" where previous == "-", "*" where previous == "/": comment = character
      default: break
      }
      out.append(character)
    }
    guard next == values.count else {
      throw .cannotEncode(detail: "\(values.count) values for \(next) parameters")
    }
    return out
  }

  /// The SQL literal SQLite reads back as `value`.
  package static func literal(_ value: SQLValue) -> String {
    switch value {
    case .null: return "NULL"
    case .integer(let number): return String(number)
    case .real(let number):
      if number.isNaN { return "NULL" }
      if number.isInfinite { return number < 0 ? "-9e999" : "9e999" }
      // Swift's shortest form that reads back exactly, always with a `.` or an exponent.
      return "\(number)"
    case .text(let text):
      return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let bytes):
      let digits = Array("0123456789ABCDEF".utf8)
      var hex: [UInt8] = [UInt8(ascii: "X"), UInt8(ascii: "'")]
      hex.reserveCapacity(bytes.count * 2 + 3)
      for byte in bytes {
        hex.append(digits[Int(byte >> 4)])
        hex.append(digits[Int(byte & 0x0F)])
      }
      hex.append(UInt8(ascii: "'"))
      return String(decoding: hex, as: UTF8.self)
    }
  }
}
