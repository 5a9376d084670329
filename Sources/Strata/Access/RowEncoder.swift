import Foundation

/// Encodes an `Encodable` row into its properties' names and values, the reverse of
/// `RowDecoder`: each property is stored as `SQLValueConvertible` stores its type (`Date` as
/// ISO 8601 text, `Bool` as 1 or 0, `UUID` as upper-case text …: one rule each way, kept in
/// that protocol's conformances), any other integer when it fits in 64 bits, a type that
/// encodes one value (an enum with a raw value, a wrapper) as that value, nil as `NULL`.
///
/// A property whose type encodes a keyed or unkeyed container (a struct, an array, a
/// dictionary, an enum with associated values) is refused, with the property's name: writing
/// it would need an encoding of its own (JSON, a blob…), which is not chosen silently.
///
/// One encoder is kept with a `Database` and serves every write: `reset()` empties it. The
/// `Encoder` API cannot throw from `container(keyedBy:)` and the nested containers, so a
/// failure found there is kept in `failure` and thrown once `encode(to:)` returns.
final class RowEncoder: Encoder {
  /// Why a value could not be encoded as a row, before the table and type are known.
  enum Failure: Error, Equatable {
    /// The property's type encodes a container; `valueType` names it.
    case nested(property: String, valueType: String)
    /// The property's value has no SQLite value that reads back the same.
    case doesNotFit(property: String, reason: String)
    /// The value itself encodes one value or a list, not properties.
    case notARow
  }

  /// The properties' names (coding keys) and values, in the order `encode(to:)` gave them.
  private(set) var keys: [String] = []
  private(set) var values: [SQLValue] = []
  /// The first failure found where the `Encoder` API cannot throw.
  var failure: Failure?

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// Empties the encoder for the next row (keeping its arrays' capacity).
  func reset() {
    keys.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
    failure = nil
  }

  /// Encodes `value`'s properties.
  ///
  /// - Throws: `Failure` for a nested property, a value that does not fit, or a value that is
  ///   not a row; whatever the value's own `encode(to:)` throws.
  func encode<T: Encodable>(_ value: T) throws {
    reset()
    try value.encode(to: self)
    if let failure { throw failure }
  }

  func append(_ key: String, _ value: SQLValue) {
    keys.append(key)
    values.append(value)
  }

  /// Keeps the first failure.
  func fail(_ failure: Failure) {
    if self.failure == nil { self.failure = failure }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    fail(.notARow)
    return DiscardingContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    fail(.notARow)
    return DiscardingContainer()
  }

  // MARK: - The rule for one value

  /// The SQLite value of one property: `SQLValueConvertible` first (so `Date`, `Data`, `URL`
  /// and `UUID` are stored as that protocol says, not as their `Encodable` form), then an
  /// integer of another width, then the one value the type encodes.
  ///
  /// - Throws: `Failure.doesNotFit` for an integer beyond 64 bits or NaN; `.nested` for a type
  ///   that encodes a container.
  static func sqlValue<T: Encodable>(_ value: T, property: String) throws -> SQLValue {
    if let convertible = value as? any SQLValueConvertible {
      return try checked(convertible.sqlValue, property: property)
    }
    if let integer = value as? any BinaryInteger {
      return try sqlValue(integer: integer, property: property)
    }
    let encoder = ValueEncoder(property: property, type: T.self)
    try value.encode(to: encoder)
    if let failure = encoder.failure { throw failure }
    guard let result = encoder.value else {
      // Encoded nothing at all: not one value.
      throw Failure.nested(property: property, valueType: Row.name(of: T.self))
    }
    return result
  }

  /// An integer of any width as SQLite's 64-bit integer, as `RowDecoder` reads it back.
  static func sqlValue(integer: some BinaryInteger, property: String) throws -> SQLValue {
    guard let exact = Int64(exactly: integer) else {
      throw Failure.doesNotFit(
        property: property,
        reason: "\(integer) is beyond SQLite's integers (\(Int64.min) to \(Int64.max))"
      )
    }
    return .integer(exact)
  }

  /// `value` unless SQLite would not give it back: NaN, which SQLite stores as `NULL`.
  @inline(__always)
  static func checked(_ value: SQLValue, property: String) throws -> SQLValue {
    if case .real(let number) = value, number.isNaN {
      throw Failure.doesNotFit(
        property: property,
        reason: "NaN is not a number SQLite keeps (it would store NULL)"
      )
    }
    return value
  }
}

/// Encodes the one value of a property's type that is not `SQLValueConvertible`: an enum's
/// raw value, a wrapper's value. A container is a nested type, kept as the failure.
final class ValueEncoder: Encoder, SingleValueEncodingContainer {
  let property: String
  let type: Any.Type
  private(set) var value: SQLValue?
  private(set) var failure: RowEncoder.Failure?

  init(property: String, type: Any.Type) {
    self.property = property
    self.type = type
  }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    nested()
    return KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    nested()
    return DiscardingContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  private func nested() {
    if failure == nil { failure = .nested(property: property, valueType: Row.name(of: type)) }
  }

  func encodeNil() throws { value = .null }
  func encode(_ value: Bool) throws { self.value = value.sqlValue }
  func encode(_ value: String) throws { self.value = value.sqlValue }
  func encode(_ value: Double) throws {
    self.value = try RowEncoder.checked(value.sqlValue, property: property)
  }
  func encode(_ value: Float) throws {
    self.value = try RowEncoder.checked(value.sqlValue, property: property)
  }
  func encode(_ value: Int) throws { self.value = value.sqlValue }
  func encode(_ value: Int8) throws { try integer(value) }
  func encode(_ value: Int16) throws { try integer(value) }
  func encode(_ value: Int32) throws { self.value = value.sqlValue }
  func encode(_ value: Int64) throws { self.value = value.sqlValue }
  func encode(_ value: UInt) throws { try integer(value) }
  func encode(_ value: UInt8) throws { try integer(value) }
  func encode(_ value: UInt16) throws { try integer(value) }
  func encode(_ value: UInt32) throws { try integer(value) }
  func encode(_ value: UInt64) throws { try integer(value) }
  func encode<T: Encodable>(_ value: T) throws {
    self.value = try RowEncoder.sqlValue(value, property: property)
  }

  private func integer(_ value: some BinaryInteger) throws {
    self.value = try RowEncoder.sqlValue(integer: value, property: property)
  }
}
