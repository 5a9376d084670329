import Foundation

/// Decodes a `Decodable` type from the row a cached statement stands on now, read in place:
/// each property from the column of its coding key's name. A property whose type is
/// `SQLValueConvertible` (numbers, text, `Date`, `UUID`, `Data` …) converts as that protocol
/// says; any other `Decodable` type (an enum with a raw value, a nested struct) is decoded from
/// the column's value: a single value as itself, a keyed or unkeyed one from the column's text
/// as JSON. A single-value type (`fetchAll(String.self, …)`) reads the row's first column.
///
/// One decoder is kept with each cached statement and serves every row read from it, so a row
/// decodes without making a decoder, and the keyed container handed out for a type's coding
/// keys is kept for the next row of the same type. It reads whatever row the statement stands
/// on: valid only until the statement steps again or is reset (inside `Database`'s own loop).
@usableFromInline
final class RowDecoder: Decoder {
  /// Reads the statement's row (shared with the keyed containers).
  @usableFromInline
  let reader: RowReader
  /// The result's columns (read again when SQLite compiles the statement again).
  var columns: [String] { reader.names }
  /// The last `Decodable` type read from this statement that decodes by column name (is not
  /// `SQLValueConvertible`), so that reading it again skips the runtime's conformance check.
  private var keyedType: ObjectIdentifier?
  /// The coding keys of the container in `keyedContainer`, and that container (a
  /// `KeyedContainerHolder<Key>`).
  private var containerKeys: ObjectIdentifier?
  private var keyedContainer: AnyObject?

  init(_ reader: RowReader) {
    self.reader = reader
  }

  /// The statement the row is read from.
  var statement: Statement { reader.statement }

  // The `Decoder` requirements are `@usableFromInline`: the inlinable `fetchOne` and
  // `fetchAll` hand this decoder to the app's `init(from:)`.
  @usableFromInline
  var codingPath: [any CodingKey] { [] }
  @usableFromInline
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The first column as a `T`, as `Row.decode(_:column:)` reads it: a type stored in one
  /// value (`Date`, `Data`, `String?`) decodes from the first column.
  ///
  /// - Throws: `RowDecodingError.mismatch` naming the column, the type and the value;
  ///   `.missingColumn` for a result without columns.
  @usableFromInline
  func first<T: SQLValueConvertible>(_ type: T.Type) throws -> T {
    guard let column = columns.first else {
      throw RowDecodingError.missingColumn(column: "", type: Row.name(of: T.self), columns: [])
    }
    let value = reader.value(at: 0)
    guard let result = T(sqlValue: value) else {
      throw RowDecodingError.mismatch(column: column, type: Row.name(of: T.self), value: value)
    }
    return result
  }

  /// True when `type` was found, on an earlier row of this statement, to decode by column
  /// name: not `SQLValueConvertible`.
  @usableFromInline
  func decodesByName(_ type: ObjectIdentifier) -> Bool { keyedType == type }

  /// Remembers that `type` decodes by column name (see `decodesByName(_:)`).
  @usableFromInline
  func rememberDecodesByName(_ type: ObjectIdentifier) { keyedType = type }

  @usableFromInline
  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    // The container reads the statement, not one row, so the one made for these keys serves
    // every row: no container box and no generic metadata of its own per row.
    if containerKeys == ObjectIdentifier(Key.self), let keyedContainer {
      // The holder was made for `Key` (checked above), so the cast cannot be wrong.
      return unsafeDowncast(keyedContainer, to: KeyedContainerHolder<Key>.self).container
    }
    let container = KeyedDecodingContainer(
      RowKeyedContainer<Key>(reader: reader)
    )
    keyedContainer = KeyedContainerHolder(container)
    containerKeys = ObjectIdentifier(Key.self)
    return container
  }

  @usableFromInline
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      .init(codingPath: [], debugDescription: "a row decodes into a struct, not an array")
    )
  }

  @usableFromInline
  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    guard let column = columns.first else {
      throw RowDecodingError.missingColumn(column: "(first)", type: "value", columns: [])
    }
    return ValueDecoder(column: column, value: reader.value(at: 0))
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
    } catch is DecodingError {
      // A type that reads a plain value and then refuses it: an enum's raw value it has no
      // case for, a type validating what it read.
      throw RowDecodingError.mismatch(column: column, type: Row.name(of: T.self), value: value)
    }
  }
}

/// A keyed container kept by a `RowDecoder` for the coding keys it was made for.
private final class KeyedContainerHolder<Key: CodingKey> {
  let container: KeyedDecodingContainer<Key>
  init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}
