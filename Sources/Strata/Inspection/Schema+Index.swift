extension Schema {
  /// An index of a table, made by `CREATE INDEX` or by SQLite for a constraint.
  package struct Index: Codable, Equatable, Sendable {
    /// Why the index exists (`PRAGMA index_list`'s origin).
    package enum Origin: String, Codable, Sendable {
      /// `CREATE INDEX` ("c").
      case created
      /// A UNIQUE constraint ("u").
      case unique
      /// A PRIMARY KEY constraint ("pk").
      case primaryKey
    }

    /// The index's name (`sqlite_autoindex_…` for one SQLite made).
    package var name: String
    /// Whether the index refuses duplicate keys.
    package var unique: Bool
    /// What made the index.
    package var origin: Origin
    /// The key columns, in order.
    package var columns: [IndexColumn]
    /// The partial index's condition, as written after WHERE.
    @ExplicitNull package var partialWhere: String?
    /// The `CREATE INDEX` statement; nil for an index SQLite made for a constraint.
    @ExplicitNull package var sql: String?

  }

  /// One key column of an index: a column or an expression.
  package struct IndexColumn: Codable, Equatable, Sendable {
    /// The column; nil for an expression.
    @ExplicitNull package var name: String?
    /// The expression as written, for an expression column.
    @ExplicitNull package var expression: String?
    /// Sorted `DESC` in the index.
    package var descending: Bool
    /// The collating sequence the index uses ("BINARY" unless one was given).
    package var collation: String
  }
}
