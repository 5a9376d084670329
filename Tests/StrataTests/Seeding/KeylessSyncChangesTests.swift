import Foundation
import Strata
import Testing

/// A keyless file's sync beyond its rows: `reload`, a header that lost or gained a column, a
/// row that a child references, every mode with a key at launch, and a cancelled sync.
@Suite struct KeylessSyncChangesTests {
  let base = KeylessSyncTests()

  // MARK: - reload

  /// `reload` (0.4's mark for a changed keyless file) changes nothing beyond sync: the user's
  /// edit and deletion stay, the user's row (here under the rowid SQLite gave again, after the
  /// user deleted Jack) is untouched, and nothing is duplicated.
  @Test func reloadSyncsAndNeverDuplicatesOrTouchesTheUsersRows() throws {
    let fixture = try base.fixture()
    let report = try base.sync(
      fixture,
      user: "UPDATE person_info SET age = 23 WHERE name = 'Peter'; "
        + "DELETE FROM person_info WHERE name = 'Jack'; INSERT INTO person_info VALUES ('Mine', 1)",
      next: KeylessSyncTests.v1 + "Tom,24\n",
      reload: true
    )
    #expect(base.counts(report) == [1, 0, 0, 0, 2])
    #expect(
      try base.people(fixture) == [
        [.integer(1), .text("Peter"), .integer(23)], [.integer(2), .text("Mine"), .integer(1)],
        [.integer(3), .text("Tom"), .integer(24)],
      ]
    )
  }

  @Test func reloadKeepsAnEditedRowWhoseLineLeftTheFile() throws {
    let fixture = try base.fixture()
    let report = try base.sync(
      fixture,
      user: "UPDATE person_info SET age = 30 WHERE name = 'Jack'",
      next: "name,age\nPeter,22\n",
      reload: true
    )
    #expect(base.counts(report) == [0, 0, 1, 0, 1])
    #expect(try fixture.count("person_info") == 2)
  }

  @Test func theReloadMarkerIsReadPerFileFromTheSettingsAndRefusedForEveryFile() throws {
    let settings = try ProjectSettings(
      parsing: "[seeds.\"person_info.csv\"]\nreload = true\n",
      displayPath: "strata.toml"
    )
    #expect(settings.seeds.files["person_info.csv"]?.reload == true)
    let file = SeedFile(url: URL(fileURLWithPath: "/x/person_info.csv"))
    #expect(settings.seeds.format(of: file).reload)
    #expect(throws: SettingsError.self) {
      try ProjectSettings(parsing: "[seeds]\nreload = true\n", displayPath: "strata.toml")
    }
  }

  // MARK: - The header changed

  static let cities = "CREATE TABLE person_info (name TEXT, age INTEGER, city TEXT)"

  /// The file dropped `city`: rows are matched on name and age; a row the user left keeps the
  /// city strata wrote; the user's edit stays; a line that left deletes strata's row.
  @Test func aColumnTheFileLostSyncsByTheColumnsLeft() throws {
    let fixture = try SeedFixture(schema: Self.cities)
    let report = try base.sync(
      fixture,
      first: "name,age,city\nPeter,22,Oslo\nJack,20,Rome\nSam,40,Nice\n",
      user: "UPDATE person_info SET age = 30 WHERE name = 'Jack'",
      next: "name,age\nPeter,22\nJack,20\nTom,24\n"
    )
    #expect(base.counts(report) == [1, 0, 1, 1, 1])
    #expect(
      try fixture.rows("SELECT rowid, name, age, city FROM person_info ORDER BY rowid") == [
        [.integer(1), .text("Peter"), .integer(22), .text("Oslo")],
        [.integer(2), .text("Jack"), .integer(30), .text("Rome")],
        [.integer(3), .text("Tom"), .integer(24), .null],
      ]
    )
    #expect(
      try base.ledger(fixture) == [
        [.integer(1), .text("'Peter',22")], [.integer(2), .text("'Jack',20")],
        [.integer(3), .text("'Tom',24")],
      ]
    )
    #expect(
      try fixture.rows("SELECT columns FROM strata_seed_columns") == [[.text("[\"name\",\"age\"]")]]
    )
  }

  /// A migration dropped the column from the table too: the rows are still recognised.
  @Test func aColumnDroppedFromTheTableAndTheFileStillSyncs() throws {
    let fixture = try SeedFixture(schema: Self.cities)
    _ = try fixture.seed(
      [try fixture.csv("person_info.csv", "name,age,city\nPeter,22,Oslo\nJack,20,Rome\n")],
      mode: .sync
    )
    try fixture.connection.execute("ALTER TABLE person_info DROP COLUMN city")
    let report = try #require(
      try fixture.seed(
        [try fixture.csv("person_info.csv", "name,age\nPeter,22\nTom,24\n")],
        mode: .sync
      ).tables.first
    )
    #expect(base.counts(report) == [1, 0, 1, 1, 0])
    #expect(
      try base.people(fixture) == [
        [.integer(1), .text("Peter"), .integer(22)], [.integer(2), .text("Tom"), .integer(24)],
      ]
    )
  }

  /// The file gained `city`: rows the user left take it; the user's edited row is left.
  @Test func aColumnTheFileGainedFillsTheRowsTheUserLeft() throws {
    let fixture = try SeedFixture(schema: Self.cities)
    let report = try base.sync(
      fixture,
      user: "UPDATE person_info SET age = 30 WHERE name = 'Jack'",
      next: "name,age,city\nPeter,22,Oslo\nJack,20,Rome\nTom,24,Nice\n"
    )
    #expect(base.counts(report) == [1, 1, 0, 0, 1])
    #expect(
      try fixture.rows("SELECT rowid, name, age, city FROM person_info ORDER BY rowid") == [
        [.integer(1), .text("Peter"), .integer(22), .text("Oslo")],
        [.integer(2), .text("Jack"), .integer(30), .null],
        [.integer(3), .text("Tom"), .integer(24), .text("Nice")],
      ]
    )
    // Recorded with the new column: Peter's line leaving deletes strata's Peter.
    let dropped = try #require(
      try fixture.seed(
        [try fixture.csv("person_info.csv", "name,age,city\nJack,20,Rome\nTom,24,Nice\n")],
        mode: .sync
      ).tables.first
    )
    #expect(base.counts(dropped) == [0, 0, 1, 1, 1])
  }

  // MARK: - References, modes, cancellation

  /// `person(id INTEGER PRIMARY KEY, name)` seeded from a file of names (no key in it): Bob's
  /// line leaves the file, but the user's pet references Bob, so Bob is kept, not orphaned.
  @Test func aRowThatLeftTheFileButAChildReferencesIsKept() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);"
        + "CREATE TABLE pet (name TEXT, owner INTEGER REFERENCES person (id));"
    )
    _ = try fixture.seed([try fixture.csv("person.csv", "name\nAnn\nBob\n")], mode: .sync)
    try fixture.connection.execute("INSERT INTO pet VALUES ('Rex', 2)")
    let report = try #require(
      try fixture.seed([try fixture.csv("person.csv", "name\nAnn\nCyd\n")], mode: .sync)
        .tables.first
    )
    #expect(base.counts(report) == [1, 0, 1, 0, 1])
    #expect(
      try fixture.rows("SELECT id, name FROM person ORDER BY id") == [
        [.integer(1), .text("Ann")], [.integer(2), .text("Bob")], [.integer(3), .text("Cyd")],
      ]
    )
    #expect(try fixture.rows("PRAGMA foreign_key_check").isEmpty)
  }

  @Test(arguments: [SeedMode.missing, .upsert])
  func atLaunchAModeWithAKeySyncsAKeylessTable(mode: SeedMode) throws {
    let fixture = try base.fixture()
    let options = SeedOptions(mode: mode, onlyUnrecorded: true)
    _ = try fixture.seeder.seed(
      [try fixture.csv("person_info.csv", KeylessSyncTests.v1)],
      options: options
    )
    try fixture.connection.execute("UPDATE person_info SET age = 23 WHERE name = 'Peter'")
    let file = try fixture.csv("person_info.csv", KeylessSyncTests.v1 + "Tom,24\n")
    let report = try #require(try fixture.seeder.seed([file], options: options).tables.first)
    #expect(base.counts(report) == [1, 0, 1, 0, 1])
    #expect(
      try fixture.rows("SELECT name, age FROM person_info ORDER BY rowid") == [
        [.text("Peter"), .integer(23)], [.text("Jack"), .integer(20)],
        [.text("Tom"), .integer(24)],
      ]
    )
  }

  /// A sync cancelled while it reads the file (an interrupt, as `DatabaseSetup.run()` does on
  /// a cancelled task) changes nothing; the next run syncs.
  @Test func aSyncCancelledPartWayChangesNothing() throws {
    let fixture = try base.fixture()
    let lines = (0..<70_000).map { "p\($0),\($0 % 90)\n" }
    _ = try fixture.seed(
      [try fixture.csv("person_info.csv", "name,age\n" + lines.joined())],
      mode: .sync
    )
    try fixture.connection.execute("UPDATE person_info SET age = 99 WHERE rowid = 7")
    let probe =
      "SELECT count(*), sum(age), sum(rowid * length(name)), "
      + "(SELECT count(*) FROM strata_seed_rows), (SELECT count(*) FROM strata_seeds) "
      + "FROM person_info"
    let before = try fixture.rows(probe)
    let next = try fixture.csv(
      "person_info.csv",
      "name,age\n" + lines.dropFirst().joined() + "new,1\n"
    )
    let flag = Flag()
    #expect(throws: (any Error).self) {
      try fixture.connection.withInterruptCheck({ flag.isSet }) {
        try fixture.seeder.seed([next], options: SeedOptions(mode: .sync)) { progress in
          if progress.rowsRead > 0 { flag.set() }
        }
      }
    }
    #expect(flag.isSet)
    #expect(try fixture.rows(probe) == before)
    #expect(fixture.connection.isAutocommit)
    let report = try #require(try fixture.seed([next], mode: .sync).tables.first)
    #expect(base.counts(report) == [1, 0, 69_998, 1, 1])
  }
}

/// A flag set from a progress callback and read by the interrupt check.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
