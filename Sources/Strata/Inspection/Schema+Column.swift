extension Schema {
  /// SQLite's type affinity, from the declared type by the rules of
  /// https://www.sqlite.org/datatype3.html#determination_of_column_affinity.
  package enum Affinity: String, Codable, Sendable {
    /// Declared with `INT` in its type.
    case integer = "INTEGER"
    /// Declared with `CHAR`, `CLOB` or `TEXT` in its type.
    case text = "TEXT"
    /// Declared `BLOB` or with no type: values are stored as given.
    case blob = "BLOB"
    /// Declared with `REAL`, `FLOA` or `DOUB` in its type.
    case real = "REAL"
    /// Any other declared type, such as `NUMERIC`, `DECIMAL` or `DATE`.
    case numeric = "NUMERIC"

    /// The affinity SQLite gives a column declared `declaredType`. In a STRICT table, `ANY`
    /// converts nothing, which is BLOB affinity.
    package init(declaredType: String, strict: Bool = false) {
      let type = declaredType.uppercased()
      if type.contains("INT") {
        self = .integer
      } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
        self = .text
      } else if type.contains("BLOB") || type.trimmingSQLSpace().isEmpty {
        self = .blob
      } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
        self = .real
      } else if strict && type.trimmingSQLSpace() == "ANY" {
        self = .blob
      } else {
        self = .numeric
      }
    }
  }

  /// A column of a table or a view, as `PRAGMA table_xinfo` reports it.
  package struct Column: Codable, Equatable, Sendable {
    /// How a generated column is kept.
    package enum Generated: String, Codable, Sendable {
      /// Computed when read.
      case virtual
      /// Computed when written, and stored.
      case stored
    }

    /// 1-based, in table order (hidden and generated columns included).
    package var position: Int
    /// The column's name, as declared.
    package var name: String
    /// As written; empty for a column declared without a type.
    package var declaredType: String
    /// The affinity SQLite gives the declared type; it decides how values are converted.
    package var affinity: Affinity
    /// True for NOT NULL, and for an INTEGER PRIMARY KEY (the rowid cannot be NULL), which
    /// `PRAGMA table_info` reports as nullable.
    package var notNull: Bool
    /// The DEFAULT expression as written (`'x'`, `0`, `CURRENT_TIMESTAMP`); nil when none.
    @ExplicitNull package var defaultValue: String?
    /// 1-based position in the primary key; 0 when not part of it.
    package var primaryKeyPosition: Int
    /// An INTEGER PRIMARY KEY of a rowid table: another name for the rowid.
    package var isRowIDAlias: Bool
    /// How a generated column is kept; nil for an ordinary column.
    @ExplicitNull package var generated: Generated?
    /// The `AS (…)` expression of a generated column, as written.
    @ExplicitNull package var generatedExpression: String?
    /// A hidden column of a virtual table (such as FTS5's `rank`).
    package var hidden: Bool
    /// The COLLATE written on the column; nil for the default, BINARY.
    @ExplicitNull package var collation: String?
  }
}
