import Foundation
import Strata
import Testing

/// `SeedMode.sync`: a seed file's new version follows into the table without touching the rows
/// the user changed or deleted. Each test is a cell of the table of cases in docs/seeding.md.
@Suite struct SeedSyncTests {
  static let schema = """
    CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, population INTEGER);
    """
  static let v1 = "code,name,population\nFR,France,68\nDE,Germany,84\nIT,Italy,59\n"

  /// A database seeded from `v1` in sync mode.
  func seeded(_ first: String = Self.v1) throws -> SeedFixture {
    let fixture = try SeedFixture(schema: Self.schema)
    let report = try sync(fixture, first)
    #expect(report.inserted == 3)
    return fixture
  }

  @discardableResult
  func sync(_ fixture: SeedFixture, _ text: String) throws -> SeedTableReport {
    let file = try fixture.csv("country.csv", text)
    let report = try fixture.seed([file], mode: .sync)
    return try #require(report.tables.first)
  }

  func rows(_ fixture: SeedFixture) throws -> [[SQLValue]] {
    try fixture.rows("SELECT code, name, population FROM country ORDER BY code")
  }

  func codes(_ fixture: SeedFixture) throws -> [String] {
    try rows(fixture).map { $0[0].textValue ?? "" }
  }

  // MARK: - Rows the user did not change

  @Test func unchangedRowFileKeepsIt() throws {
    let fixture = try seeded()
    let report = try sync(fixture, Self.v1)
    #expect(
      [report.inserted, report.updated, report.deleted, report.kept] as [Int] == [0, 0, 0, 0]
    )
    #expect(report.unchanged == 3)
    #expect(try rows(fixture).count == 3)
  }

  @Test func unchangedRowFileChangesItIsUpdated() throws {
    let fixture = try seeded()
    let report = try sync(fixture, Self.v1.replacingOccurrences(of: "France,68", with: "France,69"))
    #expect(report.updated == 1)
    #expect(report.unchanged == 2)
    #expect(try rows(fixture)[1] == [.text("FR"), .text("France"), .integer(69)])
  }

  @Test func unchangedRowFileDropsItIsDeleted() throws {
    let fixture = try seeded()
    let report = try sync(fixture, "code,name,population\nFR,France,68\nIT,Italy,59\n")
    #expect(report.deleted == 1)
    #expect(try codes(fixture) == ["FR", "IT"])
  }

  @Test func newKeyInTheFileIsInserted() throws {
    let fixture = try seeded()
    let report = try sync(fixture, Self.v1 + "ES,Spain,48\n")
    #expect(report.inserted == 1)
    #expect(try codes(fixture) == ["DE", "ES", "FR", "IT"])
  }

  // MARK: - Rows the user changed

  @Test func changedRowFileKeepsItStaysTheUsers() throws {
    let fixture = try seeded()
    try fixture.connection.execute("UPDATE country SET population = 1 WHERE code = 'FR'")
    let report = try sync(fixture, Self.v1)
    #expect(report.kept == 1)
    #expect(report.unchanged == 2)
    #expect(try rows(fixture)[1] == [.text("FR"), .text("France"), .integer(1)])
  }

  @Test func changedRowFileChangesItKeepsTheUsersValues() throws {
    let fixture = try seeded()
    try fixture.connection.execute("UPDATE country SET population = 1 WHERE code = 'FR'")
    let report = try sync(fixture, Self.v1.replacingOccurrences(of: "France,68", with: "France,69"))
    #expect(report.updated == 0)
    #expect(report.kept == 1)
    #expect(try rows(fixture)[1] == [.text("FR"), .text("France"), .integer(1)])
    // Once the user's, always the user's: a later version does not take it back.
    try fixture.connection.execute("UPDATE country SET population = 68 WHERE code = 'FR'")
    try sync(fixture, Self.v1.replacingOccurrences(of: "France,68", with: "France,70"))
    #expect(try rows(fixture)[1] == [.text("FR"), .text("France"), .integer(68)])
  }

  @Test func changedRowFileDropsItIsKept() throws {
    let fixture = try seeded()
    try fixture.connection.execute("UPDATE country SET population = 1 WHERE code = 'FR'")
    let report = try sync(fixture, "code,name,population\nDE,Germany,84\nIT,Italy,59\n")
    #expect(report.deleted == 0)
    #expect(report.kept == 1)
    #expect(try codes(fixture) == ["DE", "FR", "IT"])
  }

  // MARK: - Rows the user deleted

  @Test func deletedRowFileKeepsItStaysDeleted() throws {
    let fixture = try seeded()
    try fixture.connection.execute("DELETE FROM country WHERE code = 'FR'")
    let report = try sync(fixture, Self.v1)
    #expect(report.inserted == 0)
    #expect(report.kept == 1)
    #expect(try codes(fixture) == ["DE", "IT"])
  }

  @Test func deletedRowFileChangesItStaysDeleted() throws {
    let fixture = try seeded()
    try fixture.connection.execute("DELETE FROM country WHERE code = 'FR'")
    let report = try sync(fixture, Self.v1.replacingOccurrences(of: "France,68", with: "France,69"))
    #expect(report.inserted == 0)
    #expect(try codes(fixture) == ["DE", "IT"])
  }

  @Test func deletedRowFileDropsItIsForgotten() throws {
    let fixture = try seeded()
    try fixture.connection.execute("DELETE FROM country WHERE code = 'FR'")
    let report = try sync(fixture, "code,name,population\nDE,Germany,84\nIT,Italy,59\n")
    #expect([report.inserted, report.deleted, report.kept] as [Int] == [0, 0, 0])
    let keys = try fixture.rows("SELECT key FROM strata_seed_rows ORDER BY key")
    #expect(keys == [[.text("'DE'")], [.text("'IT'")]])
  }

  // MARK: - Keys edited

  @Test func keyEditedInTheFileDeletesTheOldRowAndInsertsTheNew() throws {
    let fixture = try seeded()
    // Same name (UNIQUE) under a new key: the old row goes first, so the name is free.
    let report = try sync(fixture, Self.v1.replacingOccurrences(of: "DE,", with: "GE,"))
    #expect([report.inserted, report.deleted] as [Int] == [1, 1])
    #expect(try codes(fixture) == ["FR", "GE", "IT"])
  }

  @Test func keyEditedInTheFileWhileTheUserChangedTheOldRowKeepsIt() throws {
    let fixture = try seeded()
    try fixture.connection.execute("UPDATE country SET population = 1 WHERE code = 'IT'")
    let report = try sync(fixture, Self.v1.replacingOccurrences(of: "IT,Italy", with: "IX,Italia"))
    #expect([report.inserted, report.deleted, report.kept] as [Int] == [1, 0, 1])
    #expect(try codes(fixture) == ["DE", "FR", "IT", "IX"])
  }

  @Test func keyEditedByTheUserIsTheUsersRowAndTheOldKeyStaysGone() throws {
    let fixture = try seeded()
    try fixture.connection.execute("UPDATE country SET code = 'FX' WHERE code = 'FR'")
    let report = try sync(fixture, Self.v1)
    #expect(report.inserted == 0, "FR is the user's edited row: it must not come back")
    #expect(report.kept == 1)
    #expect(try codes(fixture) == ["DE", "FX", "IT"])
    // A later file that brings the user's key keeps the user's row.
    let later = try sync(fixture, Self.v1 + "FX,Somewhere,1\n")
    #expect(later.inserted == 0)
    #expect(try rows(fixture)[1] == [.text("FX"), .text("France"), .integer(68)])
  }

  @Test func newKeyThatAUserRowHoldsKeepsTheUsersRow() throws {
    let fixture = try seeded()
    try fixture.connection.execute("INSERT INTO country VALUES ('ES', 'España', 47)")
    let report = try sync(fixture, Self.v1 + "ES,Spain,48\n")
    #expect(report.inserted == 0)
    #expect(report.kept == 1)
    #expect(try rows(fixture)[1] == [.text("ES"), .text("España"), .integer(47)])
  }

  // MARK: - A new file on a table with rows

  @Test func newFileOnATableWithRowsAdoptsEqualRowsAndKeepsDifferingOnes() throws {
    let fixture = try SeedFixture(schema: Self.schema)
    try fixture.connection.execute(
      "INSERT INTO country VALUES ('FR', 'France', 68), ('DE', 'Germany', 1)"
    )
    let report = try sync(fixture, Self.v1)
    #expect(
      [report.inserted, report.updated, report.kept, report.unchanged] as [Int] == [1, 0, 1, 1]
    )
    // FR was adopted: the file's next version updates it; DE is the user's and stays.
    let next = Self.v1.replacingOccurrences(of: "France,68", with: "France,69")
      .replacingOccurrences(of: "Germany,84", with: "Germany,85")
    try sync(fixture, next)
    #expect(try rows(fixture)[0] == [.text("DE"), .text("Germany"), .integer(1)])
    #expect(try rows(fixture)[1] == [.text("FR"), .text("France"), .integer(69)])
  }

  @Test func aColumnAddedToTheFileStillRecognisesItsRows() throws {
    let fixture = try SeedFixture(
      schema: Self.schema.replacingOccurrences(of: "INTEGER)", with: "INTEGER, capital TEXT)")
    )
    try sync(fixture, Self.v1)
    try fixture.connection.execute("UPDATE country SET population = 1 WHERE code = 'IT'")
    let report = try sync(
      fixture,
      "code,name,population,capital\nFR,France,68,Paris\nDE,Germany,84,Berlin\nIT,Italy,59,Rome\n"
    )
    #expect([report.updated, report.kept] as [Int] == [2, 1])
    #expect(
      try fixture.rows("SELECT code, capital FROM country ORDER BY code") == [
        [.text("DE"), .text("Berlin")], [.text("FR"), .text("Paris")], [.text("IT"), .null],
      ]
    )
  }

  // MARK: - Bad input and the transaction

  @Test func aDuplicateKeyIsRefusedAndNothingIsWritten() throws {
    let fixture = try seeded()
    let file = try fixture.csv("country.csv", Self.v1 + "FR,Francia,1\n")
    let error = try #require(fixture.seedError([file], mode: .sync))
    #expect(error.message.hasPrefix("seeds/country.csv:5: duplicate key"))
    #expect(try rows(fixture).count == 3)
    #expect(try fixture.count("strata_seeds") == 1)
  }

  @Test func aConstraintFailureNamesTheLineAndRollsEverythingBack() throws {
    let fixture = try seeded()
    let before = try fixture.rows("SELECT * FROM strata_seed_rows ORDER BY key")
    // FR's update is fine; ES takes Germany's UNIQUE name.
    let file = try fixture.csv(
      "country.csv",
      Self.v1.replacingOccurrences(of: "France,68", with: "France,69") + "ES,Germany,48\n"
    )
    let error = try #require(fixture.seedError([file], mode: .sync))
    #expect(error.message.hasPrefix("seeds/country.csv:5: UNIQUE constraint failed"))
    #expect(error.message.hasSuffix("the database is unchanged"))
    #expect(try rows(fixture)[1] == [.text("FR"), .text("France"), .integer(68)])
    #expect(try fixture.rows("SELECT * FROM strata_seed_rows ORDER BY key") == before)
  }

  @Test func anUpdateSQLiteRefusesNamesItsLine() throws {
    let fixture = try seeded()
    // France renamed to Germany, which DE (unchanged in the file) holds: UNIQUE on name.
    let file = try fixture.csv(
      "country.csv",
      Self.v1.replacingOccurrences(of: "FR,France", with: "FR,Germany")
    )
    let error = try #require(fixture.seedError([file], mode: .sync))
    #expect(error.message.hasPrefix("seeds/country.csv:2: UNIQUE constraint failed"))
    #expect(try rows(fixture)[1] == [.text("FR"), .text("France"), .integer(68)])
    #expect(fixture.connection.isAutocommit)
  }

  @Test func aTableWithoutAKeyInTheHeaderIsSeededOnceNotRefused() throws {
    let fixture = try SeedFixture(schema: "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)")
    let file = try fixture.csv("note.csv", "body\nhello\n")
    let report = try fixture.seed([file], mode: .sync)
    #expect(report.inserted == 1)
    #expect(try fixture.seed([file], mode: .sync).tables.first?.alreadyRecorded == true)
  }

  @Test func theReloadMarkerOnAKeyedTableChangesNothing() throws {
    let fixture = try seeded()
    try fixture.connection.execute("UPDATE country SET population = 1 WHERE code = 'FR'")
    var file = try fixture.csv("country.csv", Self.v1 + "ES,Spain,48\n")
    file.format.reload = true
    let report = try #require(try fixture.seed([file], mode: .sync).tables.first)
    #expect([report.inserted, report.deleted, report.kept] as [Int] == [1, 0, 1])
    #expect(try rows(fixture)[2] == [.text("FR"), .text("France"), .integer(1)])
  }

  @Test func aSyncedFileGoingBackToAnOlderVersionLoadsAgainAtLaunch() throws {
    let fixture = try seeded()
    let options = SeedOptions(mode: .sync, onlyUnrecorded: true)
    let v2 = try fixture.csv("country.csv", Self.v1 + "ES,Spain,48\n")
    #expect(try fixture.seeder.seed([v2], options: options).inserted == 1)
    let back = try fixture.csv("country.csv", Self.v1)
    #expect(try fixture.seeder.seed([back], options: options).deleted == 1)
    #expect(try fixture.seeder.seed([back], options: options).loadedFiles.isEmpty)
  }
}
