/// A value as SQLite stores it: one of its five storage classes.
public enum SQLValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

extension SQLValue: CustomStringConvertible {
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
