import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `MigrationFleet`: many databases, one migration set, each database on its own.
struct MigrationFleetTests {
  let dir: TemporaryDirectory
  let migrations: MigrationSet

  init() throws {
    dir = try TemporaryDirectory()
    try dir.write(
      "m/0001_a.sql",
      "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"
    )
    try dir.write(
      "m/0002_b.sql",
      "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n"
    )
    migrations = try MigrationSet(directory: dir.path("m"), displayPath: "m")
  }

  private func version(_ url: URL) throws -> MigrationVersion {
    try Migrator(migrations).plan(Connection.open(at: url, access: .read)).currentVersion
  }

  /// Every database is migrated, one that is not SQLite fails alone with the error a single
  /// open throws, and progress is called once per database.
  @Test func failureStaysWithItsDatabase() throws {
    let good = (1...20).map { dir.path("db\($0).sqlite3") }
    let bad = try dir.write("notes.sqlite3", "not a database, just text\n")
    var fleet = MigrationFleet(migrations, databases: good + [bad])
    fleet.jobs = 4
    let seen = ProgressLog()
    let summary = fleet.migrate { seen.record($0) }
    // The launch call's progress type: one `.databaseFinished` per database, counting up.
    #expect(seen.all.count == 21)
    #expect(seen.all.allSatisfy { $0.step == .databaseFinished })
    let reports = seen.all.compactMap { event -> FleetProgress? in
      if case .databaseFinished(let progress) = event { return progress }
      return nil
    }
    #expect(reports.map(\.finished) == Array(1...21))
    #expect(reports.allSatisfy { $0.total == 21 })
    #expect(reports.last?.failed == 1)
    #expect(reports.filter { $0.result.error != nil }.map(\.database) == [bad])
    #expect(Set(reports.map(\.database)) == Set(good + [bad]))
    #expect(summary.migratedCount == 20)
    #expect(summary.failedCount == 1)
    #expect(summary.failures.map(\.database) == [bad])
    #expect(summary.failures.first?.error as? DatabaseOpenError == .notADatabase(path: bad.path))
    for url in good { #expect(try version(url) == 2) }
    #expect(try String(contentsOf: bad, encoding: .utf8) == "not a database, just text\n")
    // A second run finds them all up to date.
    let again = fleet.migrate()
    #expect(again.upToDateCount == 20)
    #expect(again.migratedCount == 0)
  }

  /// With `failFast`, databases after the first failure are not started.
  @Test func failFastSkipsTheRest() throws {
    let bad = try dir.write("bad.sqlite3", "text\n")
    let good = (1...5).map { dir.path("db\($0).sqlite3") }
    var fleet = MigrationFleet(migrations, databases: [bad] + good)
    fleet.jobs = 1
    fleet.failFast = true
    let summary = fleet.migrate()
    #expect(summary.failedCount == 1)
    #expect(summary.skippedCount == 5)
    for url in good { #expect(!FileManager.default.fileExists(atPath: url.path)) }
  }

  /// Rollback to a version across the fleet, and plans read without changing anything.
  @Test func rollbackAndPlans() throws {
    let urls = (1...3).map { dir.path("db\($0).sqlite3") }
    let fleet = MigrationFleet(migrations, databases: urls)
    _ = fleet.migrate()
    let back = fleet.rollback(to: 1)
    #expect(back.migratedCount == 3)
    for url in urls { #expect(try version(url) == 1) }
    let plans = fleet.plans()
    for result in plans.results {
      guard case .inspected(let plan) = result.outcome else {
        Issue.record("expected a plan")
        continue
      }
      #expect(plan.currentVersion == 1)
    }
  }
}

extension MigrationFleetTests {
  /// `validate()` finds the drifted database and passes the other.
  @Test func validateNamesTheDriftedDatabase() throws {
    let urls = (1...2).map { dir.path("db\($0).sqlite3") }
    let fleet = MigrationFleet(migrations, databases: urls)
    _ = fleet.migrate()
    try Connection(path: urls[1].path).execute("CREATE TABLE extra (x)")
    let summary = fleet.validate()
    #expect(summary.validCount == 1)
    #expect(summary.invalidCount == 1)
    guard case .validated(let result) = summary.results[1].outcome else {
      Issue.record("expected a validation")
      return
    }
    #expect(result.problems.contains { $0.message.contains("extra") })
  }
}
