import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Collects what a setup reports, from whichever thread reports it.
final class ProgressLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [SetupProgress] = []

  func record(_ event: SetupProgress) {
    lock.lock()
    events.append(event)
    lock.unlock()
  }

  var all: [SetupProgress] {
    lock.lock()
    defer { lock.unlock() }
    return events
  }

  /// The steps in order, each run of the same step once.
  var steps: [SetupProgress.Step] {
    all.map(\.step).reduce(into: []) { steps, step in
      if steps.last != step { steps.append(step) }
    }
  }
}

/// The seed file `b.csv` with `rows` rows for the fixture's table `b (id, a_x)`.
func writeSeedRows(_ rows: Int, in fixture: SetupFixture, file: String = "seeds/b.csv") throws {
  var text = "id,a_x\n"
  text.reserveCapacity(rows * 16)
  for id in 1...rows { text += "\(id),x\(id)\n" }
  try fixture.dir.write(file, text)
}

@Suite struct SetupProgressTests {
  @Test func firstLaunchReportsEveryStepEachMigrationAndTheRowsSeeded() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write("migrations/0004_d.sql", "CREATE TABLE d (x);")
    try fixture.dir.write("migrations/0005_e.sql", "CREATE TABLE e (x);")
    try writeSeedRows(150_000, in: fixture)
    let log = ProgressLog()
    var setup = fixture.setup(template: fixture.template)
    setup.seeds = fixture.dir.path("seeds")
    setup.seedsDisplayPath = "seeds"
    setup.progress = { log.record($0) }
    let report = try setup.run()
    #expect(report.appliedVersions == [4, 5])
    #expect(log.steps == [.checking, .copyingTemplate, .migrating, .seeding, .done])
    let migrations = log.all.compactMap { event -> MigrationProgress? in
      if case .migrating(let migration) = event { return migration }
      return nil
    }
    #expect(
      migrations == [
        MigrationProgress(version: 4, name: "d", number: 1, count: 2),
        MigrationProgress(version: 5, name: "e", number: 2, count: 2),
      ]
    )
    let seeding = log.all.compactMap { event -> SeedProgress? in
      if case .seeding(let seed) = event { return seed }
      return nil
    }
    // Throttled: a few reports for 150,000 rows, rising, the last one finished.
    #expect(seeding.count >= 3 && seeding.count <= 10)
    #expect(seeding.allSatisfy { $0.file == "seeds/b.csv" && $0.table == "b" })
    #expect(seeding.map(\.rowsRead) == seeding.map(\.rowsRead).sorted())
    #expect(seeding.contains { !$0.isFinished && $0.rowsRead > 0 && $0.rowsRead < 150_000 })
    #expect(seeding.last?.rowsRead == 150_000 && seeding.last?.isFinished == true)
  }

  @Test func upToDateLaunchReportsOnlyCheckingAndDone() throws {
    let fixture = try SetupFixture()
    try fixture.setup(template: fixture.template).run()
    let log = ProgressLog()
    var setup = fixture.setup(template: fixture.template)
    setup.progress = { log.record($0) }
    #expect(try !setup.run().changedAnything)
    #expect(log.all == [.checking, .done])
  }

  @Test func progressIsReportedFromTheAsyncFormToo() async throws {
    let fixture = try SetupFixture()
    let log = ProgressLog()
    var setup = fixture.setup()
    setup.progress = { log.record($0) }
    let report = try await setup.run()
    #expect(report.appliedVersions == [1, 2, 3])
    #expect(log.steps == [.checking, .migrating, .done])
  }
}

@Suite struct SetupMigrateOptionsTests {
  @Test func singleTransactionAppliesAllPendingMigrationsOrNone() throws {
    let fixture = try SetupFixture()
    try fixture.dir.write(
      "migrations/0004_bad.sql",
      "CREATE TABLE d (x);\nINSERT INTO nope VALUES (1);"
    )
    var setup = fixture.setup()
    setup.migrateOptions.singleTransaction = true
    #expect(throws: MigrationError.self) { try setup.run() }
    let db = try Connection(path: fixture.database.path)
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name != 'strata_migrations'")
        == .integer(0)
    )
    #expect(try History.currentVersion(db) == 0)
    // Without it each migration commits on its own: 1 to 3 stay.
    #expect(throws: MigrationError.self) { try fixture.setup().run() }
    #expect(try History.currentVersion(db) == 3)
  }

  @Test func targetStopsAtAVersion() throws {
    let fixture = try SetupFixture()
    var setup = fixture.setup()
    setup.migrateOptions.target = 2
    let report = try setup.run()
    #expect(report.version == 2 && report.appliedVersions == [1, 2])
  }

  @Test func allowUnknownLetsTheAppRunOnANewerDatabase() throws {
    let fixture = try SetupFixture()
    try fixture.setup().run()
    try FileManager.default.removeItem(at: fixture.dir.path("migrations/0003_c.sql"))
    #expect(throws: SetupError.self) { try fixture.setup().run() }
    var setup = fixture.setup()
    setup.migrateOptions.allowUnknown = true
    let report = try setup.run()
    #expect(report.version == 3 && report.appliedVersions.isEmpty)
  }

  @Test func allowChangedAcceptsAnEditedMigration() throws {
    let fixture = try SetupFixture()
    try fixture.setup().run()
    try fixture.dir.write("migrations/0003_c.sql", "-- edited\nCREATE INDEX b_a ON b (a_x);\n")
    #expect(throws: MigrationError.self) { try fixture.setup().run() }
    var setup = fixture.setup()
    setup.migrateOptions.allowChanged = true
    #expect(try setup.run().version == 3)
  }

  @Test func dryRunIsRefusedAndCreatesNothing() throws {
    let fixture = try SetupFixture()
    var setup = fixture.setup(template: fixture.template)
    setup.migrateOptions.dryRun = true
    #expect(throws: SetupError.dryRunNotSupported) { try setup.run() }
    #expect(databaseFileKind(at: fixture.database.path) == .missing)
  }
}
