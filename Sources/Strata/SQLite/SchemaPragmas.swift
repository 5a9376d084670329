/// Reads the schema PRAGMAs of the main database (`table_list`, `table_xinfo`, `index_list`,
/// `index_xinfo`, `foreign_key_list`): the one reader that both the seeder and the inspector
/// use, so the two never read a table differently. Each PRAGMA is prepared once and reused for
/// every table. In `SQLite/`: it reads SQLite's own catalogue, for every layer above (seeding,
/// inspection, the foreign key check of a migration).
struct SchemaPragmas {
  /// One row of `PRAGMA table_list`.
  struct ListedTable {
    /// "table", "view", "virtual" or "shadow".
    let type: String
    let withoutRowID: Bool
    let strict: Bool
  }

  /// One row of `PRAGMA table_xinfo`.
  struct Column {
    let name: String
    let declaredType: String
    let notNull: Bool
    /// The DEFAULT expression as written; nil when none.
    let defaultValue: String?
    /// 1-based position in the primary key; 0 when not part of it.
    let primaryKeyPosition: Int
    /// 0 ordinary, 1 hidden (virtual table), 2 generated virtual, 3 generated stored.
    let hidden: Int64
  }

  /// One row of `PRAGMA index_list`.
  struct Index {
    let name: String
    let unique: Bool
    /// "c" (`CREATE INDEX`), "u" (UNIQUE) or "pk" (PRIMARY KEY).
    let origin: String
    let partial: Bool
  }

  /// One key column of `PRAGMA index_xinfo` (`key = 1`), in key order.
  struct IndexColumn {
    /// The column's number; -1 for the rowid, -2 for an expression.
    let columnID: Int64
    let name: String?
    let descending: Bool
    let collation: String?
  }

  /// One foreign key of `PRAGMA foreign_key_list`, its rows gathered.
  struct ForeignKey {
    let id: Int
    let parent: String
    let from: [String]
    /// The parent's columns; nil entries mean the parent's primary key.
    let to: [String?]
    let onUpdate: String
    let onDelete: String
    let match: String
  }

  /// The first SQLite with `PRAGMA table_list` (STRICT, WITHOUT ROWID, shadow tables).
  static let tableListVersion = 3_037_000

  let connection: any SQLDatabase
  private let columnStatement: any SQLStatement
  private let indexStatement: any SQLStatement
  private let indexColumnStatement: any SQLStatement
  private let foreignKeyStatement: any SQLStatement

  /// Prepares the PRAGMAs on `connection`.
  ///
  /// - Throws: `SQLiteError` when SQLite cannot prepare them.
  init(_ connection: any SQLDatabase) throws {
    self.connection = connection
    columnStatement = try connection.prepare(
      "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?, 'main')"
    )
    indexStatement = try connection.prepare(
      "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?, 'main')"
    )
    indexColumnStatement = try connection.prepare(
      "SELECT cid, name, \"desc\", coll FROM pragma_index_xinfo(?, 'main') WHERE key = 1 "
        + "ORDER BY seqno"
    )
    foreignKeyStatement = try connection.prepare(
      "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete, match "
        + "FROM pragma_foreign_key_list(?, 'main') ORDER BY id, seq"
    )
  }

  /// `PRAGMA table_list` by table name; empty before SQLite 3.37, which has no such PRAGMA.
  ///
  /// - Throws: `SQLiteError` when SQLite fails.
  func listedTables() throws -> [String: ListedTable] {
    guard connection.sqliteVersionNumber >= Self.tableListVersion else { return [:] }
    var result: [String: ListedTable] = [:]
    let statement = try connection.prepare(
      "SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main'"
    )
    while try statement.step() {
      result[statement.string(at: 0) ?? ""] = ListedTable(
        type: statement.string(at: 1) ?? "table",
        withoutRowID: statement.int64(at: 2) != 0,
        strict: statement.int64(at: 3) != 0
      )
    }
    return result
  }

  /// The columns of a table or view, in table order, hidden and generated ones included.
  ///
  /// - Throws: `SQLiteError` when SQLite fails (such as a virtual table whose module is not
  ///   loaded).
  func columns(of table: String) throws -> [Column] {
    var result: [Column] = []
    try each(columnStatement, table) { row in
      result.append(
        Column(
          name: row.string(at: 0) ?? "",
          declaredType: row.string(at: 1) ?? "",
          notNull: row.int64(at: 2) != 0,
          defaultValue: row.string(at: 3),
          primaryKeyPosition: Int(row.int64(at: 4)),
          hidden: row.int64(at: 5)
        )
      )
    }
    return result
  }

  /// The table's indexes, in `PRAGMA index_list` order.
  ///
  /// - Throws: `SQLiteError` when SQLite fails.
  func indexes(of table: String) throws -> [Index] {
    var result: [Index] = []
    try each(indexStatement, table) { row in
      result.append(
        Index(
          name: row.string(at: 0) ?? "",
          unique: row.int64(at: 1) != 0,
          origin: row.string(at: 2) ?? "c",
          partial: row.int64(at: 3) != 0
        )
      )
    }
    return result
  }

  /// The key columns of `index`, in key order.
  ///
  /// - Throws: `SQLiteError` when SQLite fails.
  func keyColumns(of index: String) throws -> [IndexColumn] {
    var result: [IndexColumn] = []
    try each(indexColumnStatement, index) { row in
      result.append(
        IndexColumn(
          columnID: row.int64(at: 0),
          name: row.string(at: 1),
          descending: row.int64(at: 2) != 0,
          collation: row.string(at: 3)
        )
      )
    }
    return result
  }

  /// The table's foreign keys, by id.
  ///
  /// - Throws: `SQLiteError` when SQLite fails.
  func foreignKeys(of table: String) throws -> [ForeignKey] {
    var result: [ForeignKey] = []
    try each(foreignKeyStatement, table) { row in
      let id = Int(row.int64(at: 0))
      let from = row.string(at: 2) ?? ""
      let to = row.string(at: 3)
      if let last = result.last, last.id == id {
        result[result.count - 1] = ForeignKey(
          id: id,
          parent: last.parent,
          from: last.from + [from],
          to: last.to + [to],
          onUpdate: last.onUpdate,
          onDelete: last.onDelete,
          match: last.match
        )
      } else {
        result.append(
          ForeignKey(
            id: id,
            parent: row.string(at: 1) ?? "",
            from: [from],
            to: [to],
            onUpdate: row.string(at: 4) ?? "NO ACTION",
            onDelete: row.string(at: 5) ?? "NO ACTION",
            match: row.string(at: 6) ?? "NONE"
          )
        )
      }
    }
    return result
  }

  /// The column that is another name for the rowid, if any, by SQLite's rule: a rowid table
  /// whose primary key is one column declared exactly `INTEGER` (ASCII case aside; `"INTEGER "`
  /// is not). SQLite makes no index for such a key, so a `pk` index in `indexes` means the key
  /// is not the rowid (as for `INTEGER PRIMARY KEY DESC`).
  static func rowIDAlias(columns: [Column], indexes: [Index], hasRowID: Bool) -> Int? {
    let keyColumns = columns.indices.filter { columns[$0].primaryKeyPosition > 0 }
    guard hasRowID, keyColumns.count == 1, let only = keyColumns.first,
      asciiLowercased(columns[only].declaredType) == "integer",
      !indexes.contains(where: { $0.origin == "pk" })
    else { return nil }
    return only
  }

  /// Runs a prepared PRAGMA statement for `argument`, visiting each row.
  private func each(
    _ statement: any SQLStatement,
    _ argument: String,
    _ body: (any SQLStatement) throws -> Void
  ) throws {
    statement.reset()
    defer { statement.reset() }
    try statement.bind(.text(argument), at: 1)
    while try statement.step() { try body(statement) }
  }
}
