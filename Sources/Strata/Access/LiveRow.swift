import Foundation

/// The row a cached statement stands on now, read in place: what `fetchOne`, `fetchAll` and
/// `fetchRows` read without copying it first. Valid only until the statement steps again or is
/// reset (inside `Database`'s own loop).
@usableFromInline
struct LiveRow {
  /// The statement, with what was read once from it.
  let entry: StatementCache.Entry
  /// The entry's statement and column names, kept here so that each row reads them without
  /// going through the entry (a retain and a release each time).
  let statement: Statement
  let columns: [String]

  init(_ entry: StatementCache.Entry) {
    self.entry = entry
    statement = entry.statement
    columns = entry.columns
  }

  /// The value of column `index` (0-based).
  func value(at index: Int) -> SQLValue { statement.value(at: index) }

  /// The index of the column named `name`, as `Row.index(of:)` finds it.
  func index(of name: String) -> Int? { Row.index(of: name, in: columns) }

  /// True when the column at `index` is NULL.
  func isNull(at index: Int) -> Bool { statement.isNull(at: index) }

  /// The row copied out of the statement.
  var row: Row { Row(columns: columns, values: columns.indices.map { statement.value(at: $0) }) }

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
    let value = statement.value(at: 0)
    guard let result = T(sqlValue: value) else {
      throw RowDecodingError.mismatch(column: column, type: Row.name(of: T.self), value: value)
    }
    return result
  }

  /// True when `type` was found, on an earlier row of this statement, to decode by column
  /// name: not `SQLValueConvertible`.
  @usableFromInline
  func decodesByName(_ type: ObjectIdentifier) -> Bool { entry.keyedType == type }

  /// Remembers that `type` decodes by column name (see `decodesByName(_:)`).
  @usableFromInline
  func rememberDecodesByName(_ type: ObjectIdentifier) { entry.keyedType = type }

  /// The decoder that reads a `Decodable` type from this row, each property from the column
  /// of its name.
  @usableFromInline
  var decoder: any Decoder { RowDecoder(row: self) }
}
