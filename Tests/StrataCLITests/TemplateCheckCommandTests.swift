import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata template --check`: exit 0 when the template is what the migrations build now,
/// exit 1 naming each difference (and the command that rebuilds it), never writing.
@Suite struct TemplateCheckCommandTests {
  /// A project with a template built from its three migrations.
  private static func project() throws -> Project {
    let project = try Project(threeMigrations)
    let built = try project.strata("template")
    #expect(built.exitCode == 0, "\(built.standardError)")
    return project
  }

  private static func template(_ project: Project) -> URL {
    project.dir.path("seeds/template.sqlite3")
  }

  /// A current template: exit 0, and the stamp is written.
  @Test func currentTemplatePasses() throws {
    let project = try Self.project()
    let before = try Data(contentsOf: Self.template(project))
    let result = try project.strata("template", "--check", "--stamp", "stamp.swift")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("seeds/template.sqlite3 is current"))
    #expect(FileManager.default.fileExists(atPath: project.dir.path("stamp.swift").path))
    #expect(try Data(contentsOf: Self.template(project)) == before)
  }

  /// A migration added since: exit 1 naming the migration the template lacks and the command
  /// that rebuilds it; the template is unchanged and an old stamp is removed.
  @Test func addedMigrationFails() throws {
    let project = try Self.project()
    _ = try project.strata("template", "--check", "--stamp", "stamp.swift")
    try project.write("0004_d.sql", "-- migrate:up\nCREATE TABLE d (x);\n")
    let before = try Data(contentsOf: Self.template(project))
    let result = try project.strata("template", "--check", "--stamp", "stamp.swift")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("is stale against the migrations"))
    #expect(result.standardError.contains("it lacks migration 4 (d)"), "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "Help: Rebuild it: remove seeds/template.sqlite3 and run 'strata template --output "
          + "seeds/template.sqlite3'"
      ),
      "\(result.standardError)"
    )
    #expect(try Data(contentsOf: Self.template(project)) == before)
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("stamp.swift").path))
  }

  /// A migration edited since: exit 1 naming the migration and its file.
  @Test func editedMigrationFails() throws {
    let project = try Self.project()
    try project.write("0002_b.sql", "-- migrate:up\nCREATE TABLE b (x, y);\n")
    let result = try project.strata("template", "--check")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "it records migration 2 (b) with a checksum that differs from migrations/0002_b.sql now"
      ),
      "\(result.standardError)"
    )
  }

  /// A migration removed since, and rows written into the template: each named.
  @Test func removedMigrationAndWrittenRowsFail() throws {
    let project = try Self.project()
    try FileManager.default.removeItem(at: project.dir.path("migrations/0003_c.sql"))
    let removed = try project.strata("template", "--check")
    #expect(removed.exitCode == 1)
    #expect(
      removed.standardError.contains("it records migration 3 (c), whose file is not in"),
      "\(removed.standardError)"
    )

    let other = try Self.project()
    try Connection(path: Self.template(other).path).execute("INSERT INTO a VALUES (1)")
    let written = try other.strata("template", "--check")
    #expect(written.exitCode == 1)
    #expect(written.standardError.contains("table a differs"), "\(written.standardError)")
  }

  /// No template, and --check with --force or --stamp without --check: errors, nothing written.
  @Test func missingTemplateAndBadCombinations() throws {
    let project = try Project(threeMigrations)
    let missing = try project.strata("template", "--check")
    #expect(missing.exitCode == 1)
    #expect(
      missing.standardError.contains("does not exist, so it cannot be checked"),
      "\(missing.standardError)"
    )
    #expect(
      missing.standardError.contains("Help: Build it with 'strata template --output"),
      "\(missing.standardError)"
    )
    #expect(!FileManager.default.fileExists(atPath: Self.template(project).path))
    #expect(try project.strata("template", "--check", "--force").exitCode == 64)
    #expect(try project.strata("template", "--stamp", "s.swift").exitCode == 64)
    #expect(!FileManager.default.fileExists(atPath: Self.template(project).path))
  }

  /// A Flyway folder with a repeatable migration: current passes (the rebuild runs the
  /// repeatable too), and an edited repeatable is named.
  @Test func flywayRepeatables() throws {
    let project = try Project([
      "V1__a.sql": "CREATE TABLE a (x);\n",
      "R__v.sql": "CREATE VIEW IF NOT EXISTS v AS SELECT 1;\n",
    ])
    #expect(try project.strata("template").exitCode == 0)
    let current = try project.strata("template", "--check")
    #expect(current.exitCode == 0, "\(current.standardError)")
    try project.write("R__v.sql", "CREATE VIEW IF NOT EXISTS v AS SELECT 2;\n")
    let edited = try project.strata("template", "--check")
    #expect(edited.exitCode == 1)
    #expect(
      edited.standardError.contains(
        "it records the repeatable migration migrations/R__v.sql with a checksum that differs"
      ),
      "\(edited.standardError)"
    )
  }

  /// --format json says the template is current.
  @Test func jsonOutput() throws {
    let project = try Self.project()
    let result = try project.strata("template", "--check", "--format", "json")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("\"status\""), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("\"current\""), "\(result.standardOutput)")
  }
}
