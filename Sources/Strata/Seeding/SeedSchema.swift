import Foundation

extension Seeder {
  /// What the seeder needs to know about a column.
  struct Column {
    let name: String
    let declaredType: String
    let conversion: SeedConversion
    let notNull: Bool
    let hasDefault: Bool
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

  /// A foreign key of a seeded table.
  struct ForeignKey {
    let id: Int
    let parent: String
    let from: [String]
    /// The parent's columns; nil entries mean the parent's primary key.
    let to: [String?]
    let onDelete: String
  }

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
  static func readTable(named name: String, file: String, _ connection: Connection) throws -> Table
  {
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
    let quoted = quoteIdentifier(actual)
    var isStrict = false
    var hasRowid = true
    if Connection.libraryVersionNumber >= 3_037_000 {
      for listed in try connection.rows("PRAGMA main.table_list(\(quoted))") {
        // schema, name, type, ncol, wr, strict
        if listed.count >= 6 {
          hasRowid = listed[4].integerValue != 1
          isStrict = listed[5].integerValue == 1
        }
      }
    } else {
      // Before 3.37: a WITHOUT ROWID table has no rowid to select.
      hasRowid = (try? connection.prepare("SELECT rowid FROM main.\(quoted) LIMIT 0")) != nil
    }

    var columns: [Column] = []
    for info in try connection.rows("PRAGMA main.table_xinfo(\(quoted))") {
      // cid, name, type, notnull, dflt_value, pk, hidden
      let type = info[2].textValue ?? ""
      let hidden = info[6].integerValue ?? 0
      columns.append(
        Column(
          name: info[1].textValue ?? "",
          declaredType: type,
          conversion: SeedConversion(declaredType: type, strict: isStrict),
          notNull: info[3].integerValue == 1,
          hasDefault: info[4] != .null,
          primaryKeyPosition: Int(info[5].integerValue ?? 0),
          isGenerated: hidden != 0
        )
      )
    }
    let primaryKey = columns.filter { $0.primaryKeyPosition > 0 }
      .sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
    var keys: [Key] = []
    if hasRowid, primaryKey.count == 1,
      primaryKey[0].declaredType.trimmingCharacters(in: .whitespaces).uppercased() == "INTEGER",
      let index = columns.firstIndex(where: { $0.name == primaryKey[0].name })
    {
      columns[index].isRowidAlias = true
      // No collation: `ON CONFLICT (id COLLATE BINARY)` does not match a rowid alias.
      keys.append(Key(columns: [primaryKey[0].name], collations: [nil]))
    }
    keys += try uniqueKeys(quoted, connection)

    var foreignKeys: [Int: ForeignKey] = [:]
    for fk in try connection.rows("PRAGMA main.foreign_key_list(\(quoted))") {
      // id, seq, table, from, to, on_update, on_delete, match
      let id = Int(fk[0].integerValue ?? 0)
      let existing = foreignKeys[id]
      foreignKeys[id] = ForeignKey(
        id: id,
        parent: fk[2].textValue ?? "",
        from: (existing?.from ?? []) + [fk[3].textValue ?? ""],
        to: (existing?.to ?? []) + [fk[4].textValue],
        onDelete: fk[6].textValue ?? "NO ACTION"
      )
    }
    return Table(
      name: actual,
      columns: columns,
      isStrict: isStrict,
      hasRowid: hasRowid,
      keys: keys,
      foreignKeys: foreignKeys.keys.sorted().compactMap { foreignKeys[$0] }
    )
  }

  /// UNIQUE indexes usable as an `ON CONFLICT` target: the primary key's first, no partial
  /// indexes, no expressions.
  private static func uniqueKeys(_ quotedTable: String, _ connection: Connection) throws -> [Key] {
    var ranked: [(rank: Int, key: Key)] = []
    for index in try connection.rows("PRAGMA main.index_list(\(quotedTable))") {
      // seq, name, unique, origin, partial
      guard index.count >= 5, index[2].integerValue == 1, index[4].integerValue != 1,
        let name = index[1].textValue
      else { continue }
      var columns: [String] = []
      var collations: [String?] = []
      var usable = true
      for column in try connection.rows("PRAGMA main.index_xinfo(\(quoteIdentifier(name)))") {
        // seqno, cid, name, desc, coll, key
        guard column[5].integerValue == 1 else { continue }
        guard (column[1].integerValue ?? -1) >= 0, let columnName = column[2].textValue else {
          usable = false
          break
        }
        columns.append(columnName)
        collations.append(column[4].textValue ?? "BINARY")
      }
      guard usable, !columns.isEmpty else { continue }
      let rank =
        switch index[3].textValue {
        case "pk": 0
        case "u": 1
        default: 2
        }
      ranked.append((rank, Key(columns: columns, collations: collations)))
    }
    return ranked.enumerated().sorted {
      ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
    }.map(\.element.key)
  }

  /// The tables a user could seed, for "no such table" messages.
  static func userTables(_ connection: Connection) throws -> [String] {
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
    _ connection: Connection
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
  static func folded(_ name: String) -> String {
    String(
      decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 },
      as: UTF8.self
    )
  }
}
