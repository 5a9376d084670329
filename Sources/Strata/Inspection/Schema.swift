/// A database's schema as `SchemaInspector` reads it: every array is sorted, so two reads of
/// one schema are equal and encode to the same JSON.
///
/// Optional values encode as JSON `null` rather than being left out, so every object always
/// has the same keys.
public struct Schema: Codable, Equatable, Sendable {
  /// The version of this JSON layout; it changes only when a key changes meaning or goes away.
  public static let formatVersion = 1

  /// `formatVersion` when this value was made.
  public var format: Int
  /// Facts about the file: SQLite version, page size, encoding, journal mode.
  public var database: Database
  /// strata's history, when the database has one.
  public var migrations: MigrationState?
  /// The user's tables, virtual tables included (each with its shadow tables inside it), by name.
  public var tables: [Table]
  /// strata's own tables (`strata_migrations`, `strata_seeds`, any `strata_*`), by name.
  public var strataTables: [Table]
  /// The views, by name.
  public var views: [View]
  /// The triggers, by name.
  public var triggers: [Trigger]
  /// The names asked for, when only some tables were inspected; empty for the whole schema.
  public var selection: [String]

  /// Makes a schema from its parts, such as one decoded elsewhere or built in a test.
  public init(
    database: Database,
    migrations: MigrationState?,
    tables: [Table],
    strataTables: [Table],
    views: [View],
    triggers: [Trigger],
    selection: [String] = []
  ) {
    self.format = Schema.formatVersion
    self.database = database
    self.migrations = migrations
    self.tables = tables
    self.strataTables = strataTables
    self.views = views
    self.triggers = triggers
    self.selection = selection
  }

  enum CodingKeys: String, CodingKey {
    case format, database, migrations, tables, strataTables, views, triggers, selection
  }

  /// Writes every key, optional ones as `null`, so the JSON layout never changes shape.
  ///
  /// - Throws: The encoder's `EncodingError`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(format, forKey: .format)
    try container.encode(database, forKey: .database)
    try container.encode(migrations, forKey: .migrations)
    try container.encode(tables, forKey: .tables)
    try container.encode(strataTables, forKey: .strataTables)
    try container.encode(views, forKey: .views)
    try container.encode(triggers, forKey: .triggers)
    try container.encode(selection, forKey: .selection)
  }

  /// Every table, strata's included, with shadow tables after their virtual table.
  public var allTables: [Table] {
    (tables + strataTables).flatMap { [$0] + $0.shadowTables }
  }

  /// The table named `name` (SQLite compares names without ASCII case), shadow tables included.
  public func table(named name: String) -> Table? {
    allTables.first { $0.name == name } ?? allTables.first { sameName($0.name, name) }
  }

  /// The triggers on `table`.
  public func triggers(on table: String) -> [Trigger] {
    triggers.filter { sameName($0.table, table) }
  }
}

extension Schema {
  /// Facts about the file, from its PRAGMAs.
  public struct Database: Codable, Equatable, Sendable {
    /// The SQLite library reading the file, such as "3.40.1".
    public var sqliteVersion: String
    /// `PRAGMA page_size`, in bytes.
    public var pageSize: Int64
    /// `PRAGMA page_count`.
    public var pageCount: Int64
    /// `PRAGMA freelist_count`: unused pages that `VACUUM` would give back.
    public var freelistCount: Int64
    /// "UTF-8", "UTF-16le" or "UTF-16be".
    public var encoding: String
    /// "delete", "wal", "memory", …
    public var journalMode: String
    /// "none", "full" or "incremental".
    public var autoVacuum: String
    /// `PRAGMA user_version`, which apps and other tools use as a schema version.
    public var userVersion: Int64
    /// `PRAGMA application_id`, which marks the file's format for other tools.
    public var applicationID: Int64

    /// Page size × page count.
    public var sizeBytes: Int64 { pageSize * pageCount }
  }

  /// Where strata's migration history says the database is.
  public struct MigrationState: Codable, Equatable, Sendable {
    /// The newest applied version (0 when none).
    public var currentVersion: Int64
    /// Rows in `strata_migrations`.
    public var appliedCount: Int
    /// Migrations in the folder not applied yet (pending or out of order); nil without a folder.
    public var pendingCount: Int?
    /// The migrations folder compared against, as the user named it.
    public var migrationsDirectory: String?

    /// Makes a migration state from its parts.
    public init(
      currentVersion: Int64,
      appliedCount: Int,
      pendingCount: Int?,
      migrationsDirectory: String?
    ) {
      self.currentVersion = currentVersion
      self.appliedCount = appliedCount
      self.pendingCount = pendingCount
      self.migrationsDirectory = migrationsDirectory
    }

    enum CodingKeys: String, CodingKey {
      case currentVersion, appliedCount, pendingCount, migrationsDirectory
    }

    /// Writes every key, optional ones as `null`.
    ///
    /// - Throws: The encoder's `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(currentVersion, forKey: .currentVersion)
      try container.encode(appliedCount, forKey: .appliedCount)
      try container.encode(pendingCount, forKey: .pendingCount)
      try container.encode(migrationsDirectory, forKey: .migrationsDirectory)
    }
  }

  /// A table: ordinary, virtual, or the shadow table of a virtual table.
  public struct Table: Codable, Equatable, Sendable {
    /// What kind of table this is.
    public enum Kind: String, Codable, Sendable {
      /// An ordinary table.
      case table
      /// A virtual table (`CREATE VIRTUAL TABLE … USING module`).
      case virtual
      /// Storage a virtual table keeps for itself (such as an FTS5 table's `_data`).
      case shadow
    }

    /// The table's name, as stored.
    public var name: String
    /// Ordinary, virtual or shadow.
    public var kind: Kind
    /// The `CREATE` statement as stored in `sqlite_schema`.
    public var sql: String
    /// Declared `WITHOUT ROWID`.
    public var withoutRowID: Bool
    /// nil when the SQLite reading the file is older than 3.37 (no `PRAGMA table_list`).
    public var strict: Bool?
    /// Declared with an `AUTOINCREMENT` key.
    public var autoincrement: Bool
    /// The table's row in `sqlite_sequence`, for an AUTOINCREMENT table that has had rows.
    public var autoincrementSequence: Int64?
    /// Exact (`count(*)`); nil when the table cannot be read (a virtual table whose module is
    /// not loaded).
    public var rowCount: Int64?
    /// The columns, in table order.
    public var columns: [Column]
    /// By name.
    public var indexes: [Index]
    /// The foreign keys, as `PRAGMA foreign_key_list` reports them.
    public var foreignKeys: [ForeignKey]
    /// In the order written.
    public var checks: [CheckConstraint]
    /// For a virtual table: `USING module(arguments)`.
    public var module: String?
    /// For a virtual table: the arguments in `USING module(arguments)`.
    public var moduleArguments: String?
    /// For a virtual table: its shadow tables, by name.
    public var shadowTables: [Table]

    enum CodingKeys: String, CodingKey {
      case name, kind, sql, withoutRowID, strict, autoincrement, autoincrementSequence, rowCount
      case columns, indexes, foreignKeys, checks, module, moduleArguments, shadowTables
    }

    /// Writes every key, optional ones as `null`.
    ///
    /// - Throws: The encoder's `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(kind, forKey: .kind)
      try container.encode(sql, forKey: .sql)
      try container.encode(withoutRowID, forKey: .withoutRowID)
      try container.encode(strict, forKey: .strict)
      try container.encode(autoincrement, forKey: .autoincrement)
      try container.encode(autoincrementSequence, forKey: .autoincrementSequence)
      try container.encode(rowCount, forKey: .rowCount)
      try container.encode(columns, forKey: .columns)
      try container.encode(indexes, forKey: .indexes)
      try container.encode(foreignKeys, forKey: .foreignKeys)
      try container.encode(checks, forKey: .checks)
      try container.encode(module, forKey: .module)
      try container.encode(moduleArguments, forKey: .moduleArguments)
      try container.encode(shadowTables, forKey: .shadowTables)
    }

    /// The column named `name`, ignoring ASCII case as SQLite does.
    public func column(named name: String) -> Column? {
      columns.first { $0.name == name } ?? columns.first { sameName($0.name, name) }
    }

    /// The primary key's columns, in key order.
    public var primaryKey: [String] {
      columns.filter { $0.primaryKeyPosition > 0 }.sorted {
        $0.primaryKeyPosition < $1.primaryKeyPosition
      }.map(\.name)
    }
  }

  /// SQLite's type affinity, from the declared type by the rules of
  /// https://www.sqlite.org/datatype3.html#determination_of_column_affinity.
  public enum Affinity: String, Codable, Sendable {
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
    public init(declaredType: String, strict: Bool = false) {
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
  public struct Column: Codable, Equatable, Sendable {
    /// How a generated column is kept.
    public enum Generated: String, Codable, Sendable {
      /// Computed when read.
      case virtual
      /// Computed when written, and stored.
      case stored
    }

    /// 1-based, in table order (hidden and generated columns included).
    public var position: Int
    /// The column's name, as declared.
    public var name: String
    /// As written; empty for a column declared without a type.
    public var declaredType: String
    /// The affinity SQLite gives the declared type; it decides how values are converted.
    public var affinity: Affinity
    /// True for NOT NULL, and for an INTEGER PRIMARY KEY (the rowid cannot be NULL), which
    /// `PRAGMA table_info` reports as nullable.
    public var notNull: Bool
    /// The DEFAULT expression as written (`'x'`, `0`, `CURRENT_TIMESTAMP`); nil when none.
    public var defaultValue: String?
    /// 1-based position in the primary key; 0 when not part of it.
    public var primaryKeyPosition: Int
    /// An INTEGER PRIMARY KEY of a rowid table: another name for the rowid.
    public var isRowIDAlias: Bool
    /// How a generated column is kept; nil for an ordinary column.
    public var generated: Generated?
    /// The `AS (…)` expression of a generated column, as written.
    public var generatedExpression: String?
    /// A hidden column of a virtual table (such as FTS5's `rank`).
    public var hidden: Bool
    /// The COLLATE written on the column; nil for the default, BINARY.
    public var collation: String?

    enum CodingKeys: String, CodingKey {
      case position, name, declaredType, affinity, notNull, defaultValue, primaryKeyPosition
      case isRowIDAlias, generated, generatedExpression, hidden, collation
    }

    /// Writes every key, optional ones as `null`.
    ///
    /// - Throws: The encoder's `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(position, forKey: .position)
      try container.encode(name, forKey: .name)
      try container.encode(declaredType, forKey: .declaredType)
      try container.encode(affinity, forKey: .affinity)
      try container.encode(notNull, forKey: .notNull)
      try container.encode(defaultValue, forKey: .defaultValue)
      try container.encode(primaryKeyPosition, forKey: .primaryKeyPosition)
      try container.encode(isRowIDAlias, forKey: .isRowIDAlias)
      try container.encode(generated, forKey: .generated)
      try container.encode(generatedExpression, forKey: .generatedExpression)
      try container.encode(hidden, forKey: .hidden)
      try container.encode(collation, forKey: .collation)
    }
  }

  /// An index of a table, made by `CREATE INDEX` or by SQLite for a constraint.
  public struct Index: Codable, Equatable, Sendable {
    /// Why the index exists (`PRAGMA index_list`'s origin).
    public enum Origin: String, Codable, Sendable {
      /// `CREATE INDEX` ("c").
      case created
      /// A UNIQUE constraint ("u").
      case unique
      /// A PRIMARY KEY constraint ("pk").
      case primaryKey
    }

    /// The index's name (`sqlite_autoindex_…` for one SQLite made).
    public var name: String
    /// Whether the index refuses duplicate keys.
    public var unique: Bool
    /// What made the index.
    public var origin: Origin
    /// The key columns, in order.
    public var columns: [IndexColumn]
    /// The partial index's condition, as written after WHERE.
    public var partialWhere: String?
    /// The `CREATE INDEX` statement; nil for an index SQLite made for a constraint.
    public var sql: String?

    enum CodingKeys: String, CodingKey {
      case name, unique, origin, columns, partialWhere, sql
    }

    /// Writes every key, optional ones as `null`.
    ///
    /// - Throws: The encoder's `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(unique, forKey: .unique)
      try container.encode(origin, forKey: .origin)
      try container.encode(columns, forKey: .columns)
      try container.encode(partialWhere, forKey: .partialWhere)
      try container.encode(sql, forKey: .sql)
    }
  }

  /// One key column of an index: a column or an expression.
  public struct IndexColumn: Codable, Equatable, Sendable {
    /// The column; nil for an expression.
    public var name: String?
    /// The expression as written, for an expression column.
    public var expression: String?
    /// Sorted `DESC` in the index.
    public var descending: Bool
    /// The collating sequence the index uses ("BINARY" unless one was given).
    public var collation: String

    /// The column name, or the expression in parentheses.
    public var displayText: String {
      if let name { return displayIdentifier(name) }
      return "(\(expression ?? "?"))"
    }

    enum CodingKeys: String, CodingKey {
      case name, expression, descending, collation
    }

    /// Writes every key, optional ones as `null`.
    ///
    /// - Throws: The encoder's `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(expression, forKey: .expression)
      try container.encode(descending, forKey: .descending)
      try container.encode(collation, forKey: .collation)
    }
  }

  /// A foreign key of a table: its columns and the parent key they reference.
  public struct ForeignKey: Codable, Equatable, Sendable {
    /// The child table's key columns, in key order.
    public var columns: [String]
    /// The table the key references.
    public var parentTable: String
    /// As written, or the parent's primary key when the REFERENCES clause names no columns.
    public var parentColumns: [String]
    /// "NO ACTION", "CASCADE", "SET NULL", "SET DEFAULT" or "RESTRICT".
    public var onDelete: String
    /// "NO ACTION", "CASCADE", "SET NULL", "SET DEFAULT" or "RESTRICT".
    public var onUpdate: String
    /// The `MATCH` clause ("NONE" when none; SQLite parses it but does not enforce it).
    public var match: String
  }

  /// A CHECK constraint, with its expression exactly as written.
  public struct CheckConstraint: Codable, Equatable, Sendable {
    /// From `CONSTRAINT name CHECK (…)`.
    public var name: String?
    /// The column it is written on; nil for a table constraint.
    public var column: String?
    /// The expression inside `CHECK (…)`, as written.
    public var expression: String

    /// `CHECK (expression)`.
    public var sql: String { "CHECK (\(expression))" }

    enum CodingKeys: String, CodingKey {
      case name, column, expression
    }

    /// Writes every key, optional ones as `null`.
    ///
    /// - Throws: The encoder's `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(column, forKey: .column)
      try container.encode(expression, forKey: .expression)
    }
  }

  /// A view, with its result columns.
  public struct View: Codable, Equatable, Sendable {
    /// The view's name.
    public var name: String
    /// The `CREATE VIEW` statement as stored in `sqlite_schema`.
    public var sql: String
    /// Its result columns; empty when the view cannot be compiled (it names a missing table).
    public var columns: [Column]
  }

  /// A trigger on a table or a view.
  public struct Trigger: Codable, Equatable, Sendable {
    /// The trigger's name.
    public var name: String
    /// The table or view it is on.
    public var table: String
    /// "BEFORE", "AFTER" or "INSTEAD OF".
    public var timing: String
    /// "INSERT", "DELETE", "UPDATE" or "UPDATE OF a, b".
    public var event: String
    /// The `CREATE TRIGGER` statement as stored in `sqlite_schema`.
    public var sql: String
  }
}

/// SQLite's name comparison: case-insensitive for ASCII letters only.
func sameName(_ a: String, _ b: String) -> Bool {
  asciiLowercased(a) == asciiLowercased(b)
}

func asciiLowercased(_ text: String) -> String {
  String(
    String.UnicodeScalarView(
      text.unicodeScalars.map { scalar in
        scalar.value >= 0x41 && scalar.value <= 0x5A
          ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
      }
    )
  )
}

/// The order every list of names is sorted in: case-insensitively, then exactly.
func namesInOrder(_ a: String, _ b: String) -> Bool {
  let (la, lb) = (asciiLowercased(a), asciiLowercased(b))
  return la != lb ? la < lb : a < b
}
