import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// An app's launch (`DatabaseSetup`) reads the same settings: a bundled file or a parsed
/// value, with one call's overrides over them, and a bad file creates nothing.
@Suite struct SetupSettingsTests {
  private func fixture() throws -> SetupFixture {
    let fixture = try SetupFixture(buildTemplate: false)
    try fixture.dir.write("migrations/0004_c.sql", "CREATE TABLE c (id INTEGER PRIMARY KEY, t);")
    try fixture.dir.write("seeds/c.csv", "id,t\n1,x\n")
    try fixture.dir.write("seeds/b.csv", "id,a_x\n1,1\n")
    return fixture
  }

  private func setup(_ fixture: SetupFixture) -> DatabaseSetup {
    var setup = fixture.setup()
    setup.seeds = fixture.dir.path("seeds")
    return setup
  }

  private func ledgerOptions(_ fixture: SetupFixture) throws -> [String] {
    try Seeder(connection: Connection(path: fixture.database.path)).ledger().map(\.options)
  }

  @Test func theSettingsFileIsReadAtLaunchAndOverridesComeLast() throws {
    let fixture = try fixture()
    let file = try fixture.dir.write(
      "strata.toml",
      "[seeds]\nnull = [\"NA\"]\n\n[seeds.\"b.csv\"]\nencoding = \"latin-1\"\n"
    )
    var setup = setup(fixture)
    setup.settingsFile = file
    #expect(try setup.run().seedFilesLoaded.count == 2)
    #expect(
      try ledgerOptions(fixture) == [#"null = ["NA"], encoding = "latin-1""#, #"null = ["NA"]"#]
    )
    // One call's override, over every file's settings: both load again.
    setup.seedFormatOverrides = SeedFormatSettings(nullTokens: [])
    #expect(try setup.run().seedFilesLoaded.count == 2)
    #expect(try ledgerOptions(fixture).suffix(2) == [#"encoding = "latin-1""#, ""])
    #expect(try setup.run().seedFilesLoaded.isEmpty)
  }

  @Test func aParsedValueWorksLikeTheFile() throws {
    let fixture = try fixture()
    var setup = setup(fixture)
    setup.settings = try ProjectSettings(parsing: "[seeds.\"c.csv\"]\nnull = [\"-\"]\n")
    _ = try setup.run()
    #expect(try ledgerOptions(fixture).sorted() == ["", #"null = ["-"]"#])
  }

  @Test func aMissingOrBadSettingsFileOrAnUnknownSeedFileCreatesNothing() throws {
    let fixture = try fixture()
    var setup = setup(fixture)
    setup.settingsFile = fixture.dir.path("strata.toml")
    #expect(throws: SettingsError.fileNotFound(path: fixture.dir.path("strata.toml").path)) {
      try setup.run()
    }
    try fixture.dir.write("strata.toml", "[seeds.\"d.csv\"]\nnull = [\"NA\"]\n")
    #expect(
      throws: SettingsError.unknownSeedFile(
        path: fixture.dir.path("strata.toml").path,
        line: 1,
        file: "d.csv",
        folder: fixture.dir.path("seeds").path
      )
    ) {
      try setup.run()
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.database.path))
  }
}
