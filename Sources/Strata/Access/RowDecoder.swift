import Foundation

/// Decodes a `Decodable` type from one row, read in place from its statement: each property from the column of its coding
/// key's name. A property whose type is `SQLValueConvertible` (numbers, text, `Date`, `UUID`,
/// `Data` …) converts as that protocol says; any other `Decodable` type (an enum with a raw
/// value, a nested struct) is decoded from the column's value: a single value as itself, a
/// keyed or unkeyed one from the column's text as JSON.
///
/// A single-value type (`fetchAll(String.self, …)`) reads the row's first column.
struct RowDecoder: Decoder {
  let row: LiveRow
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(RowKeyedContainer<Key>(row: row))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      .init(codingPath: [], debugDescription: "a row decodes into a struct, not an array")
    )
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    guard let column = row.columns.first else {
      throw RowDecodingError.missingColumn(column: "(first)", type: "value", columns: [])
    }
    return ValueDecoder(column: column, value: row.value(at: 0))
  }

  /// Decodes `T` from one column's value.
  static func decode<T: Decodable>(_ type: T.Type, column: String, value: SQLValue) throws -> T {
    if let convertible = T.self as? any SQLValueConvertible.Type {
      guard let result = convertible.init(sqlValue: value) as? T else {
        throw RowDecodingError.mismatch(column: column, type: Row.name(of: T.self), value: value)
      }
      return result
    }
    if let integer = T.self as? any FixedWidthInteger.Type {
      guard let wide = Int64(sqlValue: value), let result = integer.init(exactly: wide) as? T else {
        throw RowDecodingError.mismatch(column: column, type: Row.name(of: T.self), value: value)
      }
      return result
    }
    do {
      return try T(from: ValueDecoder(column: column, value: value))
    } catch is ValueDecoder.NeedsJSON {
      guard case .text(let text) = value else {
        throw RowDecodingError.mismatch(column: column, type: Row.name(of: T.self), value: value)
      }
      do {
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
      } catch {
        throw RowDecodingError.invalidJSON(
          column: column,
          type: Row.name(of: T.self),
          reason: String(describing: error)
        )
      }
    }
  }
}

private struct RowKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let row: LiveRow
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { row.columns.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { row.index(of: key.stringValue) != nil }

  /// True for NULL, and for a column the row does not have (as `Row`'s subscript reads it).
  func decodeNil(forKey key: Key) throws -> Bool {
    row.index(of: key.stringValue).map { row.isNull(at: $0) } ?? true
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try converted(type, key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try converted(type, key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try converted(type, key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try converted(type, key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try converted(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try converted(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try converted(type, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }

  private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
    try RowDecoder.decode(T.self, column: key.stringValue, value: row.value(at: index(key, T.self)))
  }

  /// `value(_:_:)` for a type known to be `SQLValueConvertible`, without asking at run time.
  /// Inlined into each `decode` above, so that `String`, `Int` … convert without generic
  /// metadata (the failures are out of line, in `index` and `mismatch`).
  @inline(__always)
  private func converted<T: SQLValueConvertible & Decodable>(
    _ type: T.Type,
    _ key: Key
  ) throws
    -> T
  {
    let value = row.value(at: try index(key, T.self))
    guard let result = T(sqlValue: value) else { throw mismatch(key, T.self, value) }
    return result
  }

  private func mismatch(_ key: Key, _ type: Any.Type, _ value: SQLValue) -> RowDecodingError {
    .mismatch(column: key.stringValue, type: Row.name(of: type), value: value)
  }

  private func index(_ key: Key, _ type: Any.Type) throws -> Int {
    guard let index = row.index(of: key.stringValue) else {
      throw RowDecodingError.missingColumn(
        column: key.stringValue,
        type: Row.name(of: type),
        columns: row.columns
      )
    }
    return index
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type,
    forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    throw ValueDecoder.NeedsJSON()
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw ValueDecoder.NeedsJSON()
  }

  func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
  func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(row: row) }
}

/// Decodes a single value (an enum's raw value, a wrapper type) from one column.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
  /// The type wants a keyed or unkeyed container: decode it from the column's JSON instead.
  struct NeedsJSON: Error {}

  let column: String
  let value: SQLValue
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw NeedsJSON()
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { value == .null }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
  func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
  func decode(_ type: String.Type) throws -> String { try value(type) }
  func decode(_ type: Double.Type) throws -> Double { try value(type) }
  func decode(_ type: Float.Type) throws -> Float { try value(type) }
  func decode(_ type: Int.Type) throws -> Int { try value(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }

  private func value<T: Decodable>(_ type: T.Type) throws -> T {
    try RowDecoder.decode(T.self, column: column, value: value)
  }
}
