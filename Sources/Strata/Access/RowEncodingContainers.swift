import Foundation

/// The keyed container of `RowEncoder`: each property becomes the value of the column of its
/// key's name. The common types convert without a dynamic cast; nil is `NULL`, also through
/// `encodeIfPresent` (whose default would leave the column out, so that an update could not
/// set a column back to `NULL`).
struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: RowEncoder
  var codingPath: [any CodingKey] { [] }

  private func append(_ key: Key, _ value: SQLValue) { encoder.append(key.stringValue, value) }

  private func integer(_ value: some BinaryInteger, _ key: Key) throws {
    append(key, try RowEncoder.sqlValue(integer: value, property: key.stringValue))
  }

  private func real(_ value: SQLValue, _ key: Key) throws {
    append(key, try RowEncoder.checked(value, property: key.stringValue))
  }

  mutating func encodeNil(forKey key: Key) throws { append(key, .null) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { append(key, value.sqlValue) }
  mutating func encode(_ value: String, forKey key: Key) throws { append(key, value.sqlValue) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try real(value.sqlValue, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try real(value.sqlValue, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { append(key, value.sqlValue) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { append(key, value.sqlValue) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { append(key, value.sqlValue) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    append(key, try RowEncoder.sqlValue(value, property: key.stringValue))
  }

  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { append(key, .null) }
  }

  // A nested container is a property of a nested type: refused (see `RowEncoder`).
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.fail(.nested(property: key.stringValue, valueType: "a keyed container"))
    return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.fail(.nested(property: key.stringValue, valueType: "a list"))
    return DiscardingContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder.fail(.nested(property: "super", valueType: "a superclass"))
    return DiscardingContainer()
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    encoder.fail(.nested(property: key.stringValue, valueType: "a superclass"))
    return DiscardingContainer()
  }
}

/// What a refused container hands out: takes every value and keeps none (the failure is
/// already recorded, and thrown once the encoding returns).
struct DiscardingContainer: Encoder, UnkeyedEncodingContainer, SingleValueEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var count: Int { 0 }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer { self }
  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  mutating func encodeNil() throws {}
  mutating func encode(_ value: Bool) throws {}
  mutating func encode(_ value: String) throws {}
  mutating func encode(_ value: Double) throws {}
  mutating func encode(_ value: Float) throws {}
  mutating func encode(_ value: Int) throws {}
  mutating func encode(_ value: Int8) throws {}
  mutating func encode(_ value: Int16) throws {}
  mutating func encode(_ value: Int32) throws {}
  mutating func encode(_ value: Int64) throws {}
  mutating func encode(_ value: UInt) throws {}
  mutating func encode(_ value: UInt8) throws {}
  mutating func encode(_ value: UInt16) throws {}
  mutating func encode(_ value: UInt32) throws {}
  mutating func encode(_ value: UInt64) throws {}
  mutating func encode<T: Encodable>(_ value: T) throws {}

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
  mutating func superEncoder() -> any Encoder { self }
}

/// `DiscardingContainer`'s keyed form.
struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode(_ value: Bool, forKey key: Key) throws {}
  mutating func encode(_ value: String, forKey key: Key) throws {}
  mutating func encode(_ value: Double, forKey key: Key) throws {}
  mutating func encode(_ value: Float, forKey key: Key) throws {}
  mutating func encode(_ value: Int, forKey key: Key) throws {}
  mutating func encode(_ value: Int8, forKey key: Key) throws {}
  mutating func encode(_ value: Int16, forKey key: Key) throws {}
  mutating func encode(_ value: Int32, forKey key: Key) throws {}
  mutating func encode(_ value: Int64, forKey key: Key) throws {}
  mutating func encode(_ value: UInt, forKey key: Key) throws {}
  mutating func encode(_ value: UInt8, forKey key: Key) throws {}
  mutating func encode(_ value: UInt16, forKey key: Key) throws {}
  mutating func encode(_ value: UInt32, forKey key: Key) throws {}
  mutating func encode(_ value: UInt64, forKey key: Key) throws {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    DiscardingContainer()
  }
  mutating func superEncoder() -> any Encoder { DiscardingContainer() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardingContainer() }
}
