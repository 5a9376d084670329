import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Random pairs of schemas: a random schema, and the same after random changes. The generated
/// migration, applied by strata's runner to a database of the first holding rows, must give
/// the second exactly, keep every row of every table the two share (their unchanged columns'
/// values, AUTOINCREMENT counters), and its down part must give the first back.
@Suite struct SchemaDiffPropertyTests {
  /// 40 pairs in `swift test`; `STRATA_DIFF_PROPERTY_CASES=5000` for a long run.
  static let cases =
    ProcessInfo.processInfo.environment["STRATA_DIFF_PROPERTY_CASES"]
    .flatMap { Int($0) } ?? 40

  @Test func migrationsBetweenRandomSchemasKeepTheRows() throws {
    for seed in 1...UInt64(Self.cases) {
      var random = SplitMix64(state: seed)
      let before = RandomSchema(using: &random)
      var after = before
      let renames = after.change(&random)
      try check(before, after, renames, seed: seed)
    }
  }

  private func check(
    _ before: RandomSchema,
    _ after: RandomSchema,
    _ renames: [SchemaRename],
    seed: UInt64
  ) throws {
    let context = "seed \(seed)\n-- before\n\(before.sql)-- after\n\(after.sql)renames \(renames)"
    let migration: GeneratedMigration
    do {
      migration = try DiffFixtures.migration(
        from: before.sql,
        to: after.sql,
        options: SchemaDiffOptions(renames: renames, allowsDestructive: true)
      )
    } catch {
      Issue.record("\(error)\n\(context)")
      return
    }
    let database = try DiffFixtures.database(before.sql, rows: Self.rows(before))
    let rowsBefore = try Self.snapshot(database, before)
    do {
      try DiffFixtures.apply(migration, to: database)
    } catch {
      Issue.record("the migration failed: \(error)\n\(migration.up)\n\(context)")
      return
    }
    #expect(try DiffFixtures.drift(database, from: after.sql) == [], "\(migration.up)\n\(context)")
    for table in after.tables {
      guard let origin = table.origin, let old = before.tables.first(where: { $0.name == origin })
      else { continue }
      let kept = table.columns.filter { column in
        let oldName =
          renames.first { $0.table == origin && $0.newName == column.name }?.column ?? column.name
        guard let was = old.columns.first(where: { $0.name == oldName }) else { return false }
        return was.type == column.type && was.notNull == column.notNull && column.source == nil
      }
      let names = ["id"] + kept.map(\.name)
      let oldNames =
        ["id"]
        + kept.map { column in
          renames.first { $0.table == origin && $0.newName == column.name }?.column ?? column.name
        }
      let now = try DiffFixtures.rows(
        database,
        "SELECT \(names.joined(separator: ", ")) FROM \(table.name) ORDER BY id"
      )
      let was = rowsBefore[origin]?.map { row in oldNames.map { row[$0] ?? "?" } }
      #expect(now == was, "rows of \(table.name)\n\(migration.up)\n\(context)")
      if table.key == .autoincrement, old.key == .autoincrement {
        #expect(
          try database.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(table.name)])
            == .integer(50),
          "the AUTOINCREMENT counter of \(table.name)\n\(migration.up)\n\(context)"
        )
      }
    }
    guard migration.down != nil else { return }
    try DiffFixtures.rollBack(migration, in: database)
    #expect(try DiffFixtures.drift(database, from: before.sql) == [], "down:\n\(context)")
  }

  /// Three rows a table, parents first, every foreign key pointing at a parent row, the third
  /// row NULL where a column allows it; AUTOINCREMENT counters raised above the keys.
  static func rows(_ schema: RandomSchema) -> String {
    var statements: [String] = []
    for table in schema.tables {
      for row in 1...3 {
        let key = table.key == .text ? "'k\(row)'" : "\(row)"
        var names = ["id"]
        var values = [key]
        for (index, column) in table.columns.enumerated() where column.source == nil {
          names.append(column.name)
          if column.parent != nil {
            values.append("\(row)")
          } else if row == 3, !column.notNull {
            values.append("NULL")
          } else {
            values.append(value(column.type, row: row, column: index))
          }
        }
        statements.append(
          "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES "
            + "(\(values.joined(separator: ", ")))"
        )
      }
      if table.key == .autoincrement {
        statements.append("UPDATE sqlite_sequence SET seq = 50 WHERE name = '\(table.name)'")
      }
    }
    return statements.map { $0 + ";\n" }.joined()
  }

  static func value(_ type: String, row: Int, column: Int) -> String {
    switch type {
    case "TEXT": "'v\(row)x\(column)'"
    case "REAL": "\(row).25"
    case "BLOB": "x'0\(row)'"
    default: "\(row * 10 + column)"
    }
  }

  /// Each table's rows by column name, ordered by key.
  static func snapshot(
    _ database: Connection,
    _ schema: RandomSchema
  ) throws -> [String: [[String: String]]] {
    var result: [String: [[String: String]]] = [:]
    for table in schema.tables {
      let names = ["id"] + table.columns.map(\.name)
      let rows = try DiffFixtures.rows(
        database,
        "SELECT \(names.joined(separator: ", ")) FROM \(table.name) ORDER BY id"
      )
      result[table.name] = rows.map { Dictionary(uniqueKeysWithValues: zip(names, $0)) }
    }
    return result
  }
}
