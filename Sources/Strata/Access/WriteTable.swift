import Foundation

/// One table as writes from Swift values need it, read from SQLite's catalogue once (per
/// schema version): the columns a value may fill, the ones an insert must fill, the keys.
struct WriteTable {
  /// The table's name as the schema spells it.
  let name: String
  /// The columns a property may fill, in table order: every column but generated ones, and
  /// `rowid` in a rowid table that has no column of that name.
  let columns: [String]
  /// The columns an insert must be given: NOT NULL, without a default, not the rowid.
  let required: [String]
  /// The primary key's columns in key order; `["rowid"]` for a rowid table without one.
  let primaryKey: [String]
  /// Every key a row can be found by: the primary key, then each UNIQUE index on columns
  /// (not partial, no expression).
  let keys: [[String]]
  let hasRowID: Bool

  /// The table named `table` (ASCII case aside) in the main database; nil when there is
  /// none (or it is a view).
  ///
  /// - Throws: `SQLiteError` when SQLite fails to read its catalogue.
  static func read(_ table: String, on connection: Connection) throws -> WriteTable? {
    let found = try connection.rows(
      "SELECT name FROM main.sqlite_master WHERE name = ? COLLATE NOCASE AND type = 'table'",
      [.text(table)]
    )
    guard let name = found.first?.first?.textValue else { return nil }
    let pragmas = try SchemaPragmas(connection)
    let hasRowID: Bool
    if connection.sqliteVersionNumber >= SchemaPragmas.tableListVersion {
      hasRowID = !(try pragmas.listedTables()[name]?.withoutRowID ?? false)
    } else {
      // Before 3.37: a WITHOUT ROWID table has no rowid to select.
      hasRowID =
        (try? connection.prepare("SELECT rowid FROM main.\(quoteIdentifier(name)) LIMIT 0"))
        != nil
    }
    let all = try pragmas.columns(of: name)
    let indexes = try pragmas.indexes(of: name)
    let alias = SchemaPragmas.rowIDAlias(columns: all, indexes: indexes, hasRowID: hasRowID)
    var columns = all.filter { $0.hidden == 0 }.map(\.name)
    let namesRowID = columns.contains { sameName($0, "rowid") }
    if hasRowID, !namesRowID { columns.append("rowid") }
    let required = all.indices.filter { index in
      let column = all[index]
      return column.hidden == 0 && column.notNull && column.defaultValue == nil && index != alias
    }.map { all[$0].name }
    var primaryKey = all.filter { $0.primaryKeyPosition > 0 }
      .sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
    if primaryKey.isEmpty, hasRowID, !namesRowID { primaryKey = ["rowid"] }
    var keys = primaryKey.isEmpty ? [] : [primaryKey]
    for index in indexes where index.unique && !index.partial && index.origin != "pk" {
      let keyColumns = try pragmas.keyColumns(of: index.name)
      let names = keyColumns.compactMap { $0.columnID >= 0 ? $0.name : nil }
      if names.count == keyColumns.count, !names.isEmpty { keys.append(names) }
    }
    return WriteTable(
      name: name,
      columns: columns,
      required: required,
      primaryKey: primaryKey,
      keys: keys,
      hasRowID: hasRowID
    )
  }

  /// The column a property of this name fills (ASCII case aside, as SQLite matches names).
  func column(_ name: String) -> String? {
    Row.index(of: name, in: columns).map { columns[$0] }
  }

  /// The key whose columns are `names` (in any order, ASCII case aside), in the order given,
  /// spelled as the schema does; nil when no key of the table has exactly those columns.
  func key(_ names: [String]) -> [String]? {
    let resolved = names.compactMap(column)
    guard resolved.count == names.count, Set(resolved).count == resolved.count else {
      return nil
    }
    return keys.contains { Set($0) == Set(resolved) } ? resolved : nil
  }
}

/// What a `Database` keeps for writes from Swift values: the tables read, the statements'
/// SQL built for each type and table, and the encoder every write reuses. All of it is
/// dropped when the schema version changes (a migration, an `ALTER TABLE` in a closure).
struct WriteCache {
  /// The kinds of statement built from a type's properties or a table's key.
  enum Kind: UInt8 {
    case insert, upsert, update, fetch, delete
  }

  /// A plan's identity: what it does, on which table, for which type (nil for a key's SQL),
  /// by which key (nil for the primary key).
  struct PlanKey: Hashable {
    let kind: Kind
    let table: String
    let type: ObjectIdentifier?
    let key: [String]?
  }

  /// The SQL of one kind of write for one type and table, and the properties (coding keys,
  /// in encoding order) it binds: a value that encodes other keys needs another plan.
  final class Plan {
    let properties: [String]
    /// The column of each property, in the same order.
    let columns: [String]
    let sql: String
    /// For an update: the properties (by index) that hold the key.
    let keyIndices: [Int]

    init(properties: [String], columns: [String], sql: String, keyIndices: [Int]) {
      self.properties = properties
      self.columns = columns
      self.sql = sql
      self.keyIndices = keyIndices
    }
  }

  /// The schema version the tables and plans were read at; nil before the first write.
  var schemaVersion: Int64?
  var tables: [String: WriteTable] = [:]
  var plans: [PlanKey: Plan] = [:]
  /// The plan used last, checked before the dictionary: a loop of one write skips hashing.
  var lastKey: PlanKey?
  var lastPlan: Plan?
  let encoder = RowEncoder()

  /// Forgets every table and plan (the schema changed).
  mutating func clear(schemaVersion: Int64) {
    self.schemaVersion = schemaVersion
    tables = [:]
    plans = [:]
    (lastKey, lastPlan) = (nil, nil)
  }

  /// The plan for `key` that binds exactly `properties`; nil when none is kept.
  @inline(__always)
  mutating func plan(_ key: PlanKey, properties: [String]) -> Plan? {
    if let lastPlan, lastKey == key, lastPlan.properties == properties { return lastPlan }
    guard let plan = plans[key], plan.properties == properties else { return nil }
    (lastKey, lastPlan) = (key, plan)
    return plan
  }

  /// Keeps `plan` for `key` (replacing one that bound other properties).
  mutating func keep(_ plan: Plan, for key: PlanKey) {
    plans[key] = plan
    (lastKey, lastPlan) = (key, plan)
  }
}
