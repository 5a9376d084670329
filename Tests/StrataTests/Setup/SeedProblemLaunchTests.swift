import Foundation
import Strata
import StrataTestSupport
import Testing

/// No bundled data can lock an app out (docs/decisions.md, "Issue 31: no bundled data can lock
/// an app out"): a seed file that fails at launch leaves the database migrated and usable,
/// the seeds (rows and ledger) as they were before the launch, and the problem in
/// `SetupReport.seedProblem`; the next launch tries again. A failed migration still throws,
/// at the version the last applied one left.
@Suite struct SeedProblemLaunchTests {
  let dir: TemporaryDirectory
  var database: URL { dir.path("Documents/data.sqlite3") }

  init() throws {
    dir = try TemporaryDirectory()
    try dir.write(
      "migrations/0001_init.sql",
      "CREATE TABLE contact (id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT);\n"
        + "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age TEXT);\n"
    )
    try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n")
    try dir.write("seeds/person.csv", "id,name,age\n1,Ann,about 30\n")
  }

  var setup: DatabaseSetup {
    var setup = DatabaseSetup(
      database: database,
      migrations: dir.path("migrations"),
      seeds: dir.path("seeds")
    )
    setup.seedsDisplayPath = "seeds"
    return setup
  }

  func rows(_ sql: String) throws -> [[SQLValue]] {
    try Connection(path: database.path).rows(sql)
  }

  /// The seed rows, the user's rows and the ledger: what a failed seed step must not change.
  func seedState() throws -> [[[SQLValue]]] {
    try [
      rows("SELECT * FROM contact ORDER BY id"),
      rows("SELECT * FROM person ORDER BY id"),
      rows("SELECT * FROM strata_seeds ORDER BY 1"),
    ]
  }

  /// Version 1 launched, seeded, and the user added a contact of their own.
  func launchedVersion1() throws {
    let report = try setup.run()
    #expect(report.seedProblem == nil && report.seedFilesLoaded.count == 2)
    try Connection(path: database.path).execute("INSERT INTO contact VALUES (100, 'Mine', '1')")
  }

  /// The update renames `phone` and ships a contact file that still says `phone`.
  func updateRenamingPhone() throws {
    try dir.write(
      "migrations/0002_telephone.sql",
      "ALTER TABLE contact RENAME COLUMN phone TO telephone;\n"
    )
    try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n2,Ben,556\n")
  }

  /// The one sentence an alert shows: what failed (at its file:line), the version, that the
  /// user's data is safe and the database usable.
  func expectOneSentence(_ problem: SetupError, file: String, version: Int) {
    let message = problem.message
    #expect(message.hasPrefix(file), "\(message)")
    #expect(message.contains("at version \(version) and usable, with the user's data safe"))
    #expect(message.contains("no seed rows were written"))
    #expect(message.contains("the next launch tries again"))
    #expect(!message.contains("\n") && !message.contains(". "), "\(message)")
    #expect(problem.localizedDescription == message)
  }

  @Test func aHeaderThatLostAColumnOpensTheMigratedDatabaseAndReportsIt() throws {
    try launchedVersion1()
    let before = try seedState()
    try updateRenamingPhone()

    let queue = try setup.open()
    let report = try #require(queue.setupReport)
    #expect(report.version == 2 && report.appliedVersions == [2] && report.fromVersion == 1)
    #expect(report.seedFilesLoaded.isEmpty)
    let problem = try #require(report.seedProblem)
    guard case .seedingFailed(_, false, 2, let seedError) = problem else {
      Issue.record("not a seeding failure: \(problem)")
      return
    }
    #expect(problem.underlyingError as? SeedError == seedError)
    #expect(problem.message.hasPrefix(seedError.problem))
    #expect(seedError.problem.contains("phone"), "\(seedError.problem)")
    expectOneSentence(problem, file: "seeds/contact.csv:1", version: 2)
    // The queue is the app's: it reads the user's rows and writes.
    let names = try queue.read { db in try db.fetchRows("SELECT name FROM contact ORDER BY id") }
    #expect(names.count == 2)
    try queue.write { db in try db.execute("INSERT INTO contact VALUES (101, 'New', '2')") }
    try queue.write { db in try db.execute("DELETE FROM contact WHERE id = 101") }
    queue.close()
    // Migrated (2 applied), seeds exactly as before the launch: Ben not in, the ledger as it was.
    #expect(try rows("SELECT max(version) FROM strata_migrations") == [[.integer(2)]])
    #expect(try seedState() == before)
    #expect(
      try rows("SELECT * FROM contact ORDER BY id") == [
        [.integer(1), .text("Ann"), .text("555")], [.integer(100), .text("Mine"), .text("1")],
      ]
    )

    // The next launch tries again, opens again, and says it again; nothing to migrate.
    let again = try setup.open()
    let next = try #require(again.setupReport)
    #expect(next.appliedVersions.isEmpty && next.version == 2)
    #expect(next.seedProblem?.message == problem.message)
    again.close()
    #expect(try seedState() == before)

    // Fixed in the next update, it loads.
    try dir.write("seeds/contact.csv", "id,name,telephone\n1,Ann,555\n2,Ben,556\n")
    let fixed = try setup.run()
    #expect(fixed.seedProblem == nil && fixed.seedFilesLoaded == ["seeds/contact.csv"])
    #expect(try rows("SELECT count(*) FROM contact") == [[.integer(3)]])
  }

  /// A migration makes `age` a STRICT INTEGER: the file's `about 30` no longer fits. The async
  /// `open()` opens the database all the same, and `run() async` reports it alike.
  @Test func aValueThatNoLongerFitsItsNewTypeOpensAndReports() async throws {
    try launchedVersion1()
    let before = try seedState()
    try dir.write(
      "migrations/0002_strict_age.sql",
      """
      CREATE TABLE person_new (id INTEGER PRIMARY KEY, name TEXT, age INTEGER) STRICT;
      INSERT INTO person_new SELECT id, name, NULL FROM person;
      DROP TABLE person;
      ALTER TABLE person_new RENAME TO person;

      """
    )
    try dir.write("seeds/person.csv", "id,name,age\n1,Ann,about 30\n2,Ben,41\n")

    let queue = try await setup.open()
    let problem = try #require(queue.setupReport?.seedProblem)
    #expect(queue.setupReport?.version == 2 && queue.setupReport?.appliedVersions == [2])
    expectOneSentence(problem, file: "seeds/person.csv:2", version: 2)
    #expect(try await queue.read { db in try db.fetchRows("SELECT * FROM person") }.count == 1)
    queue.close()
    // The contacts and the ledger as before; the people as the migration left them.
    #expect(try seedState()[0] == before[0] && seedState()[2] == before[2])
    #expect(try seedState()[1] == [[.integer(1), .text("Ann"), .null]])

    // `run()` reports it the same way, at every launch.
    let report = try await setup.run()
    #expect(report.seedProblem?.message == problem.message && report.appliedVersions.isEmpty)
  }

  /// A migration adds a CHECK: the file's first row syncs, its second breaks the CHECK, and
  /// the whole seed run goes back (the other file's sync with it): nothing half-loaded.
  @Test func aCheckTheFileBreaksRollsBackEveryFilesSync() throws {
    try launchedVersion1()
    let before = try seedState()
    try dir.write(
      "migrations/0002_checked_age.sql",
      """
      CREATE TABLE person_new (
        id INTEGER PRIMARY KEY, name TEXT, age INTEGER CHECK (age BETWEEN 0 AND 150));
      INSERT INTO person_new SELECT id, name, NULL FROM person;
      DROP TABLE person;
      ALTER TABLE person_new RENAME TO person;

      """
    )
    try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n2,Ben,556\n")
    try dir.write("seeds/person.csv", "id,name,age\n1,Ann,30\n2,Ben,200\n")
    let report = try setup.run()
    let problem = try #require(report.seedProblem)
    #expect(problem.message.contains("CHECK constraint failed"), "\(problem.message)")
    expectOneSentence(problem, file: "seeds/person.csv:3", version: 2)
    #expect(report.seedFilesLoaded.isEmpty && report.appliedVersions == [2])
    #expect(try seedState()[0] == before[0] && seedState()[2] == before[2])
    #expect(try seedState()[1] == [[.integer(1), .text("Ann"), .null]])
  }

  /// A seed problem on the first launch: the database is created, migrated, empty of seeds.
  @Test func aFirstLaunchWithABadFileCreatesTheDatabaseAndReportsIt() throws {
    try dir.write("seeds/person.csv", "id,name,age,shoe\n1,Ann,30,41\n")
    let report = try setup.run()
    let problem = try #require(report.seedProblem)
    guard case .seedingFailed(_, true, 1, _) = problem else {
      Issue.record("not a seeding failure on a new database: \(problem)")
      return
    }
    #expect(report.created && report.appliedVersions == [1])
    #expect(problem.message.contains("is created, at version 1 and usable"))
    #expect(try rows("SELECT count(*) FROM contact") == [[.integer(0)]])
    // The ledger's table came with the seed run, and went with it.
    #expect(
      try rows("SELECT count(*) FROM sqlite_master WHERE name = 'strata_seeds'") == [[.integer(0)]]
    )
  }

  /// Migration 3 fails after 2 applied: still thrown (the app cannot run on a schema it was not
  /// written for), at version 2, in one sentence that says what failed, the version and what
  /// stays; the seed step did not run, so the seeds are as before. The next launch says it again.
  @Test func aMigrationThatFailsAfterAnotherAppliedStillThrowsAtTheLastVersion() async throws {
    try launchedVersion1()
    let before = try seedState()
    try dir.write("migrations/0002_index.sql", "CREATE INDEX contact_name ON contact (name);\n")
    try dir.write("migrations/0003_bad.sql", "INSERT INTO nosuch VALUES (1);\n")
    let error = await #expect(throws: MigrationError.self) { try await setup.open() }
    let message = try #require(error?.message)
    #expect(message.contains("0003_bad.sql:1 failed"), "\(message)")
    #expect(message.contains("nothing from 3 was applied; the database is at version 2"))
    #expect(message.contains("0002_index.sql (version 2), which stays applied"), "\(message)")
    #expect(!message.contains("\n"))
    #expect(try rows("SELECT max(version) FROM strata_migrations") == [[.integer(2)]])
    #expect(try seedState() == before)
    #expect(throws: MigrationError.self) { try setup.run() }
    #expect(try rows("SELECT max(version) FROM strata_migrations") == [[.integer(2)]])
  }

  /// The report's JSON (what `strata init --format json` prints) carries the problem as text.
  @Test func theReportEncodesTheProblemAsItsMessageAndHelp() throws {
    try dir.write("seeds/person.csv", "id,name,age,shoe\n1,Ann,30,41\n")
    let report = try setup.run()
    let problem = try #require(report.seedProblem)
    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report))
    let encoded = (json as? [String: Any])?["seedProblem"] as? [String: String]
    #expect(encoded == ["message": problem.message, "help": problem.help])
    let decoded = try JSONDecoder().decode(SetupReport.self, from: JSONEncoder().encode(report))
    #expect(decoded.seedProblem == nil && decoded.version == report.version)
    #expect(Set([report, report]).count == 1)
  }
}
