/// Sample rows for the check of a generated migration: two rows in every ordinary table, parents
/// before children, each child row referencing a parent row. A row's values are typed by its
/// columns' types (`1`, `1.5`, `'sample 1'`, `x'01'`); when the table's constraints refuse
/// them, the columns with a DEFAULT take it instead; a table that refuses both has no rows.
enum SampleRows {
  /// Inserts the rows into `database`, which holds `schema`, with foreign keys enforced (so the
  /// rows are consistent); returns the lower-cased names of the tables that got rows.
  static func insert(into database: Connection, schema: Schema) throws -> Set<String> {
    let tables = parentsFirst(schema.tables.filter { $0.kind == .table && !isInternal($0.name) })
    try database.execute("PRAGMA foreign_keys = ON")
    defer { try? database.execute("PRAGMA foreign_keys = OFF") }
    var filled: Set<String> = []
    for table in tables {
      for row in 1...2 {
        for useDefaults in [false, true] {
          let values = try rowValues(table, row: row, useDefaults: useDefaults, database)
          let columns = values.map { quoteIdentifier($0.column) }.joined(separator: ", ")
          let sql =
            values.isEmpty
            ? "INSERT INTO \(quoteIdentifier(table.name)) DEFAULT VALUES"
            : "INSERT INTO \(quoteIdentifier(table.name)) (\(columns)) VALUES ("
              + values.map { _ in "?" }.joined(separator: ", ") + ")"
          if (try? database.run(sql, values.map(\.value))) != nil {
            filled.insert(asciiLowercased(table.name))
            break
          }
        }
      }
    }
    // A counter above the largest key, as after deleted rows: a rebuild must keep it.
    if try database.scalar(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    ) != nil {
      try database.execute("UPDATE sqlite_sequence SET seq = seq + 100")
    }
    return filled
  }

  /// The columns to give values and the values: every column that is not generated, or with
  /// `useDefaults` only those without a DEFAULT. A foreign key column takes the parent's value.
  private static func rowValues(
    _ table: Schema.Table,
    row: Int,
    useDefaults: Bool,
    _ database: Connection
  ) throws -> [(column: String, value: SQLValue)] {
    var values: [(column: String, value: SQLValue)] = []
    var fromParents: [String: SQLValue] = [:]
    for key in table.foreignKeys where !sameName(key.parentTable, table.name) {
      let columns = key.parentColumns.map(quoteIdentifier).joined(separator: ", ")
      let parent =
        try? database.rows(
          "SELECT \(columns) FROM \(quoteIdentifier(key.parentTable)) LIMIT 1 OFFSET \(row - 1)"
        ).first
      for (index, column) in key.columns.enumerated() {
        fromParents[asciiLowercased(column)] = parent.flatMap { index < $0.count ? $0[index] : nil }
      }
    }
    for column in table.columns where column.generated == nil && !column.hidden {
      if useDefaults, column.defaultValue != nil { continue }
      if let value = fromParents[asciiLowercased(column.name)] {
        values.append((column.name, value))
        continue
      }
      values.append((column.name, typedValue(column, strict: table.strict ?? false, row: row)))
    }
    return values
  }

  /// A value of the column's type, different in each row.
  private static func typedValue(_ column: Schema.Column, strict: Bool, row: Int) -> SQLValue {
    if column.isRowIDAlias { return .integer(Int64(row)) }
    if column.declaredType.trimmingSQLSpace().isEmpty { return .integer(Int64(row)) }
    switch Schema.Affinity(declaredType: column.declaredType, strict: strict) {
    case .integer, .numeric: return .integer(Int64(row))
    case .real: return .real(Double(row) + 0.5)
    case .text: return .text("sample \(row)")
    case .blob:
      return column.declaredType.uppercased().contains("BLOB")
        ? .blob([UInt8(row)]) : .integer(Int64(row))
    }
  }

  /// The tables ordered so that each comes after the tables its foreign keys reference (a
  /// cycle is broken where it closes).
  private static func parentsFirst(_ tables: [Schema.Table]) -> [Schema.Table] {
    var ordered: [Schema.Table] = []
    var placed: Set<String> = []
    var visiting: Set<String> = []
    let byName = SchemaComparison.keyed(tables, \.name)
    func visit(_ table: Schema.Table) {
      let key = asciiLowercased(table.name)
      guard !placed.contains(key), !visiting.contains(key) else { return }
      visiting.insert(key)
      for foreignKey in table.foreignKeys {
        if let parent = byName[asciiLowercased(foreignKey.parentTable)] { visit(parent) }
      }
      placed.insert(key)
      ordered.append(table)
    }
    tables.forEach(visit)
    return ordered
  }
}
