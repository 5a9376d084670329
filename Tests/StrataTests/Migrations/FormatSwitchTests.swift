import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A folder rewritten in another format keeps its history: version 1 recorded from
/// `1_a.up.sql` is `1_a/` in diesel and `V1__a.sql` in Flyway, never an unknown version beside a
/// pending one (which would run the migration a second time).
@Suite struct FormatSwitchTests {
  static let create = "CREATE TABLE t (x);\nINSERT INTO t VALUES ('row');\n"

  @Test(arguments: [
    ["1_a/up.sql": create, "1_a/down.sql": "DROP TABLE t;\n"],
    ["V1__a.sql": create, "U1__a.sql": "DROP TABLE t;\n"],
  ])
  func aNumericHistoryIsReadInTheNewFormat(files: [String: String]) throws {
    let fixture = try MigrationFixture([
      "1_a.up.sql": Self.create, "1_a.down.sql": "DROP TABLE t;\n",
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    try fixture.remove("1_a.up.sql")
    try fixture.remove("1_a.down.sql")
    for (name, text) in files { try fixture.write(name, text) }
    let migrator = try fixture.migrator()
    #expect(migrator.migrations.format != .golangMigrate)
    let plan = try migrator.plan(db)
    #expect(plan.migrations.map(\.state) == [.applied])
    #expect(migrator.problems(in: plan).isEmpty)
    #expect(try migrator.migrate(db, options: MigrateOptions(allowUnknown: true)).steps.isEmpty)
    #expect(try db.scalar("SELECT count(*) FROM t") == .integer(1))
    // Rolling back in the new format removes the row recorded by the old one.
    #expect(try migrator.rollback(db).steps.count == 1)
    #expect(try History.read(db).isEmpty)
  }
}
