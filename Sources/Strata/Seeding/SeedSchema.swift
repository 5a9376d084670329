import Foundation

extension Seeder {
  /// What the seeder needs to know about a column.
  struct Column {
    let name: String
    let declaredType: String
    let conversion: SeedConversion
    let notNull: Bool
    let hasDefault: Bool
    /// The DEFAULT expression as SQLite stores it (`0`, `'x'`, `CURRENT_TIMESTAMP`).
    var defaultValue: String? = nil
    /// 1-based position in the primary key; 0 when not part of it.
    let primaryKeyPosition: Int
    /// A generated (or virtual-table hidden) column, which cannot be inserted.
    let isGenerated: Bool
    var isRowidAlias = false

    /// A header must name this column: NOT NULL, no default, not filled in by SQLite.
    var isRequired: Bool { notNull && !hasDefault && !isGenerated && !isRowidAlias }
  }

  /// A set of columns that identifies a row: the primary key or a UNIQUE index.
  struct Key {
    let columns: [String]
    /// Each column's collation, so `ON CONFLICT (…)` names exactly this index (nil for a rowid
    /// alias).
    let collations: [String?]
  }

  /// A foreign key of a seeded table, as `PRAGMA foreign_key_list` gives it.
  typealias ForeignKey = SchemaPragmas.ForeignKey

  /// A table as the seeder sees it.
  struct Table {
    let name: String
    let columns: [Column]
    let isStrict: Bool
    let hasRowid: Bool
    /// Primary key first, then UNIQUE indexes (no partial or expression indexes).
    let keys: [Key]
    let foreignKeys: [ForeignKey]

    func columnIndex(named name: String) -> Int? {
      let folded = Seeder.folded(name)
      return columns.firstIndex { Seeder.folded($0.name) == folded }
    }
  }

  /// Reads `name`'s schema; throws a `SeedError` naming `file` when it is missing, a view, or
  /// one of strata's or SQLite's own tables.
  static func readTable(
    named name: String,
    file: String,
    _ connection: any SQLDatabase
  ) throws -> Table {
    let lowered = folded(name)
    if lowered.hasPrefix("sqlite_") || isStrataOwnTable(lowered) {
      throw SeedError.protectedTable(file: file, table: name)
    }
    let found = try connection.rows(
      "SELECT type, name FROM main.sqlite_master WHERE name = ? COLLATE NOCASE "
        + "AND type IN ('table', 'view')",
      [.text(name)]
    )
    guard let row = found.first, let actual = row[1].textValue else {
      throw SeedError.noSuchTable(file: file, table: name, tables: try userTables(connection))
    }
    if row[0].textValue == "view" {
      throw SeedError.notATable(file: file, table: actual, kind: "view")
    }
    let pragmas = try SchemaPragmas(connection)
    var isStrict = false
    var hasRowid = true
    if connection.sqliteVersionNumber >= SchemaPragmas.tableListVersion {
      if let listed = try pragmas.listedTables()[actual] {
        hasRowid = !listed.withoutRowID
        isStrict = listed.strict
      }
    } else {
      // Before 3.37: a WITHOUT ROWID table has no rowid to select.
      hasRowid =
        (try? connection.prepare("SELECT rowid FROM main.\(quoteIdentifier(actual)) LIMIT 0"))
        != nil
    }

    let pragmaColumns = try pragmas.columns(of: actual)
    var columns = pragmaColumns.map { column in
      Column(
        name: column.name,
        declaredType: column.declaredType,
        conversion: SeedConversion(declaredType: column.declaredType, strict: isStrict),
        notNull: column.notNull,
        hasDefault: column.defaultValue != nil,
        defaultValue: column.defaultValue,
        primaryKeyPosition: column.primaryKeyPosition,
        isGenerated: column.hidden != 0
      )
    }
    let indexes = try pragmas.indexes(of: actual)
    var keys: [Key] = []
    if let alias = SchemaPragmas.rowIDAlias(
      columns: pragmaColumns,
      indexes: indexes,
      hasRowID: hasRowid
    ) {
      columns[alias].isRowidAlias = true
      // No collation: `ON CONFLICT (id COLLATE BINARY)` does not match a rowid alias.
      keys.append(Key(columns: [columns[alias].name], collations: [nil]))
    }
    keys += try uniqueKeys(indexes, pragmas)
    let foreignKeys = try pragmas.foreignKeys(of: actual)
    return Table(
      name: actual,
      columns: columns,
      isStrict: isStrict,
      hasRowid: hasRowid,
      keys: keys,
      foreignKeys: foreignKeys
    )
  }

  /// UNIQUE indexes usable as an `ON CONFLICT` target: the primary key's first, no partial
  /// indexes, no expressions.
  private static func uniqueKeys(
    _ indexes: [SchemaPragmas.Index],
    _ pragmas: SchemaPragmas
  ) throws -> [Key] {
    var ranked: [(rank: Int, key: Key)] = []
    for index in indexes where index.unique && !index.partial {
      let keyColumns = try pragmas.keyColumns(of: index.name)
      guard !keyColumns.isEmpty,
        keyColumns.allSatisfy({ $0.columnID >= 0 && $0.name != nil })
      else { continue }
      let rank =
        switch index.origin {
        case "pk": 0
        case "u": 1
        default: 2
        }
      ranked.append(
        (
          rank,
          Key(
            columns: keyColumns.compactMap(\.name),
            collations: keyColumns.map { $0.collation ?? "BINARY" }
          )
        )
      )
    }
    return ranked.enumerated().sorted {
      ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
    }.map(\.element.key)
  }

  /// The tables a user could seed, for "no such table" messages.
  static func userTables(_ connection: any SQLDatabase) throws -> [String] {
    try connection.rows(
      "SELECT name FROM main.sqlite_master WHERE type = 'table' "
        + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'strata\\_%' ESCAPE '\\' "
        + "ORDER BY name"
    ).compactMap { $0.first?.textValue }
  }

  /// Tables other than `table` with a foreign key to it; with `changedByDelete`, only those
  /// whose rows a delete in `table` changes (ON DELETE CASCADE, SET NULL, SET DEFAULT).
  static func referencingTables(
    of table: String,
    changedByDelete: Bool = false,
    _ connection: any SQLDatabase
  ) throws -> [String] {
    let onDelete =
      changedByDelete ? "AND upper(f.on_delete) IN ('CASCADE', 'SET NULL', 'SET DEFAULT') " : ""
    let rows = try connection.rows(
      "SELECT DISTINCT m.name FROM main.sqlite_master AS m, pragma_foreign_key_list(m.name) AS f "
        + "WHERE m.type = 'table' AND f.\"table\" = ? COLLATE NOCASE "
        + "AND m.name <> ? COLLATE NOCASE \(onDelete)ORDER BY m.name",
      [.text(table), .text(table)]
    )
    return rows.compactMap { $0.first?.textValue }
  }

}

extension Seeder {
  /// An identifier with its case folded as SQLite folds it: ASCII letters only.
  static func folded(_ name: String) -> String { asciiLowercased(name) }
}
