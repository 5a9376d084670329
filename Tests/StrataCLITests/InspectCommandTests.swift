import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata inspect`, run as a user runs it, on the sample project's migrations.
@Suite struct InspectCommandTests {
  /// A folder with the sample project's migrations, migrated into data.sqlite3 by strata.
  private func sampleProject() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    try FileManager.default.copyItem(
      at: root.appendingPathComponent("migrations"),
      to: folder.path("migrations")
    )
    let migrate = try StrataProcess.run(["migrate", "--database", "data.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

  @Test func textShowsEveryTableAndTheMigrationState() throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(["inspect", "--database", "data.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0)
    #expect(result.standardError == "")
    let out = result.standardOutput
    #expect(out.hasPrefix("Database    data.sqlite3\n"))
    #expect(out.contains("Migrations  version 5, 5 applied, 0 pending in migrations\n"))
    #expect(out.contains("\nTABLE FIELDS (0 rows)\n"))
    #expect(out.contains("\nTABLE person_info (0 rows)\n"))
    #expect(out.contains("\nTABLE student (0 rows)\n"))
    #expect(out.contains("\nstrata's own tables\n  strata_migrations  5 rows\n"))
  }

  @Test(arguments: ["json", "sql", "markdown", "mermaid"])
  func everyFormatWorksOnTheSample(format: String) throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(
      ["inspect", "--database", "data.sqlite3", "--format", format],
      in: folder.url
    )
    #expect(result.exitCode == 0)
    let out = result.standardOutput
    switch format {
    case "json":
      let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
      #expect(object?["format"] as? Int == 1)
    case "sql":
      #expect(out.contains("\nCREATE INDEX student_class ON student (stuClass);\n"))
    case "markdown":
      #expect(out.contains("\n## `student`\n"))
    default:
      #expect(out.hasPrefix("erDiagram\n  \"FIELDS\" {\n"))
    }
  }

  @Test func someTablesOnly() throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(
      ["inspect", "person_info", "STUDENT", "--database", "data.sqlite3"],
      in: folder.url
    )
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.contains("TABLE person_info"))
    #expect(result.standardOutput.contains("TABLE student"))
    #expect(!result.standardOutput.contains("TABLE FIELDS"))
  }

  @Test func unknownTableListsTheTablesThatExist() throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(
      ["inspect", "users", "--database", "data.sqlite3"],
      in: folder.url
    )
    #expect(result.exitCode == 1)
    #expect(result.standardOutput == "")
    #expect(
      result.standardError.contains(
        "Error: no such table: users (tables: FIELDS, person_info, strata_migrations, student)"
      )
    )
    #expect(result.standardError.contains("Help: Run 'strata inspect' with no table name"))
  }

  @Test func missingDatabaseIsAnErrorAndNothingIsCreated() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["inspect", "--database", "none.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("Error: no database at"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("none.sqlite3").path))
  }

  @Test func fileThatIsNotSQLiteIsRefusedAndLeftAlone() throws {
    let folder = try TemporaryDirectory()
    let file = try folder.write("notes.txt", "name,age\nAnn,3\n")
    let result = try StrataProcess.run(["inspect", "--database", "notes.txt"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("is not an SQLite database"))
    #expect(try String(contentsOf: file, encoding: .utf8) == "name,age\nAnn,3\n")
  }

  @Test func inspectNeverWritesTheDatabase() throws {
    let folder = try sampleProject()
    let url = folder.path("data.sqlite3")
    let before = try Data(contentsOf: url)
    let modified = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]
    for format in ["text", "json", "sql", "markdown", "mermaid"] {
      let result = try StrataProcess.run(
        ["inspect", "--database", "data.sqlite3", "--format", format],
        in: folder.url
      )
      #expect(result.exitCode == 0)
    }
    _ = try StrataProcess.run(["inspect", "--diff", "--database", "data.sqlite3"], in: folder.url)
    #expect(try Data(contentsOf: url) == before)
    #expect(
      try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        == modified as? Date
    )
  }

  @Test func rollbackJournalWriterLockIsReportedAsLocked() throws {
    let folder = try sampleProject()
    let writer = try Connection(path: folder.path("data.sqlite3").path)
    try writer.execute("BEGIN EXCLUSIVE")
    defer { try? writer.execute("ROLLBACK") }
    let result = try StrataProcess.run(
      ["inspect", "--database", "data.sqlite3", "--busy-timeout", "200"],
      in: folder.url
    )
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("Error: cannot read data.sqlite3: database is locked"))
    #expect(result.standardError.contains("busy timeout (200 ms)"))
    #expect(result.standardError.contains("Help: Retry when the other process has finished"))
    #expect(result.standardError.contains("raise --busy-timeout"))
  }

  @Test func walDatabaseIsReadWhileAWriterHoldsItsLock() throws {
    let folder = try sampleProject()
    let writer = try Connection(path: folder.path("data.sqlite3").path)
    _ = try writer.scalar("PRAGMA journal_mode = WAL")
    try writer.execute("BEGIN EXCLUSIVE; CREATE TABLE uncommitted (x);")
    defer { try? writer.execute("ROLLBACK") }
    let result = try StrataProcess.run(
      ["inspect", "--database", "data.sqlite3", "--busy-timeout", "200"],
      in: folder.url
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("journal mode wal"))
    #expect(result.standardOutput.contains("TABLE student"))
    #expect(!result.standardOutput.contains("uncommitted"), "only committed schema is read")
  }

  @Test func awkwardNamesAreQuotedInEveryFormat() throws {
    let folder = try TemporaryDirectory()
    let writer = try Connection(path: folder.path("odd.sqlite3").path)
    try writer.execute(
      "CREATE TABLE \"my \"\"odd\"\" table\" (\"naïve col\" TEXT, \"x y\" INTEGER PRIMARY KEY);"
    )
    func run(_ format: String) throws -> String {
      let result = try StrataProcess.run(
        ["inspect", "--database", "odd.sqlite3", "--format", format],
        in: folder.url
      )
      #expect(result.exitCode == 0)
      return result.standardOutput
    }
    #expect(try run("text").contains("TABLE \"my \"\"odd\"\" table\" (0 rows)"))
    #expect(try run("text").contains("\"x y\""))
    #expect(try run("json").contains("\"name\" : \"my \\\"odd\\\" table\""))
    #expect(try run("sql").contains("CREATE TABLE \"my \"\"odd\"\" table\""))
    #expect(try run("markdown").contains("## `my \"odd\" table`"))
    #expect(try run("mermaid").contains("  \"my _odd_ table\" {\n    TEXT na_ve_col \"naïve col\""))
    // The named table, by its real name.
    let one = try StrataProcess.run(
      ["inspect", "my \"odd\" table", "--database", "odd.sqlite3"],
      in: folder.url
    )
    #expect(one.exitCode == 0)
  }

  @Test func diffIsCleanOnAFreshlyMigratedDatabase() throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(
      ["inspect", "--diff", "--database", "data.sqlite3"],
      in: folder.url
    )
    #expect(result.exitCode == 0)
    #expect(
      result.standardOutput
        == "No drift: data.sqlite3 matches its migrations (migrations, 5 migrations replayed "
        + "in memory).\n"
    )
  }

  @Test func diffFindsAnAlterTableDoneBehindStratasBack() throws {
    let folder = try sampleProject()
    try Connection(path: folder.path("data.sqlite3").path)
      .execute("ALTER TABLE student ADD COLUMN nickname TEXT")
    let result = try StrataProcess.run(
      ["inspect", "--diff", "--database", "data.sqlite3"],
      in: folder.url
    )
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.hasPrefix(
        "Drift: 1 difference between data.sqlite3 and its migrations\n"
          + "(5 migrations from migrations replayed in memory)\n"
      )
    )
    #expect(
      result.standardOutput.contains(
        "  + column student.nickname TEXT: in the database, not created by the migrations\n"
      )
    )
    let json = try StrataProcess.run(
      ["inspect", "--diff", "--database", "data.sqlite3", "--format", "json"],
      in: folder.url
    )
    #expect(json.exitCode == 1)
    let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    let report = (object as? [String: Any])?["report"] as? [String: Any]
    let differences = report?["differences"] as? [[String: Any]]
    #expect(differences?.first?["name"] as? String == "student.nickname")
    #expect(differences?.first?["change"] as? String == "unexpected")

    let validate = try StrataProcess.run(
      ["validate", "--database", "data.sqlite3"],
      in: folder.url
    )
    #expect(validate.exitCode == 1)
    #expect(
      validate.standardError.contains(
        "Error: schema drift in data.sqlite3: column student.nickname TEXT: in the database, not created by the "
          + "migrations"
      )
    )
  }

  @Test func validateStaysQuietAboutACleanDatabase() throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(["validate", "--database", "data.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.hasPrefix("OK: 5 migrations in migrations are valid"))
  }

  @Test func diffOnlyPrintsTextOrJSON() throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(
      ["inspect", "--diff", "--format", "mermaid", "--database", "data.sqlite3"],
      in: folder.url
    )
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("Error: --diff prints text or json, not mermaid"))
  }
}
