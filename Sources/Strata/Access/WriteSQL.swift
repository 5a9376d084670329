import Foundation

/// Builds the SQL of writes from Swift values, checking the type's properties against the
/// table first: every property has a column, an insert fills every NOT NULL column without a
/// default, an update or upsert has the key's columns.
enum WriteSQL {
  /// The plan of an insert, upsert or update of a type named `type` whose value encoded
  /// `properties` (in that order, which is the parameters' order).
  ///
  /// - Throws: `DatabaseAccessError.propertyWithoutColumn`, `.columnWithoutProperty`,
  ///   `.notAKey`.
  static func plan(
    _ kind: WriteCache.Kind,
    _ type: String,
    _ table: WriteTable,
    key: [String]?,
    _ properties: [String]
  ) throws -> WriteCache.Plan {
    let columns = try properties.map { property in
      guard let column = table.column(property) else {
        throw DatabaseAccessError.propertyWithoutColumn(
          type: type,
          table: table.name,
          property: property,
          columns: table.columns
        )
      }
      return column
    }
    if kind == .insert || kind == .upsert {
      for column in table.required where !columns.contains(column) {
        throw DatabaseAccessError.columnWithoutProperty(
          type: type,
          table: table.name,
          column: column,
          isKey: false
        )
      }
    }
    var keyIndices: [Int] = []
    if kind == .upsert || kind == .update {
      let keyColumns = try Self.keyColumns(key, of: table)
      for column in keyColumns {
        guard let index = columns.firstIndex(of: column) else {
          throw DatabaseAccessError.columnWithoutProperty(
            type: type,
            table: table.name,
            column: column,
            isKey: true
          )
        }
        keyIndices.append(index)
      }
    }
    let sql =
      switch kind {
      case .update: update(table, columns, keyIndices)
      case .upsert: upsert(table, columns, keyIndices)
      default: insert(table, columns)
      }
    return WriteCache.Plan(
      properties: properties,
      columns: columns,
      sql: sql,
      keyIndices: keyIndices
    )
  }

  /// The columns of `key` (nil: the primary key), as the schema spells them.
  ///
  /// - Throws: `DatabaseAccessError.notAKey` for columns that are not a key of the table.
  static func keyColumns(_ key: [String]?, of table: WriteTable) throws -> [String] {
    guard let key else {
      guard !table.primaryKey.isEmpty else {
        throw DatabaseAccessError.notAKey(table: table.name, given: "none", keys: table.keys)
      }
      return table.primaryKey
    }
    guard let columns = table.key(key) else {
      throw DatabaseAccessError.notAKey(
        table: table.name,
        given: key.joined(separator: ", "),
        keys: table.keys
      )
    }
    return columns
  }

  /// The key's columns and values from a key given in order (the primary key's) or by name.
  ///
  /// - Throws: `DatabaseAccessError.notAKey` for values that are not a key of the table.
  static func key(_ key: SQLArguments, of table: WriteTable) throws -> ([String], [SQLValue]) {
    if case .named(let named) = key.storage {
      let names = named.keys.sorted()
      let columns = try keyColumns(names, of: table)
      // swift-format-ignore: NeverForceUnwrap
      return (columns, names.map { named[$0]! })
    }
    var values: [SQLValue] = []
    key.forEachPositional { value, _ in values.append(value) }
    guard values.count == table.primaryKey.count, !values.isEmpty else {
      throw DatabaseAccessError.notAKey(
        table: table.name,
        given: "\(values.count) value\(values.count == 1 ? "" : "s") in order",
        keys: table.keys
      )
    }
    return (table.primaryKey, values)
  }

  /// The plan of a fetch or delete by `key`'s columns.
  static func keyPlan(
    _ kind: WriteCache.Kind,
    _ table: WriteTable,
    _ key: [String]
  ) -> WriteCache.Plan {
    let condition = key.map { quoteIdentifier($0) + " = ?" }.joined(separator: " AND ")
    let name = quoteIdentifier(table.name)
    let sql: String
    if kind == .delete {
      sql = "DELETE FROM \(name) WHERE \(condition)"
    } else {
      // A table without a primary key is keyed by its rowid, which `*` leaves out.
      let rowID = table.primaryKey == ["rowid"] ? "rowid, " : ""
      sql = "SELECT \(rowID)* FROM \(name) WHERE \(condition)"
    }
    return WriteCache.Plan(properties: [], columns: key, sql: sql, keyIndices: [])
  }

  /// A value as SQL writes it, for a message: `'S1'`, `5`, `NULL`, `X'00FF'`.
  static func literal(_ value: SQLValue) -> String {
    switch value {
    case .null: "NULL"
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .text(let text): quoteLiteral(text.count > 60 ? String(text.prefix(60)) + "…" : text)
    case .blob(let bytes):
      "X'" + bytes.prefix(16).map { String(format: "%02X", $0) }.joined()
        + (bytes.count > 16 ? "…" : "") + "'"
    }
  }

  private static func insert(_ table: WriteTable, _ columns: [String]) -> String {
    let name = quoteIdentifier(table.name)
    guard !columns.isEmpty else { return "INSERT INTO \(name) DEFAULT VALUES" }
    return "INSERT INTO \(name) (\(columns.map(quoteIdentifier).joined(separator: ", "))) "
      + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
  }

  /// `INSERT … ON CONFLICT (key) DO UPDATE SET` every other column from `excluded`.
  private static func upsert(_ table: WriteTable, _ columns: [String], _ key: [Int]) -> String {
    let conflict = key.map { quoteIdentifier(columns[$0]) }.joined(separator: ", ")
    let others = columns.indices.filter { !key.contains($0) }.map { quoteIdentifier(columns[$0]) }
    let action =
      others.isEmpty
      ? "NOTHING" : "UPDATE SET " + others.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
    return insert(table, columns) + " ON CONFLICT (\(conflict)) DO \(action)"
  }

  /// `UPDATE … SET` every column but the key's `WHERE` the key's columns hold the value's,
  /// each parameter numbered by the property's place in the encoding (`?1`, `?2` …).
  private static func update(_ table: WriteTable, _ columns: [String], _ key: [Int]) -> String {
    var set = columns.indices.filter { !key.contains($0) }.map {
      "\(quoteIdentifier(columns[$0])) = ?\($0 + 1)"
    }
    // Only the key: set it to itself, so the statement still says whether the row exists.
    if set.isEmpty { set = key.map { "\(quoteIdentifier(columns[$0])) = ?\($0 + 1)" } }
    let condition = key.map { "\(quoteIdentifier(columns[$0])) = ?\($0 + 1)" }
      .joined(separator: " AND ")
    return "UPDATE \(quoteIdentifier(table.name)) SET \(set.joined(separator: ", ")) "
      + "WHERE \(condition)"
  }
}
