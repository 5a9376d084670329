import Foundation

// Which tables a run checks with `PRAGMA foreign_key_check`, and what the check finds.
extension Seeder {
  /// The seeded tables with foreign keys, plus (for a mode that `mayOrphanChildren`, by
  /// deleting or changing parent rows) every table that references them, directly or through a chain of
  /// cascades: a cascade into a child can orphan a grandchild.
  func tablesToCheck(_ tables: [Table], mode: SeedMode) throws -> [String] {
    var names: [String] = []
    @discardableResult
    func add(_ name: String) -> Bool {
      guard !names.contains(where: { Self.folded($0) == Self.folded(name) }) else { return false }
      names.append(name)
      return true
    }
    var parents: [String] = []
    for table in tables {
      if !table.foreignKeys.isEmpty { add(table.name) }
      if mode.rules.mayOrphanChildren { parents.append(table.name) }
    }
    var visited = Set(parents.map(Self.folded))
    while let parent = parents.popLast() {
      for child in try Self.referencingTables(of: parent, connection) {
        add(child)
        if visited.insert(Self.folded(child)).inserted { parents.append(child) }
      }
    }
    return names
  }

  /// One row `PRAGMA foreign_key_check` reports.
  struct Violation: Hashable {
    let table: String
    let rowid: Int64?
    let parent: String
    let foreignKey: Int
  }

  /// The violations in `tables`, with how many times each occurs.
  func foreignKeyViolations(_ tables: [String]) throws -> [Violation: Int] {
    var found: [Violation: Int] = [:]
    for table in tables {
      for row in try connection.rows("PRAGMA main.foreign_key_check(\(quoteIdentifier(table)))") {
        let violation = Violation(
          table: row[0].textValue ?? table,
          rowid: row[1].integerValue,
          parent: row[2].textValue ?? "",
          foreignKey: Int(row[3].integerValue ?? 0)
        )
        found[violation, default: 0] += 1
      }
    }
    return found
  }
}
