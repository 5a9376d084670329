/// Reads JSON text as `JSONEncoder` writes it into a `JSONTree`, in one pass over its bytes.
struct JSONTreeReader {
  struct Malformed: Error {
    let offset: Int
  }

  private let bytes: [UInt8]
  private var index = 0

  /// The tree of `bytes`, which must be one JSON value.
  static func read(_ bytes: [UInt8]) throws -> JSONTree {
    var reader = JSONTreeReader(bytes: bytes)
    let value = try reader.value()
    reader.skipSpace()
    guard reader.index == bytes.count else { throw Malformed(offset: reader.index) }
    return value
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private mutating func value() throws -> JSONTree {
    skipSpace()
    guard index < bytes.count else { throw Malformed(offset: index) }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: return try number()
    }
  }

  private mutating func object() throws -> JSONTree {
    index += 1
    var members: [String: JSONTree] = [:]
    skipSpace()
    if try consume(UInt8(ascii: "}")) { return .object(members) }
    repeat {
      skipSpace()
      let key = try string()
      skipSpace()
      guard try consume(UInt8(ascii: ":")) else { throw Malformed(offset: index) }
      members[key] = try value()
      skipSpace()
    } while try consume(UInt8(ascii: ","))
    guard try consume(UInt8(ascii: "}")) else { throw Malformed(offset: index) }
    return .object(members)
  }

  private mutating func array() throws -> JSONTree {
    index += 1
    var items: [JSONTree] = []
    skipSpace()
    if try consume(UInt8(ascii: "]")) { return .array(items) }
    repeat {
      items.append(try value())
      skipSpace()
    } while try consume(UInt8(ascii: ","))
    guard try consume(UInt8(ascii: "]")) else { throw Malformed(offset: index) }
    return .array(items)
  }

  private mutating func string() throws -> String {
    guard try consume(UInt8(ascii: "\"")) else { throw Malformed(offset: index) }
    var utf8: [UInt8] = []
    var pendingHighSurrogate: UInt32?
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "\"") {
        return String(decoding: utf8, as: UTF8.self)
      }
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        continue
      }
      guard index < bytes.count else { break }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "n"): utf8.append(0x0A)
      case UInt8(ascii: "r"): utf8.append(0x0D)
      case UInt8(ascii: "t"): utf8.append(0x09)
      case UInt8(ascii: "b"): utf8.append(0x08)
      case UInt8(ascii: "f"): utf8.append(0x0C)
      case UInt8(ascii: "u"):
        guard index + 4 <= bytes.count,
          let unit = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw Malformed(offset: index) }
        index += 4
        var scalar: Unicode.Scalar?
        if (0xD800...0xDBFF).contains(unit) {
          pendingHighSurrogate = unit
          continue
        } else if (0xDC00...0xDFFF).contains(unit), let high = pendingHighSurrogate {
          scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
        } else {
          scalar = Unicode.Scalar(unit)
        }
        pendingHighSurrogate = nil
        guard let scalar else { throw Malformed(offset: index) }
        utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
      default: utf8.append(escape)  // \" \\ \/
      }
    }
    throw Malformed(offset: index)
  }

  private mutating func number() throws -> JSONTree {
    let start = index
    var isInteger = true
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        isInteger = false
      } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte))
      {
        break
      }
      index += 1
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let number = Double(text) else { throw Malformed(offset: start) }
    return .number(number)
  }

  private mutating func literal(_ word: StaticString, _ value: JSONTree) throws -> JSONTree {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      bytes[index..<index + count].elementsEqual(
        UnsafeBufferPointer(start: word.utf8Start, count: count)
      )
    else { throw Malformed(offset: index) }
    index += count
    return value
  }

  private mutating func consume(_ byte: UInt8) throws -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func skipSpace() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
    {
      index += 1
    }
  }
}
