import Foundation

/// A foreign key as the linter compares it: the child table, its columns in order, the parent
/// table (names lowercased, as SQLite compares them).
struct ForeignKeyShape: Hashable {
  let table: String
  let columns: [String]
  let parent: String
}

/// A column as the linter compares it.
struct ColumnShape: Hashable {
  let name: String
  let notNull: Bool
  /// A default other than none or `NULL`.
  let hasNonNullDefault: Bool
}

/// One table of the replay's main database.
struct TableShape: Hashable {
  let name: String
  let columns: [ColumnShape]
  let foreignKeys: [ForeignKeyShape]
}

/// What the linter knows of the replay's schema at one moment: its tables (not SQLite's own),
/// by lowercased name, with their columns and foreign keys.
struct SchemaShape {
  let tables: [String: TableShape]

  /// The replay's tables now.
  static func read(_ connection: Connection) throws -> SchemaShape {
    var tables: [String: TableShape] = [:]
    let names = try connection.rows(
      "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
        + "ESCAPE '\\'"
    ).compactMap { $0.first?.textValue }
    for name in names {
      let columns = try connection.rows(
        "SELECT name, \"notnull\", dflt_value FROM pragma_table_info(?) ORDER BY cid",
        [.text(name)]
      ).map { row in
        let fallback = row[2].textValue?.trimmingCharacters(in: .whitespaces)
        return ColumnShape(
          name: row[0].textValue ?? "",
          notNull: row[1].integerValue == 1,
          hasNonNullDefault: fallback.map { asciiLowercased($0) != "null" } ?? false
        )
      }
      var keys: [Int64: (parent: String, columns: [String])] = [:]
      for row in try connection.rows(
        "SELECT id, \"table\", \"from\" FROM pragma_foreign_key_list(?) ORDER BY id, seq",
        [.text(name)]
      ) {
        let id = row[0].integerValue ?? 0
        let parent = asciiLowercased(row[1].textValue ?? "")
        keys[id, default: (parent, [])].columns.append(asciiLowercased(row[2].textValue ?? ""))
      }
      let table = asciiLowercased(name)
      tables[table] = TableShape(
        name: name,
        columns: columns,
        foreignKeys: keys.keys.sorted().compactMap { id in
          keys[id].map { ForeignKeyShape(table: table, columns: $0.columns, parent: $0.parent) }
        }
      )
    }
    return SchemaShape(tables: tables)
  }

  /// The table named `name` (any case), if there is one.
  func table(_ name: String) -> TableShape? { tables[asciiLowercased(name)] }

  /// The other tables whose foreign keys reference `parent`, by name, sorted.
  func children(of parent: String) -> [String] {
    let key = asciiLowercased(parent)
    return tables.filter { name, table in
      name != key && table.foreignKeys.contains { $0.parent == key }
    }.map(\.value.name).sorted()
  }

  /// Every foreign key of every table.
  var foreignKeys: Set<ForeignKeyShape> {
    Set(tables.values.flatMap(\.foreignKeys))
  }
}

extension Connection {
  /// True when an index of `key`'s table starts with its columns, in order: a full (not partial)
  /// index, a PRIMARY KEY or UNIQUE constraint, or the INTEGER PRIMARY KEY (the rowid) itself.
  func isIndexed(_ key: ForeignKeyShape) throws -> Bool {
    let table = SQLValue.text(key.table)
    let primaryKey = try rows(
      "SELECT name, type FROM pragma_table_info(?) WHERE pk > 0",
      [table]
    )
    if primaryKey.count == 1, key.columns == [asciiLowercased(primaryKey[0][0].textValue ?? "")],
      asciiLowercased(primaryKey[0][1].textValue ?? "") == "integer"
    {
      return true
    }
    for index in try rows("SELECT name FROM pragma_index_list(?) WHERE partial = 0", [table]) {
      let columns = try rows(
        "SELECT name FROM pragma_index_info(?) ORDER BY seqno",
        [index[0]]
      ).map { asciiLowercased($0[0].textValue ?? "") }
      if columns.starts(with: key.columns) { return true }
    }
    return false
  }
}

/// The renames one `ALTER TABLE` statement made, as they rewrite the foreign keys SQLite keeps
/// pointing at the same columns: a table renamed (its own foreign keys, and its children's),
/// columns renamed (the table keeps its number of columns).
struct ForeignKeyRenames {
  /// Old lower-cased table name → new.
  private var tables: [String: String] = [:]
  /// Lower-cased table name (before) → old lower-cased column name → new.
  private var columns: [String: [String: String]] = [:]

  /// The renames of a statement that did `actions` and took the schema from `before` to
  /// `after`; nil when it did anything but alter tables, or added a column to one (`ADD
  /// COLUMN` can add a foreign key).
  init?(_ actions: [AuthorizedAction], _ before: SchemaShape, _ after: SchemaShape) {
    guard actions.allSatisfy({ $0.kind == .alterTable }) else { return nil }
    for action in actions {
      let key = asciiLowercased(action.name)
      guard let old = before.table(key) else { continue }
      if let new = after.table(key) {
        guard new.columns.count <= old.columns.count else { return nil }
        guard new.columns.count == old.columns.count else { continue }
        for (was, now) in zip(old.columns, new.columns) where was.name != now.name {
          columns[key, default: [:]][asciiLowercased(was.name)] = asciiLowercased(now.name)
        }
      } else if let renamed = after.tables.keys.first(where: { before.tables[$0] == nil }) {
        tables[key] = renamed
      }
    }
  }

  /// `key` as the renames rewrote it.
  func rewrite(_ key: ForeignKeyShape) -> ForeignKeyShape {
    let renamedColumns = columns[key.table] ?? [:]
    return ForeignKeyShape(
      table: tables[key.table] ?? key.table,
      columns: key.columns.map { renamedColumns[$0] ?? $0 },
      parent: tables[key.parent] ?? key.parent
    )
  }
}
