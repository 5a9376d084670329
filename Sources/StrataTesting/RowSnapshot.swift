import Strata

/// The rows of every table of a release's database before it is migrated, by key: what
/// `UpgradeCheck` looks for again afterwards.
struct RowSnapshot {
  /// One table's rows: its key columns (`rowid` without a primary key) and each row's values.
  struct Table {
    let name: String
    let key: [String]
    let columns: [String]
    let rows: [[SQLValue]]
  }

  let tables: [Table]

  var rowCount: Int { tables.reduce(0) { $0 + $1.rows.count } }

  init(_ connection: Connection) throws {
    tables = try SchemaInspector(connection).inspect().tables
      .filter { $0.kind == .table }
      .map { table in
        let key = table.primaryKey.isEmpty ? ["rowid"] : table.primaryKey
        let columns = table.columns.map(\.name)
        let list = (key + columns).map(Self.quote).joined(separator: ", ")
        let rows = try connection.rows("SELECT \(list) FROM \(Self.quote(table.name))")
        return Table(name: table.name, key: key, columns: key + columns, rows: rows)
      }
  }

  /// Each old row missing from `connection`, and each value that changed in a column the
  /// table still has (`table.column` in `ignoring` left out); tables gone are not compared.
  func problems(in connection: Connection, ignoring: Set<String>) throws -> [RowProblem] {
    let now = Dictionary(
      try SchemaInspector(connection).inspect().tables.map { ($0.name, $0) },
      uniquingKeysWith: { a, _ in a }
    )
    var problems: [RowProblem] = []
    for table in tables {
      guard let current = now[table.name] else { continue }
      let kept = Set(current.columns.map(\.name))
      // Old columns the table still has, each with its position in the old row.
      let compared = table.columns.enumerated().dropFirst(table.key.count).filter {
        kept.contains($0.element) && !ignoring.contains("\(table.name).\($0.element)")
      }
      let list = compared.map { Self.quote($0.element) }.joined(separator: ", ")
      let match = table.key.map { "\(Self.quote($0)) IS ?" }.joined(separator: " AND ")
      let lookup = try connection.prepare(
        "SELECT 1\(list.isEmpty ? "" : ", \(list)") FROM \(Self.quote(table.name)) WHERE \(match)"
      )
      for row in table.rows {
        let keyValues = Array(row.prefix(table.key.count))
        let shownKey = zip(table.key, keyValues).map { "\($0) = \($1)" }
          .joined(separator: ", ")
        lookup.reset()
        try lookup.bind(keyValues)
        guard try lookup.step() else {
          problems.append(RowProblem(table: table.name, key: shownKey, column: nil, was: nil))
          continue
        }
        for (offset, (position, column)) in compared.enumerated() {
          let value = lookup.value(at: offset + 1)
          if value != row[position] {
            problems.append(
              RowProblem(
                table: table.name,
                key: shownKey,
                column: column,
                was: (row[position], value)
              )
            )
          }
        }
      }
    }
    return problems
  }

  static func quote(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// A row of a release that did not survive its upgrade.
public struct RowProblem: Hashable, Sendable, CustomStringConvertible {
  /// The table.
  public let table: String
  /// The row's key as a message shows it: `id = 3`, `rowid = 5`.
  public let key: String
  /// The column whose value changed; nil when the whole row is gone.
  public let column: String?
  /// The old value and the value after the upgrade; nil when the whole row is gone.
  public let was: (old: SQLValue, new: SQLValue)?

  /// "table student, row stuID = S1: column stuAge was 20, is NULL after the upgrade".
  public var description: String {
    let row = "table \(table), row \(key)"
    guard let column, let was else { return "\(row): the row is gone after the upgrade" }
    return "\(row): column \(column) was \(was.old), is \(was.new) after the upgrade"
  }

  /// Equal when they describe the same problem (`SQLValue` pairs are not `Hashable` as tuples).
  public static func == (lhs: RowProblem, rhs: RowProblem) -> Bool {
    lhs.description == rhs.description
  }

  /// Hashes the description, as `==` compares it.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(description)
  }
}
