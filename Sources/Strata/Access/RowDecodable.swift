import Foundation

/// A type that reads itself from a row by hand: `fetchOne` and `fetchAll` call its
/// `init(row:)` instead of going through `Decodable`, whose keyed container costs a box, a
/// look-up of generic metadata and a dynamic call per property for every row (see the queue
/// in BENCHMARKS.md for what that adds to a read by key).
///
/// ```swift
/// struct Student: RowDecodable {
///   var stuID: String
///   var age: Int?
///   init(row: borrowing LiveRow) throws {
///     stuID = try row.decode(column: "stuID")
///     age = try row.decode(column: "age")        // nil for NULL, never 0
///   }
/// }
/// let student = try db.fetchOne(Student.self, "SELECT * FROM student WHERE stuID = ?", ["S1"])
/// ```
///
/// A type may be both `Decodable` and `RowDecodable`; `fetchOne` and `fetchAll` then use
/// `init(row:)`.
public protocol RowDecodable {
  /// Reads one row: each property with `row.decode(_:column:)` (or `row[name]`).
  ///
  /// - Throws: what `row.decode` throws (`RowDecodingError` naming the column and the type),
  ///   or an error of the type's own.
  init(row: borrowing LiveRow) throws
}

/// The row a query stands on now, read in place by a `RowDecodable` type's `init(row:)`: by
/// column name, as `Row` reads it (ASCII case ignored; the first of two columns of one name).
///
/// Not copyable, and valid only inside `init(row:)`: the statement moves to its next row when
/// `init(row:)` returns. Copy out the values, not the row (`fetchRow` gives a `Row` to keep).
public struct LiveRow: ~Copyable {
  /// The decoder of the statement's row, handed over by `fetchOne` and `fetchAll` for the
  /// time of `init(row:)` (they finish the statement through it afterwards).
  @usableFromInline
  let decoder: RowDecoder

  @inlinable
  init(_ decoder: consuming RowDecoder) { self.decoder = decoder }

  @inlinable
  var reader: RowReader { decoder.reader }

  /// The columns' names, in the order of the query.
  public var columns: [String] { reader.names }

  /// The column named `name` as `T`: an optional `T` reads `NULL` as nil (never 0).
  ///
  /// - Throws: `RowDecodingError.missingColumn` naming the row's columns, or `.mismatch`
  ///   naming the column, the type and the value (`NULL` into a type that is not optional,
  ///   text into a number, an integer out of range).
  @inlinable
  public func decode<T: SQLValueConvertible>(
    _ type: T.Type = T.self,
    column name: String
  ) throws
    -> T
  {
    guard let index = reader.index(of: name) else {
      throw reader.missingColumn(name, type: T.self)
    }
    let value = reader.value(at: index)
    guard let converted = T(sqlValue: value) else {
      throw RowDecodingError.mismatch(column: name, type: Row.name(of: T.self), value: value)
    }
    return converted
  }

  /// The column named `name` as `T`: nil for `NULL` (never 0), and also for a missing column
  /// or a value that is not a `T` (use `decode(_:column:)` to be told which).
  @inlinable
  public subscript<T: SQLValueConvertible>(_ name: String) -> T? {
    guard let index = reader.index(of: name) else { return nil }
    return T(sqlValue: reader.value(at: index))
  }

  /// The value of the column named `name`: `.null` for `NULL`, and also for a column the row
  /// does not have.
  public subscript(_ name: String) -> SQLValue {
    reader.index(of: name).map { reader.value(at: $0) } ?? .null
  }
}
