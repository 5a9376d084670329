import Foundation
import Strata
import StrataTestSupport
import StrataTesting
import Testing

/// `UpgradeCheck(setup:)` runs the whole launch on each earlier release (issue 31): the
/// migrations, then the seed files with the setup's settings, through `DatabaseSetup` as the
/// app's launch does. A seed file that would fail at launch fails the check, naming the release
/// and the file:line, before the app ships.
@Suite struct UpgradeCheckLaunchTests {
  static let v1 = """
    CREATE TABLE contact (id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT);
    CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age TEXT);

    """
  static let renamesPhone = "ALTER TABLE contact RENAME COLUMN phone TO telephone;\n"
  static let strictAge = """
    CREATE TABLE person_new (id INTEGER PRIMARY KEY, name TEXT, age INTEGER) STRICT;
    INSERT INTO person_new SELECT id, name, NULL FROM person;
    DROP TABLE person;
    ALTER TABLE person_new RENAME TO person;

    """

  let dir: TemporaryDirectory
  /// Version 1's template, as the release shipped it, with a contact a user of it added.
  let v1: URL

  init() throws {
    dir = try TemporaryDirectory()
    _ = try dir.write("migrations/0001_init.sql", Self.v1)
    _ = try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n")
    _ = try dir.write("seeds/person.csv", "id,name,age\n1,Ann,about 30\n")
    try FileManager.default.createDirectory(
      at: dir.path("releases"),
      withIntermediateDirectories: true
    )
    v1 = dir.path("releases/v1.sqlite3")
    try TemplateBuilder.build(try MigrationSet(directory: dir.path("migrations")), to: v1)
    try Connection(path: v1.path).execute("INSERT INTO contact VALUES (100, 'Mine', '1')")
  }

  /// The app's launch, as its code builds it (its database is replaced by each release's copy).
  var setup: DatabaseSetup {
    var setup = DatabaseSetup(
      database: dir.path("unused.sqlite3"),
      migrations: dir.path("migrations"),
      seeds: dir.path("seeds")
    )
    setup.seedsDisplayPath = "seeds"
    return setup
  }

  func expectSeedsFailed(_ error: UpgradeCheckError?, at place: String, version: Int) {
    guard case .seedsFailed(let release, let at, let seedError) = error else {
      Issue.record("not a seed failure: \(String(describing: error))")
      return
    }
    #expect(release == "v1.sqlite3" && at.text == "\(version)")
    #expect(seedError.problem.hasPrefix(place), "\(seedError.problem)")
    let message = error?.message ?? ""
    #expect(
      message.hasPrefix(
        "after upgrading v1.sqlite3 to version \(version) the launch's seed step "
          + "fails: \(place)"
      ),
      "\(message)"
    )
    #expect(error?.help.contains("every earlier release") == true)
  }

  @Test func aSeedHeaderNamingARenamedColumnFailsTheCheck() throws {
    _ = try dir.write("migrations/0002_telephone.sql", Self.renamesPhone)
    _ = try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n2,Ben,556\n")
    let bytes = try Data(contentsOf: v1)
    // Migrations alone pass: the old check did not see it.
    #expect(try UpgradeCheck(migrations: dir.path("migrations")).check(releases: [v1]).count == 1)
    let error = #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(setup: setup).check(
        releases: try UpgradeCheck.releases(in: dir.path("releases"))
      )
    }
    expectSeedsFailed(error, at: "seeds/contact.csv:1", version: 2)
    #expect(try Data(contentsOf: v1) == bytes)
  }

  @Test func aValueThatNoLongerFitsItsNewTypeFailsTheCheck() throws {
    _ = try dir.write("migrations/0002_strict_age.sql", Self.strictAge)
    _ = try dir.write("seeds/person.csv", "id,name,age\n1,Ann,about 30\n2,Ben,41\n")
    let error = #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(setup: setup).check(releases: [v1])
    }
    expectSeedsFailed(error, at: "seeds/person.csv:2", version: 2)
  }

  /// The setup's settings file is read as at launch: its header mapping makes the file load,
  /// the caller's closure sees the seeded rows, and the user's row survived.
  @Test func theLaunchsSettingsAreUsedAndAGoodUpdatePasses() throws {
    _ = try dir.write("migrations/0002_telephone.sql", Self.renamesPhone)
    _ = try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n2,Ben,556\n")
    _ = try dir.write(
      "strata.toml",
      "[seeds.\"contact.csv\"]\ncolumns = { phone = \"telephone\" }\n"
    )
    var setup = self.setup
    setup.settingsFile = dir.path("strata.toml")
    var seen: [[SQLValue]] = []
    let releases = try UpgradeCheck(setup: setup).check(releases: [v1]) { _, upgraded in
      seen = try upgraded.rows("SELECT id, telephone FROM contact ORDER BY id")
    }
    #expect(releases.map(\.toVersion.text) == ["2"] && releases.map(\.rowsChecked) == [1])
    #expect(releases.first?.seedFilesLoaded == ["seeds/contact.csv", "seeds/person.csv"])
    #expect(
      seen == [
        [.integer(1), .text("555")], [.integer(2), .text("556")], [.integer(100), .text("1")],
      ]
    )
  }

  /// A migration failure through the launch is still the migration's own error.
  @Test func aFailingMigrationThroughTheLaunchIsAMigrationFailure() throws {
    _ = try dir.write("migrations/0002_bad.sql", "INSERT INTO nosuch VALUES (1);\n")
    let error = #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(setup: setup).check(releases: [v1])
    }
    guard case .migrationFailed("v1.sqlite3", let cause) = error else {
      Issue.record("not a migration failure: \(String(describing: error))")
      return
    }
    #expect(cause is MigrationError)
  }
}
