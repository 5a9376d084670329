extension Schema {
  /// A table: ordinary, virtual, or the shadow table of a virtual table.
  package struct Table: Codable, Equatable, Sendable {
    /// What kind of table this is.
    package enum Kind: String, Codable, Sendable {
      /// An ordinary table.
      case table
      /// A virtual table (`CREATE VIRTUAL TABLE … USING module`).
      case virtual
      /// Storage a virtual table keeps for itself (such as an FTS5 table's `_data`).
      case shadow
    }

    /// The table's name, as stored.
    package var name: String
    /// Ordinary, virtual or shadow.
    package var kind: Kind
    /// The `CREATE` statement as stored in `sqlite_schema`.
    package var sql: String
    /// Declared `WITHOUT ROWID`.
    package var withoutRowID: Bool
    /// nil when the SQLite reading the file is older than 3.37 (no `PRAGMA table_list`).
    @ExplicitNull package var strict: Bool?
    /// Declared with an `AUTOINCREMENT` key.
    package var autoincrement: Bool
    /// The table's row in `sqlite_sequence`, for an AUTOINCREMENT table that has had rows.
    @ExplicitNull package var autoincrementSequence: Int64?
    /// Exact (`count(*)`); nil when the table cannot be read (a virtual table whose module is
    /// not loaded).
    @ExplicitNull package var rowCount: Int64?
    /// The columns, in table order.
    package var columns: [Column]
    /// By name.
    package var indexes: [Index]
    /// The foreign keys, as `PRAGMA foreign_key_list` reports them.
    package var foreignKeys: [ForeignKey]
    /// In the order written.
    package var checks: [CheckConstraint]
    /// For a virtual table: `USING module(arguments)`.
    @ExplicitNull package var module: String?
    /// For a virtual table: the arguments in `USING module(arguments)`.
    @ExplicitNull package var moduleArguments: String?
    /// For a virtual table: its shadow tables, by name.
    package var shadowTables: [Table]

    /// The column named `name`, ignoring ASCII case as SQLite does.
    package func column(named name: String) -> Column? {
      columns.first { $0.name == name } ?? columns.first { sameName($0.name, name) }
    }

    /// The primary key's columns, in key order.
    package var primaryKey: [String] {
      columns.filter { $0.primaryKeyPosition > 0 }.sorted {
        $0.primaryKeyPosition < $1.primaryKeyPosition
      }.map(\.name)
    }
  }

  /// A foreign key of a table: its columns and the parent key they reference.
  package struct ForeignKey: Codable, Equatable, Sendable {
    /// The child table's key columns, in key order.
    package var columns: [String]
    /// The table the key references.
    package var parentTable: String
    /// As written, or the parent's primary key when the REFERENCES clause names no columns.
    package var parentColumns: [String]
    /// "NO ACTION", "CASCADE", "SET NULL", "SET DEFAULT" or "RESTRICT".
    package var onDelete: String
    /// "NO ACTION", "CASCADE", "SET NULL", "SET DEFAULT" or "RESTRICT".
    package var onUpdate: String
    /// The `MATCH` clause ("NONE" when none; SQLite parses it but does not enforce it).
    package var match: String
  }

  /// A CHECK constraint, with its expression exactly as written.
  package struct CheckConstraint: Codable, Equatable, Sendable {
    /// From `CONSTRAINT name CHECK (…)`.
    @ExplicitNull package var name: String?
    /// The column it is written on; nil for a table constraint.
    @ExplicitNull package var column: String?
    /// The expression inside `CHECK (…)`, as written.
    package var expression: String

    /// `CHECK (expression)`.
    package var sql: String { "CHECK (\(expression))" }
  }
}
