/// A value as SQLite stores it: one of its five storage classes.
public enum SQLValue: Hashable, Sendable {
  /// SQL `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// A 64-bit floating-point number.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Bytes, stored as given.
  case blob([UInt8])
}

extension SQLValue: CustomStringConvertible {
  /// The value for messages: `NULL`, the number, the text, or `<n bytes>` for a blob.
  public var description: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .text(let value): value
    case .blob(let bytes): "<\(bytes.count) bytes>"
    }
  }

  /// The integer, when the value is one.
  public var integerValue: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The text, when the value is text.
  public var textValue: String? {
    if case .text(let value) = self { return value }
    return nil
  }
}
