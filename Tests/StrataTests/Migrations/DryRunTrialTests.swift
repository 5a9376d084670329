import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `MigrateOptions.dryRun` tries the pending migrations on the connection's database in a
/// transaction it rolls back: the failure the rows cause is thrown with the trial in its state,
/// and a statement that would reach another file is not tried.
@Suite struct DryRunTrialTests {
  static let files = [
    "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
    "0002_unique.sql": "-- migrate:up\nCREATE UNIQUE INDEX a_x ON a (x);\n",
  ]

  @Test func theRowsFailAPendingMigrationAndTheDatabaseIsUnchanged() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try fixture.open()
    try fixture.migrator().migrate(db, options: MigrateOptions(target: 1))
    try db.execute("INSERT INTO a VALUES (1), (1)")
    let before = try DatabaseFingerprint.of(db)
    let error = #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(db, options: MigrateOptions(dryRun: true, triesRows: true))
    }
    guard case .failed(let version, let file, let line, _)? = error?.underlyingFailure else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(version == 2 && file == "migrations/0002_unique.sql" && line == 2)
    let trial = error?.runState?.dryRun
    #expect(trial?.ranOnTheDatabase == true && trial?.began == true)
    #expect(trial?.tried == [] && trial?.notTried == [] && trial?.onEmptyDatabase == false)
    #expect(try DatabaseFingerprint.of(db) == before)
    #expect(db.isAutocommit)
  }

  @Test func aStatementThatWouldReachAnotherFileIsNotTried() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
      "0002_out.sql": "-- migrate:up\nATTACH 'copy.db' AS copy;\n",
      "0003_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n",
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db, options: MigrateOptions(target: 1))
    let report = try fixture.migrator().migrate(
      db,
      options: MigrateOptions(dryRun: true, triesRows: true)
    )
    let trial = try #require(report.trial)
    #expect(trial.tried.map(\.file) == ["migrations/0003_b.sql"])
    #expect(trial.notTried.map(\.file) == ["migrations/0002_out.sql"])
    #expect(trial.notTried.first?.line == 2)
    #expect(!FileManager.default.fileExists(atPath: fixture.dir.path("copy.db").path))
    #expect(try MigrationFixture.tables(db) == ["a"])
  }
}
