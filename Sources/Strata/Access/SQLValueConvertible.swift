import Foundation

/// A Swift type that is stored in one SQLite value: an argument to bind, a column to read.
///
/// The conversions, each way:
///
/// | Swift | stored as | read from |
/// |---|---|---|
/// | `Int`, `Int64`, `Int32` | integer | an integer in range, or a real with no fraction |
/// | `Double`, `Float` | real | a real or an integer |
/// | `Bool` | integer 1 or 0 | the integer 1 or 0 |
/// | `String` | text | text |
/// | `Data` | blob | a blob |
/// | `Date` | text, ISO 8601 in UTC with milliseconds: `2026-12-01T01:30:00.123Z` | that text, the same without the fraction (`2026-12-01T01:30:00Z`), or SQLite's `2026-12-01 01:30:00` (read as UTC, as SQLite's `datetime()` writes it) |
/// | `UUID` | text, upper case (`uuidString`) | text in either case, or a 16-byte blob |
/// | `SQLValue` | itself | anything |
/// | `Optional` | `NULL` for nil | `NULL` as nil, anything else as the wrapped type |
///
/// Anything else fails: an integer out of range, text read as a number, `NULL` read into a
/// type that is not optional. A value is never turned into 0 or an empty string; `Row` and
/// `Decodable` reading turn the failure into an error naming the column (`RowDecodingError`).
///
/// The conversions of the standard library's types are inlinable, so that reading a column as
/// one of them costs no call.
public protocol SQLValueConvertible {
  /// The value to store.
  var sqlValue: SQLValue { get }
  /// The Swift value stored in `sqlValue`, or nil when `sqlValue` does not hold one (see the
  /// table above).
  init?(sqlValue: SQLValue)
}

extension SQLValue: SQLValueConvertible {
  /// Itself.
  @inlinable
  public var sqlValue: SQLValue { self }
  /// Any value.
  @inlinable
  public init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
  /// An integer.
  @inlinable
  public var sqlValue: SQLValue { .integer(self) }
  /// An integer, or a real with no fraction that fits.
  @inlinable
  public init?(sqlValue: SQLValue) {
    switch sqlValue {
    case .integer(let value): self = value
    case .real(let value):
      guard let exact = Int64(exactly: value) else { return nil }
      self = exact
    default: return nil
    }
  }
}

extension Int: SQLValueConvertible {
  /// An integer.
  @inlinable
  public var sqlValue: SQLValue { .integer(Int64(self)) }
  /// An integer in `Int`'s range, or a real with no fraction that fits.
  @inlinable
  public init?(sqlValue: SQLValue) {
    guard let wide = Int64(sqlValue: sqlValue), let value = Int(exactly: wide) else { return nil }
    self = value
  }
}

extension Int32: SQLValueConvertible {
  /// An integer.
  @inlinable
  public var sqlValue: SQLValue { .integer(Int64(self)) }
  /// An integer in `Int32`'s range, or a real with no fraction that fits.
  @inlinable
  public init?(sqlValue: SQLValue) {
    guard let wide = Int64(sqlValue: sqlValue), let value = Int32(exactly: wide) else {
      return nil
    }
    self = value
  }
}

extension Double: SQLValueConvertible {
  /// A real.
  @inlinable
  public var sqlValue: SQLValue { .real(self) }
  /// A real or an integer.
  @inlinable
  public init?(sqlValue: SQLValue) {
    switch sqlValue {
    case .real(let value): self = value
    case .integer(let value): self = Double(value)
    default: return nil
    }
  }
}

extension Float: SQLValueConvertible {
  /// A real.
  @inlinable
  public var sqlValue: SQLValue { .real(Double(self)) }
  /// A real or an integer, rounded to `Float`'s precision.
  @inlinable
  public init?(sqlValue: SQLValue) {
    guard let value = Double(sqlValue: sqlValue) else { return nil }
    self = Float(value)
  }
}

extension Bool: SQLValueConvertible {
  /// 1 or 0.
  @inlinable
  public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
  /// The integer 1 or 0; any other value is not a `Bool`.
  @inlinable
  public init?(sqlValue: SQLValue) {
    switch sqlValue {
    case .integer(1): self = true
    case .integer(0): self = false
    default: return nil
    }
  }
}

extension String: SQLValueConvertible {
  /// Text.
  @inlinable
  public var sqlValue: SQLValue { .text(self) }
  /// Text only: a number is not read as its digits.
  @inlinable
  public init?(sqlValue: SQLValue) {
    guard case .text(let value) = sqlValue else { return nil }
    self = value
  }
}

extension Data: SQLValueConvertible {
  /// A blob.
  public var sqlValue: SQLValue { .blob(Array(self)) }
  /// A blob.
  public init?(sqlValue: SQLValue) {
    guard case .blob(let bytes) = sqlValue else { return nil }
    self = Data(bytes)
  }
}

extension UUID: SQLValueConvertible {
  /// Upper-case text, as `uuidString`.
  public var sqlValue: SQLValue { .text(uuidString) }
  /// Text in either case, or a blob of 16 bytes.
  public init?(sqlValue: SQLValue) {
    switch sqlValue {
    case .text(let text):
      guard let value = UUID(uuidString: text) else { return nil }
      self = value
    case .blob(let b) where b.count == 16:
      self = UUID(
        uuid: (
          b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
          b[14], b[15]
        )
      )
    default: return nil
    }
  }
}

extension URL: SQLValueConvertible {
  /// The URL's text (`absoluteString`), as an app would show it.
  public var sqlValue: SQLValue { .text(absoluteString) }
  /// Text that is a URL.
  public init?(sqlValue: SQLValue) {
    guard case .text(let text) = sqlValue, let url = URL(string: text) else { return nil }
    self = url
  }
}

extension Date: SQLValueConvertible {
  /// Whole seconds in ISO 8601, UTC: `2026-12-01T01:30:00Z` (the milliseconds are added by
  /// hand: the format style truncates them, and a `Double` a hair below .123 would print .122).
  private static let whole = Date.ISO8601FormatStyle()

  /// ISO 8601 text in UTC with milliseconds, such as `2026-12-01T01:30:00.123Z` (rounded to
  /// the nearest millisecond).
  public var sqlValue: SQLValue {
    let milliseconds = Int64((timeIntervalSince1970 * 1000).rounded())
    let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let (wholeSeconds, thousandths) =
      fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
    let text = Self.whole.format(Date(timeIntervalSince1970: TimeInterval(wholeSeconds)))
    let digits = String(thousandths)
    return .text(
      text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    )
  }

  /// ISO 8601 text in UTC with or without a fraction of a second, or SQLite's
  /// `YYYY-MM-DD HH:MM:SS[.SSS]` (UTC, as SQLite's `datetime()` writes it).
  public init?(sqlValue: SQLValue) {
    guard case .text(let value) = sqlValue else { return nil }
    var text = Substring(value)
    let utf8 = text.utf8
    if utf8.count >= 19, text.last != "Z",
      utf8[utf8.index(utf8.startIndex, offsetBy: 10)] == UInt8(ascii: " ")
    {
      text = Substring(text.replacingOccurrences(of: " ", with: "T") + "Z")
    }
    var fraction = 0.0
    if let dot = text.firstIndex(of: "."), text.last == "Z" {
      let digits = text[text.index(after: dot)..<text.index(before: text.endIndex)]
      guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Double("0." + digits)
      else { return nil }
      fraction = value
      text = text[..<dot] + "Z"
    }
    guard let date = try? Self.whole.parse(String(text)) else { return nil }
    self = Date(timeIntervalSince1970: date.timeIntervalSince1970 + fraction)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
  /// `NULL` for nil, otherwise the wrapped value's.
  @inlinable
  public var sqlValue: SQLValue { self?.sqlValue ?? .null }
  /// nil for `NULL`; otherwise the wrapped type's value, or a failure when it holds none.
  @inlinable
  public init?(sqlValue: SQLValue) {
    if sqlValue == .null {
      self = .none
      return
    }
    guard let value = Wrapped(sqlValue: sqlValue) else { return nil }
    self = .some(value)
  }
}
