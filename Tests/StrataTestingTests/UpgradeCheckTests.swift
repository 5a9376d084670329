import Foundation
import Strata
import StrataTestSupport
import StrataTesting
import Testing

/// `UpgradeCheck`: templates of earlier releases, built here from the migrations each release
/// shipped, with fixture rows, migrated to now and compared.
@Suite struct UpgradeCheckTests {
  static let v1 =
    "-- migrate:up\nCREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age INT);\n"
  static let v2 = "-- migrate:up\nALTER TABLE person ADD COLUMN email TEXT;\n"
  static let v3 = "-- migrate:up\nALTER TABLE person RENAME TO people;\n"
  /// Rebuilds `person` without copying `age`: the data of that column is lost.
  static let losesAge = """
    -- migrate:up
    CREATE TABLE person_new (id INTEGER PRIMARY KEY, name TEXT, age INT, email TEXT);
    INSERT INTO person_new (id, name, email) SELECT id, name, email FROM person;
    DROP TABLE person;
    ALTER TABLE person_new RENAME TO person;

    """

  /// A project folder: `migrations/` with the given files, `releases/` with a template per
  /// release built from the first N migrations, each with the rows its users would have.
  struct Project {
    let dir: TemporaryDirectory
    var migrations: URL { dir.path("migrations") }

    init(_ files: [String]) throws {
      dir = try TemporaryDirectory()
      for (index, sql) in files.enumerated() {
        _ = try dir.write(String(format: "migrations/%04d_m%d.sql", index + 1, index + 1), sql)
      }
      try FileManager.default.createDirectory(
        at: dir.path("releases"),
        withIntermediateDirectories: true
      )
    }

    /// Builds `releases/<name>` from the first `count` migrations, then runs `rows` on it.
    func release(_ name: String, migrations count: Int, rows: String) throws -> URL {
      let all = try MigrationSet(directory: migrations)
      let shipped = try MigrationSet(
        Array(all.migrations.prefix(count)),
        directory: migrations.path
      )
      let file = dir.path("releases/\(name)")
      try TemplateBuilder.build(shipped, to: file)
      try Connection(path: file.path).execute(rows)
      return file
    }
  }

  /// v1 (rows), v2 (a column added, rows with it) and v3 (the table renamed): each release
  /// migrates to a schema equal to a fresh install's, its rows kept; the caller's closure sees
  /// each upgraded database. The release files are not changed.
  @Test func everyReleaseUpgrades() throws {
    let project = try Project([Self.v1, Self.v2])
    let v1 = try project.release(
      "v1.sqlite3",
      migrations: 1,
      rows: "INSERT INTO person VALUES (1, 'Ann', 30), (2, 'Bob', NULL)"
    )
    let v2 = try project.release(
      "v2.sqlite3",
      migrations: 2,
      rows: "INSERT INTO person VALUES (7, 'Cy', 41, 'cy@example.com')"
    )
    let bytes = try Data(contentsOf: v1)
    var seen: [String: SQLValue?] = [:]
    let releases = try UpgradeCheck(migrations: project.migrations).check(
      releases: try UpgradeCheck.releases(in: project.dir.path("releases"))
    ) { release, upgraded in
      seen[release.lastPathComponent] = try upgraded.scalar("SELECT count(*) FROM person")
    }
    #expect(releases.map(\.rowsChecked) == [2, 1])
    #expect(releases.map(\.toVersion.text) == ["2", "2"])
    #expect(seen == ["v1.sqlite3": .integer(2), "v2.sqlite3": .integer(1)])
    #expect(try Data(contentsOf: v1) == bytes)
    _ = v2

    // v3 renames the table: a table gone is not compared, the schema still is.
    _ = try project.dir.write("migrations/0003_m3.sql", Self.v3)
    var counts: [SQLValue?] = []
    let renamed = try UpgradeCheck(migrations: project.migrations).check(releases: [v1, v2]) {
      _,
      upgraded in
      counts.append(try upgraded.scalar("SELECT count(*) FROM people"))
    }
    #expect(counts == [.integer(2), .integer(1)])
    #expect(renamed.map(\.toVersion.text) == ["3", "3"])
  }

  /// A migration that rebuilds the table without copying a column: the error names the
  /// release, the table, the column, the row and both values.
  @Test func aMigrationThatLosesAColumnsDataFails() throws {
    let project = try Project([Self.v1, Self.v2, Self.losesAge])
    let v2 = try project.release(
      "v2.sqlite3",
      migrations: 2,
      rows: "INSERT INTO person VALUES (1, 'Ann', 30, NULL)"
    )
    let error = #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(migrations: project.migrations).check(releases: [v2])
    }
    let message = error?.message ?? ""
    #expect(message.contains("v2.sqlite3"), "\(message)")
    #expect(
      message.contains("table person, row id = 1: column age was 30, is NULL after the upgrade"),
      "\(message)"
    )
    // Named as changed on purpose, the column is not compared.
    var check = try UpgradeCheck(migrations: project.migrations)
    check.changedOnPurpose = ["person.age"]
    #expect(try check.check(releases: [v2]).map(\.rowsChecked) == [1])
  }

  /// A row deleted by a migration is named by its key.
  @Test func aMigrationThatDeletesRowsFails() throws {
    let project = try Project([Self.v1, "-- migrate:up\nDELETE FROM person WHERE age IS NULL;\n"])
    let v1 = try project.release(
      "v1.sqlite3",
      migrations: 1,
      rows: "INSERT INTO person VALUES (1, 'Ann', 30), (2, 'Bob', NULL)"
    )
    let error = #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(migrations: project.migrations).check(releases: [v1])
    }
    #expect(
      error?.message.contains("table person, row id = 2: the row is gone after the upgrade")
        == true,
      "\(error?.message ?? "")"
    )
  }

  /// A release whose database has a table its migrations never created (the v1 app made it
  /// itself): after the upgrade the schema differs from a fresh install, and the error says
  /// how, by the drift engine.
  @Test func anUpgradedSchemaThatDiffersFromAFreshInstallFails() throws {
    let project = try Project([Self.v1, Self.v2])
    let v1 = try project.release(
      "v1.sqlite3",
      migrations: 1,
      rows: "CREATE TABLE cache (key TEXT); INSERT INTO person VALUES (1, 'Ann', 30)"
    )
    let error = #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(migrations: project.migrations).check(releases: [v1])
    }
    let message = error?.message ?? ""
    #expect(message.contains("after upgrading v1.sqlite3 the schema differs"), "\(message)")
    #expect(message.contains("table cache"), "\(message)")
    guard case .schemaDiffers(let release, let differences) = error else {
      Issue.record("not a schema difference: \(String(describing: error))")
      return
    }
    #expect(release == "v1.sqlite3")
    #expect(differences.map(\.name) == ["cache"])
  }

  /// A migration that fails on a release's rows is the migration's own error, typed, with the
  /// release named; no releases at all is an error, not a pass.
  @Test func failuresAndEmptyReleaseLists() throws {
    let project = try Project([
      Self.v1, "-- migrate:up\nCREATE UNIQUE INDEX by_age ON person (age);\n",
    ])
    let v1 = try project.release(
      "v1.sqlite3",
      migrations: 1,
      rows: "INSERT INTO person VALUES (1, 'Ann', 30), (2, 'Bob', 30)"
    )
    let error = #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(migrations: project.migrations).check(releases: [v1])
    }
    guard case .migrationFailed(let release, let cause) = error else {
      Issue.record("not a migration failure: \(String(describing: error))")
      return
    }
    #expect(release == "v1.sqlite3")
    #expect(cause is MigrationError)
    #expect(throws: UpgradeCheckError.self) {
      try UpgradeCheck(migrations: project.migrations).check(releases: [])
    }
    let empty = try TemporaryDirectory()
    #expect(throws: UpgradeCheckError.self) { try UpgradeCheck.releases(in: empty.url) }
  }
}
