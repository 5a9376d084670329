import Foundation

// Literals, so that values read as values: `["S1", "Ann", 22, 1.5, true]`. Not `nil`: with
// `ExpressibleByNilLiteral`, `value == nil` on an `SQLValue?` compares with `.some(.null)` and
// is always false (strata's own history check broke that way); write `.null`. In arguments
// (`SQLArguments`), `nil` is `NULL` all the same.

extension SQLValue: ExpressibleByStringLiteral {
  /// Text.
  public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue: ExpressibleByIntegerLiteral {
  /// An integer.
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
  /// A real number.
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByBooleanLiteral {
  /// 1 for true, 0 for false: SQLite has no boolean type.
  public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLValue {
  /// The real number, when the value is one (an integer is not converted: see
  /// `SQLValueConvertible` for conversions).
  public var doubleValue: Double? {
    if case .real(let value) = self { return value }
    return nil
  }

  /// The bytes, when the value is a blob.
  public var blobValue: [UInt8]? {
    if case .blob(let bytes) = self { return bytes }
    return nil
  }

  /// True for SQL `NULL`.
  public var isNull: Bool { self == .null }

  /// The value for an error message: its storage class and the value, such as `text 'twelve'`,
  /// `integer 12`, `NULL`, `a blob of 16 bytes`.
  var described: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): "integer \(value)"
    case .real(let value): "real \(value)"
    case .text(let value):
      "text '\(value.count > 60 ? String(value.prefix(60)) + "…" : value)'"
    case .blob(let bytes): "a blob of \(bytes.count) bytes"
    }
  }
}
