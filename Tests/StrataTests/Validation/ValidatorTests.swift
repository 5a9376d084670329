import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct ValidatorTests {
  @Test func freshlyMigratedDatabaseHasNoProblems() throws {
    let fixture = try MigrationFixture(MigratorTests.three)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let set = try MigrationSet(directory: fixture.dir.path("migrations"))
    #expect(try Validator(set).problems(in: db) == [])
  }

  @Test func changedFileAndDriftAreBothReported() throws {
    let fixture = try MigrationFixture(MigratorTests.three)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    try db.execute("ALTER TABLE a ADD COLUMN sneaky TEXT")
    try fixture.write("0003_c.sql", "-- migrate:up\nCREATE TABLE c (x, y);\n")
    let set = try MigrationSet(directory: fixture.dir.path("migrations"), displayPath: "migrations")
    let problems = try Validator(set).problems(in: db)
    #expect(problems.count >= 2)
    #expect(problems.contains { $0.message.contains("0003_c.sql (version 3) changed") })
    #expect(
      problems.contains {
        $0.message.hasPrefix("schema drift in ") && $0.message.contains("a.sneaky")
      }
    )
  }
}
