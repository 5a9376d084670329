import Foundation
import Strata
import Testing

/// A table without a key (the FMDB article's `person_info(name, age)`) is seeded once: the
/// first load is recorded by rowid, an unchanged file is skipped, a changed one is refused
/// unless marked to be reloaded, which replaces the rows that file loaded.
@Suite struct SeedOnceTests {
  static let schema = "CREATE TABLE person_info (name TEXT, age INTEGER)"
  static let v1 = "name,age\nPeter,22\nJack,20\n"

  func fixture() throws -> SeedFixture { try SeedFixture(schema: Self.schema) }

  func people(_ fixture: SeedFixture) throws -> [[SQLValue]] {
    try fixture.rows("SELECT name, age FROM person_info ORDER BY rowid")
  }

  @Test(arguments: [SeedMode.sync, .missing])
  func keylessFirstLoadIsRecordedByRowid(mode: SeedMode) throws {
    let fixture = try fixture()
    let file = try fixture.csv("person_info.csv", Self.v1)
    // At launch (onlyUnrecorded) every mode seeds a keyless table once.
    let report = try fixture.seeder.seed(
      [file],
      options: SeedOptions(mode: mode, onlyUnrecorded: true)
    )
    #expect(report.inserted == 2)
    #expect(
      try fixture.rows("SELECT key FROM strata_seed_rows WHERE file = 'person_info.csv'")
        == [[.integer(1)], [.integer(2)]]
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

  /// A keyed table whose file lost its key column is seeded as keyless; when that file then
  /// changes, the message says the header lacks the key, not that the table has none.
  @Test func aFileWithoutTheTablesKeySaysTheHeaderLacksIt() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE category (code TEXT PRIMARY KEY DEFAULT (hex(randomblob(4))), "
        + "label TEXT)"
    )
    _ = try fixture.seed([try fixture.csv("category.csv", "label\nFood\n")], mode: .sync)
    let changed = try fixture.csv("category.csv", "label\nFood\nTravel\n")
    let error = try #require(fixture.seedError([changed], mode: .sync))
    #expect(error == .keyNotInFile(file: "seeds/category.csv", table: "category", key: ["code"]))
    #expect(error.message.contains("its header holds no key of category (such as code)"))
    #expect(error.help.hasPrefix("Put the key column code back in the file's header"))
    #expect(try fixture.count("category") == 1)
  }

  @Test func keylessChangedFileIsATypedErrorAndNothingIsWritten() throws {
    let fixture = try fixture()
    _ = try fixture.seed([try fixture.csv("person_info.csv", Self.v1)], mode: .sync)
    let changed = try fixture.csv("person_info.csv", Self.v1 + "Tom,24\n")
    let error = try #require(fixture.seedError([changed], mode: .sync))
    #expect(error == .keylessFileChanged(file: "seeds/person_info.csv", table: "person_info"))
    #expect(
      error.message
        == "seeds/person_info.csv: the file changed since it was seeded into person_info, and "
        + "person_info has no key, so strata cannot tell which rows changed; nothing was "
        + "seeded; the database is unchanged"
    )
    #expect(error.help.hasPrefix("Mark the file to be reloaded"))
    #expect(!error.help.contains("--"))
    #expect(try people(fixture).count == 2)
    #expect(try fixture.count("strata_seeds") == 1)
  }

  @Test func keylessChangedFileMarkedReloadReplacesTheRowsItLoaded() throws {
    let fixture = try fixture()
    _ = try fixture.seed([try fixture.csv("person_info.csv", Self.v1)], mode: .sync)
    // The user's own row, and a seeded row the user changed, both stay.
    try fixture.connection.execute(
      "INSERT INTO person_info VALUES ('Mine', 1); UPDATE person_info SET age = 30 WHERE name = 'Jack'"
    )
    var changed = try fixture.csv("person_info.csv", "name,age\nPeter,23\nTom,24\n")
    changed.format.reload = true
    let report = try #require(try fixture.seed([changed], mode: .sync).tables.first)
    #expect([report.deleted, report.inserted] as [Int] == [1, 2])
    #expect(
      try people(fixture) == [
        [.text("Jack"), .integer(30)], [.text("Mine"), .integer(1)],
        [.text("Peter"), .integer(23)], [.text("Tom"), .integer(24)],
      ]
    )
    // Reloaded once: the same file again is skipped.
    #expect(try fixture.seed([changed], mode: .sync).inserted == 0)
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
}
