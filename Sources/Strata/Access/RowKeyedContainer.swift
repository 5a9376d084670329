import Foundation

/// The keyed container of `RowDecoder`: each key reads the column of its name from the row
/// the statement stands on now.
struct RowKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let reader: RowReader
  var columns: [String] { reader.names }
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { columns.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { reader.index(of: key.stringValue) != nil }

  /// True for NULL, and for a column the row does not have (as `Row`'s subscript reads it).
  func decodeNil(forKey key: Key) throws -> Bool {
    reader.index(of: key.stringValue).map { reader.isNull(at: $0) } ?? true
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

  // An optional property: one look-up of its column instead of the three of the protocol's
  // default (`contains`, `decodeNil`, `decode`). Missing or NULL is nil.
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let index = present(key) else { return nil }
    return try RowDecoder.decode(T.self, column: key.stringValue, value: reader.value(at: index))
  }
  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try convertedIfPresent(type, key)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try convertedIfPresent(type, key)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try convertedIfPresent(type, key)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try convertedIfPresent(type, key)
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try convertedIfPresent(type, key)
  }

  private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
    let value = reader.value(at: try index(key, T.self))
    return try RowDecoder.decode(T.self, column: key.stringValue, value: value)
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
    let value = reader.value(at: try index(key, T.self))
    guard let result = T(sqlValue: value) else { throw mismatch(key, T.self, value) }
    return result
  }

  /// `converted(_:_:)` for an optional property: nil for a missing column or NULL.
  @inline(__always)
  private func convertedIfPresent<T: SQLValueConvertible & Decodable>(
    _ type: T.Type,
    _ key: Key
  ) throws
    -> T?
  {
    guard let index = present(key) else { return nil }
    let value = reader.value(at: index)
    guard let result = T(sqlValue: value) else { throw mismatch(key, T.self, value) }
    return result
  }

  /// The index of the key's column when the row has it and it is not NULL.
  private func present(_ key: Key) -> Int? {
    guard let index = reader.index(of: key.stringValue), !reader.isNull(at: index)
    else { return nil }
    return index
  }

  private func mismatch(_ key: Key, _ type: Any.Type, _ value: SQLValue) -> RowDecodingError {
    .mismatch(column: key.stringValue, type: Row.name(of: type), value: value)
  }

  private func index(_ key: Key, _ type: Any.Type) throws -> Int {
    guard let index = reader.index(of: key.stringValue) else {
      throw RowDecodingError.missingColumn(
        column: key.stringValue,
        type: Row.name(of: type),
        columns: columns
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

  func superDecoder() throws -> any Decoder {
    RowDecoder(reader)
  }
  func superDecoder(forKey key: Key) throws -> any Decoder {
    RowDecoder(reader)
  }
}

/// Decodes a single value (an enum's raw value, a wrapper type) from one column.
struct ValueDecoder: Decoder, SingleValueDecodingContainer {
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
