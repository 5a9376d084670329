import Foundation
import Strata
import Testing

/// A table without a key (the FMDB article's `person_info(name, age)`) syncs by the row ledger:
/// the first load is recorded by rowid with the values written; a changed file inserts its new
/// lines, deletes the rows of lines that left it when they still hold what strata wrote, and
/// leaves every row the user changed, added or deleted as the user left it.
@Suite struct KeylessSyncTests {
  static let schema = "CREATE TABLE person_info (name TEXT, age INTEGER CHECK (age >= 0))"
  static let v1 = "name,age\nPeter,22\nJack,20\n"

  func fixture() throws -> SeedFixture { try SeedFixture(schema: Self.schema) }

  /// Every row with its rowid.
  func people(_ fixture: SeedFixture) throws -> [[SQLValue]] {
    try fixture.rows("SELECT rowid, name, age FROM person_info ORDER BY rowid")
  }

  func ledger(_ fixture: SeedFixture) throws -> [[SQLValue]] {
    try fixture.rows(
      "SELECT key, row_values FROM strata_seed_rows WHERE file = 'person_info.csv' ORDER BY key"
    )
  }

  /// Seeds v1, runs `user` on the database, then syncs `next`; returns the second report.
  func sync(
    _ fixture: SeedFixture,
    first: String = Self.v1,
    user: String? = nil,
    next: String,
    reload: Bool = false
  ) throws -> SeedTableReport {
    _ = try fixture.seed([try fixture.csv("person_info.csv", first)], mode: .sync)
    if let user { try fixture.connection.execute(user) }
    var file = try fixture.csv("person_info.csv", next)
    file.format.reload = reload
    return try #require(try fixture.seed([file], mode: .sync).tables.first)
  }

  func counts(_ report: SeedTableReport) -> [Int] {
    [report.inserted, report.updated, report.unchanged, report.deleted, report.kept]
  }

  @Test(arguments: [SeedMode.sync, .missing, .upsert])
  func keylessFirstLoadIsRecordedByRowid(mode: SeedMode) throws {
    let fixture = try fixture()
    let file = try fixture.csv("person_info.csv", Self.v1)
    // At launch (onlyUnrecorded) every mode with a key conflict syncs a keyless table.
    let report = try fixture.seeder.seed(
      [file],
      options: SeedOptions(mode: mode, onlyUnrecorded: true)
    )
    #expect(report.inserted == 2)
    #expect(
      try ledger(fixture) == [
        [.integer(1), .text("'Peter',22")], [.integer(2), .text("'Jack',20")],
      ]
    )
    #expect(
      try fixture.rows("SELECT columns FROM strata_seed_columns") == [[.text("[\"name\",\"age\"]")]]
    )
  }

  @Test func keylessUnchangedFileIsSkippedNeverLoadedTwice() throws {
    let fixture = try fixture()
    let file = try fixture.csv("person_info.csv", Self.v1)
    _ = try fixture.seed([file], mode: .sync)
    let again = try fixture.seed([file], mode: .sync)
    #expect(again.tables.first?.alreadyRecorded == true)
    #expect(again.inserted == 0)
    #expect(try people(fixture).count == 2)
  }

  @Test func aNewLineIsInsertedAndEveryOtherRowKeepsItsRowid() throws {
    let fixture = try fixture()
    let report = try sync(fixture, next: Self.v1 + "Tom,24\n")
    #expect(counts(report) == [1, 0, 2, 0, 0])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(22)], [.integer(2), .text("Jack"), .integer(20)],
        [.integer(3), .text("Tom"), .integer(24)],
      ]
    )
    #expect(try ledger(fixture).count == 3)
    // Synced once: the same file again is skipped.
    #expect(
      try fixture.seed([try fixture.csv("person_info.csv", Self.v1 + "Tom,24\n")], mode: .sync)
        .tables.first?.alreadyRecorded == true
    )
  }

  @Test func aRowTheUserEditedStaysAndItsLineIsNotInsertedAgain() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      user: "UPDATE person_info SET age = 23 WHERE name = 'Peter'",
      next: Self.v1 + "Tom,24\n"
    )
    #expect(counts(report) == [1, 0, 1, 0, 1])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(23)], [.integer(2), .text("Jack"), .integer(20)],
        [.integer(3), .text("Tom"), .integer(24)],
      ]
    )
  }

  @Test func aRowTheUserDeletedIsNotResurrected() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      user: "DELETE FROM person_info WHERE name = 'Jack'",
      next: Self.v1 + "Tom,24\n"
    )
    #expect(counts(report) == [1, 0, 1, 0, 1])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(22)], [.integer(3), .text("Tom"), .integer(24)],
      ]
    )
    // The ledger still knows Jack's line: a later version does not bring it back either.
    _ = try fixture.seed(
      [try fixture.csv("person_info.csv", Self.v1 + "Tom,24\nAnn,30\n")],
      mode: .sync
    )
    #expect(
      try fixture.rows("SELECT name FROM person_info ORDER BY rowid")
        == [[.text("Peter")], [.text("Tom")], [.text("Ann")]]
    )
  }

  /// The user deleted Jack (rowid 2, the largest) and added a row, which SQLite gave rowid 2
  /// again: it is not taken for strata's, and the file's new rows never reuse a known rowid.
  @Test func aRowidSQLiteGaveAgainToTheUsersRowIsTheUsers() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      user: "DELETE FROM person_info WHERE rowid = 2; INSERT INTO person_info VALUES ('Mine', 1)",
      next: "name,age\nPeter,22\nTom,24\n"
    )
    #expect(counts(report) == [1, 0, 1, 0, 1])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(22)], [.integer(2), .text("Mine"), .integer(1)],
        [.integer(3), .text("Tom"), .integer(24)],
      ]
    )
  }

  @Test func aLineGoneFromTheFileDeletesItsRowWhenStrataWroteIt() throws {
    let fixture = try fixture()
    let report = try sync(fixture, next: "name,age\nPeter,22\n")
    #expect(counts(report) == [0, 0, 1, 1, 0])
    #expect(try people(fixture) == [[.integer(1), .text("Peter"), .integer(22)]])
    #expect(try ledger(fixture) == [[.integer(1), .text("'Peter',22")]])
  }

  @Test func aLineGoneWhoseRowTheUserEditedIsKeptAndNoLongerStratas() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      user: "UPDATE person_info SET age = 30 WHERE name = 'Jack'",
      next: "name,age\nPeter,22\n"
    )
    #expect(counts(report) == [0, 0, 1, 0, 1])
    #expect(try people(fixture).count == 2)
    #expect(try ledger(fixture) == [[.integer(1), .text("'Peter',22")]])
    // Forgotten: the user setting it back to the file's old values does not make it strata's.
    try fixture.connection.execute("UPDATE person_info SET age = 20 WHERE name = 'Jack'")
    _ = try fixture.seed([try fixture.csv("person_info.csv", "name,age\nAnn,1\n")], mode: .sync)
    #expect(
      try fixture.rows("SELECT name FROM person_info ORDER BY rowid")
        == [[.text("Jack")], [.text("Ann")]]
    )
  }

  @Test func aLineGoneWhoseRowTheUserDeletedIsForgotten() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      user: "DELETE FROM person_info WHERE name = 'Jack'",
      next: "name,age\nPeter,22\n"
    )
    #expect(counts(report) == [0, 0, 1, 0, 0])
    #expect(try ledger(fixture) == [[.integer(1), .text("'Peter',22")]])
  }

  @Test func rowsTheUserAddedAreNeverTouchedEvenWhenEqualToALineThatLeft() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      user: "INSERT INTO person_info VALUES ('Jack', 20)",
      next: "name,age\nPeter,22\n"
    )
    #expect(counts(report) == [0, 0, 1, 1, 0])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(22)], [.integer(3), .text("Jack"), .integer(20)],
      ]
    )
  }

  // MARK: - Duplicate lines

  @Test func twoIdenticalLinesAreTwoRowsAndRemovingOneDeletesOne() throws {
    let fixture = try fixture()
    let twice = "name,age\nPeter,22\nPeter,22\nJack,20\n"
    _ = try fixture.seed([try fixture.csv("person_info.csv", twice)], mode: .sync)
    #expect(try fixture.count("person_info") == 3)
    let once = try #require(
      try fixture.seed([try fixture.csv("person_info.csv", Self.v1)], mode: .sync).tables.first
    )
    #expect(counts(once) == [0, 0, 2, 1, 0])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(22)], [.integer(3), .text("Jack"), .integer(20)],
      ]
    )
    let back = try #require(
      try fixture.seed([try fixture.csv("person_info.csv", twice)], mode: .sync).tables.first
    )
    #expect(counts(back) == [1, 0, 2, 0, 0])
    #expect(try fixture.count("person_info") == 3)
  }

  /// Of two identical lines' rows the user edited one; the file drops one line: the line that
  /// left takes the edited row (kept, the user's), and the file's remaining line keeps its row.
  @Test func aRemovedDuplicateLineTakesTheRowTheUserEditedFirst() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      first: "name,age\nPeter,22\nPeter,22\n",
      user: "UPDATE person_info SET age = 23 WHERE rowid = 1",
      next: "name,age\nPeter,22\n"
    )
    #expect(counts(report) == [0, 0, 1, 0, 1])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(23)], [.integer(2), .text("Peter"), .integer(22)],
      ]
    )
    #expect(try ledger(fixture) == [[.integer(2), .text("'Peter',22")]])
  }

  /// The user changed Jack into a second `Peter,22`: neither row is lost or duplicated, and
  /// when Peter's line leaves the file only strata's Peter goes.
  @Test func aRowTheUserChangedToEqualAnotherLineIsNeitherLostNorDuplicated() throws {
    let fixture = try fixture()
    let report = try sync(
      fixture,
      user: "UPDATE person_info SET name = 'Peter', age = 22 WHERE name = 'Jack'",
      next: Self.v1 + "Tom,24\n"
    )
    #expect(counts(report) == [1, 0, 1, 0, 1])
    #expect(try fixture.count("person_info") == 3)
    let dropped = try #require(
      try fixture.seed(
        [try fixture.csv("person_info.csv", "name,age\nJack,20\nTom,24\n")],
        mode: .sync
      ).tables.first
    )
    #expect(counts(dropped) == [0, 0, 1, 1, 1])
    #expect(
      try people(fixture) == [
        [.integer(2), .text("Peter"), .integer(22)], [.integer(3), .text("Tom"), .integer(24)],
      ]
    )
  }

  // MARK: - Errors and the ledger

  @Test func aNewLineSQLiteRefusesNamesItsLineAndNothingChanges() throws {
    let fixture = try fixture()
    _ = try fixture.seed([try fixture.csv("person_info.csv", Self.v1)], mode: .sync)
    let before = try people(fixture)
    let bad = try fixture.csv("person_info.csv", Self.v1 + "Tom,24\n\"Ann\nLee\",-1\n")
    let error = try #require(fixture.seedError([bad], mode: .sync))
    guard case .rowFailed(let file, let line, _, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(file == "seeds/person_info.csv" && line == 5)
    #expect(error.message.contains("CHECK constraint failed"))
    #expect(error.message.hasSuffix("nothing was seeded; the database is unchanged"))
    #expect(try people(fixture) == before)
    #expect(try ledger(fixture).count == 2)
    #expect(try fixture.count("strata_seeds") == 1)
  }

  /// A ledger written by strata 0.4.0's seeded-once load: rowids and values, no recorded
  /// columns. The file's columns are taken for them, and the update syncs.
  @Test func aLedgerWrittenBy040StillSyncs() throws {
    let fixture = try fixture()
    try fixture.connection.execute(Self.ledger040)
    try fixture.connection.execute(
      "UPDATE person_info SET age = 23 WHERE name = 'Peter'; INSERT INTO person_info VALUES ('Mine', 5)"
    )
    let file = try fixture.csv("person_info.csv", Self.v1 + "Tom,24\n")
    let report = try #require(
      try fixture.seeder.seed([file], options: SeedOptions(mode: .sync, onlyUnrecorded: true))
        .tables.first
    )
    #expect(counts(report) == [1, 0, 1, 0, 1])
    #expect(
      try people(fixture) == [
        [.integer(1), .text("Peter"), .integer(23)], [.integer(2), .text("Jack"), .integer(20)],
        [.integer(3), .text("Mine"), .integer(5)], [.integer(4), .text("Tom"), .integer(24)],
      ]
    )
    #expect(
      try fixture.rows("SELECT columns FROM strata_seed_columns") == [[.text("[\"name\",\"age\"]")]]
    )
  }

  /// Such a ledger, and a header whose width changed: its rows' columns cannot be known.
  @Test func a040LedgerAndAHeaderOfAnotherWidthIsATypedErrorAndNothingChanges() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE person_info (name TEXT, age INTEGER, city TEXT)"
    )
    try fixture.connection.execute(Self.ledger040)
    let file = try fixture.csv("person_info.csv", "name,age,city\nPeter,22,Oslo\n")
    let error = try #require(fixture.seedError([file], mode: .sync))
    #expect(error == .keylessFileChanged(file: "seeds/person_info.csv", table: "person_info"))
    #expect(
      error.message
        == "seeds/person_info.csv:1: the header's columns changed since the file was seeded into "
        + "person_info by an earlier strata, which did not record its columns, so strata cannot "
        + "tell which rows of person_info are the file's; nothing was seeded; the database is "
        + "unchanged"
    )
    #expect(error.help.hasPrefix("Give the file the header it had when it was last seeded"))
    #expect(try fixture.count("person_info") == 2)
    #expect(try fixture.count("strata_seeds") == 1)
  }

  /// What strata 0.4.0 left after seeding `v1` once (`Seeder+RowLedger` at the 0.4.0 tag).
  static let ledger040 = """
    INSERT INTO person_info (name, age) VALUES ('Peter', 22), ('Jack', 20);
    CREATE TABLE strata_seeds (file TEXT NOT NULL, checksum TEXT NOT NULL,
      table_name TEXT NOT NULL, mode TEXT NOT NULL, rows_inserted INTEGER NOT NULL,
      rows_updated INTEGER NOT NULL, applied_at TEXT NOT NULL, options TEXT NOT NULL DEFAULT '');
    INSERT INTO strata_seeds VALUES ('person_info.csv', 'old', 'person_info', 'sync', 2, 0,
      '2026-01-01T00:00:00Z', '');
    CREATE TABLE strata_seed_rows (table_name TEXT NOT NULL, file TEXT NOT NULL, key NOT NULL,
      row_values TEXT, PRIMARY KEY (table_name, file, key)) WITHOUT ROWID;
    INSERT INTO strata_seed_rows VALUES ('person_info', 'person_info.csv', 1, '''Peter'',22'),
      ('person_info', 'person_info.csv', 2, '''Jack'',20');
    """
}
