import Foundation

/// One row of a query's result: its values by column name, in the order of the query.
///
/// ```swift
/// for row in try db.fetchRows("SELECT stuName, age FROM student") {
///   let name: String = try row.decode(String.self, column: "stuName")
///   let age: Int? = row["age"]       // nil for NULL, never 0
/// }
/// ```
///
/// Names match as SQLite matches them, ignoring ASCII case; when a query has two columns of one
/// name, the first is read.
public struct Row: Sendable, Hashable {
  /// The columns' names, in the order of the query.
  public let columns: [String]
  /// The values, in the order of `columns`.
  public let values: [SQLValue]

  /// A row of `values` under the names `columns` (the same count).
  public init(columns: [String], values: [SQLValue]) {
    precondition(columns.count == values.count, "a row needs one value per column")
    self.columns = columns
    self.values = values
  }

  /// The index of the column named `name` (ASCII case ignored), or nil.
  public func index(of name: String) -> Int? { Self.index(of: name, in: columns) }

  /// The index of the column named `name` among `columns`: the same name first, then one that
  /// differs only in ASCII case.
  static func index(of name: String, in columns: [String]) -> Int? {
    if let exact = columns.firstIndex(of: name) { return exact }
    return columns.firstIndex { sameName($0, name) }
  }

  /// The value of the column named `name`: `.null` for NULL, and also for a column the row
  /// does not have (use `decode(_:column:)` to be told).
  public subscript(_ name: String) -> SQLValue {
    index(of: name).map { values[$0] } ?? .null
  }

  /// The column named `name` as `T`: nil for NULL (never 0), and also for a missing column
  /// or a value that is not a `T` (use `decode(_:column:)` to be told which).
  @inlinable
  public subscript<T: SQLValueConvertible>(_ name: String) -> T? {
    guard let index = index(of: name) else { return nil }
    return T(sqlValue: values[index])
  }

  /// The column named `name` as `T`.
  ///
  /// - Throws: `RowDecodingError.missingColumn` naming the row's columns, or
  ///   `.mismatch` naming the column, the type and the value (NULL into a type that is not
  ///   optional, text into a number, an integer out of range).
  @inlinable
  public func decode<T: SQLValueConvertible>(
    _ type: T.Type = T.self,
    column name: String
  ) throws
    -> T
  {
    guard let index = index(of: name) else {
      throw RowDecodingError.missingColumn(
        column: name,
        type: Self.name(of: T.self),
        columns: columns
      )
    }
    guard let value = T(sqlValue: values[index]) else {
      throw RowDecodingError.mismatch(
        column: name,
        type: Self.name(of: T.self),
        value: values[index]
      )
    }
    return value
  }

  /// A type's name for messages: `Int`, `String?`.
  @usableFromInline
  static func name(of type: Any.Type) -> String {
    let full = String(describing: type)
    if full.hasPrefix("Optional<"), full.hasSuffix(">") {
      return String(full.dropFirst("Optional<".count).dropLast()) + "?"
    }
    return full
  }
}

extension Row: Sequence {
  /// The columns' names and values, in order.
  public func makeIterator() -> Zip2Sequence<[String], [SQLValue]>.Iterator {
    zip(columns, values).makeIterator()
  }
}
