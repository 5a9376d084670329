import Strata

/// A statement's values written into its SQL as literals, for a statement with more values
/// than the wire's parameter tuple carries (255): a long `IN` list, an INSERT of many rows.
/// Each literal is the one SQLite parses back to the same value and storage class (an integer,
/// a real with its `.` or exponent, quoted text, `X'…'` for a blob, `NULL`), so the rows are
/// what binding would have written. The seeder does not rely on it: the leader parses literals
/// more slowly than it binds parameters (BENCHMARKS.md, "dqlite"), so its INSERTs stay within
/// 255 values. Not for a `?` after ORDER BY or GROUP BY: an integer literal there names a
/// column by its position, where a bound integer is a constant.
package enum InlinedParameters {
  /// `sql` with each `?` outside quotes and comments replaced by the next value's literal.
  ///
  /// - Throws: `DqliteError.cannotEncode` for a numbered or named parameter (`?3`, `:name`),
  ///   or when the count of `?` differs from the values'.
  package static func render(_ sql: String, _ values: [SQLValue]) throws(DqliteError) -> String {
    let bytes = Array(sql.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + values.count * 16)
    var next = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
        let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
        var end = index + 1
        while end < bytes.count, bytes[end] != close { end += 1 }
        end = min(end + 1, bytes.count)
        out += bytes[index..<end]
        index = end
        continue
      case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == byte:
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        out += bytes[index..<end]
        index = end
        continue
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
        var end = index + 2
        while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == byte) {
          end += 1
        }
        end = min(end + 2, bytes.count)
        out += bytes[index..<end]
        index = end
        continue
      case UInt8(ascii: "?"):
        if index + 1 < bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1])
        {
          throw .cannotEncode(detail: "a numbered parameter (?NNN) among more than 255 values")
        }
        guard next < values.count else {
          throw .cannotEncode(detail: "the statement has more parameters than values")
        }
        appendLiteral(values[next], to: &out)
        next += 1
      case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
        throw .cannotEncode(detail: "a named parameter among more than 255 values")
      default:
        out.append(byte)
      }
      index += 1
    }
    guard next == values.count else {
      throw .cannotEncode(detail: "\(values.count) values for \(next) parameters")
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The SQL literal SQLite reads back as `value`.
  package static func literal(_ value: SQLValue) -> String {
    var out: [UInt8] = []
    appendLiteral(value, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private static func appendLiteral(_ value: SQLValue, to out: inout [UInt8]) {
    switch value {
    case .null: out += Array("NULL".utf8)
    case .integer(let number):
      // A negative one in parentheses: after a `-`, its sign would start a comment.
      out += Array((number < 0 ? "(\(number))" : String(number)).utf8)
    case .real(let number):
      if number.isNaN {
        out += Array("NULL".utf8)
      } else if number.isInfinite {
        out += Array((number < 0 ? "(-9e999)" : "9e999").utf8)
      } else {
        // Swift's shortest form that reads back exactly, always with a `.` or an exponent;
        // in parentheses, so that a `-` before it cannot make a comment of its sign.
        out += Array("(\(number))".utf8)
      }
    case .text(let text):
      out.append(UInt8(ascii: "'"))
      for byte in text.utf8 {
        out.append(byte)
        if byte == UInt8(ascii: "'") { out.append(byte) }
      }
      out.append(UInt8(ascii: "'"))
    case .blob(let bytes):
      let digits = Array("0123456789ABCDEF".utf8)
      out += [UInt8(ascii: "X"), UInt8(ascii: "'")]
      for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
      }
      out.append(UInt8(ascii: "'"))
    }
  }
}
