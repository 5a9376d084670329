import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata lint` through the binary: text and JSON output, exit codes 0, 1 and 64, a database
/// with migrations applied, goose and sql-migrate folders, and `validate`'s warnings.
@Suite struct LintCommandTests {
  private static let risky = """
    -- migrate:up
    DROP TABLE pet;
    INSERT OR REPLACE INTO person (id, name) VALUES (1, 'a');
    -- migrate:down
    SELECT 1;

    """

  private func project(_ files: [String: String]) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    for (name, text) in files { try folder.write("migrations/\(name)", text) }
    return folder
  }

  @Test func textOutputNamesFileLineAndRuleAndExitsOne() throws {
    let folder = try project(["0001_base.sql": LintMigrations.base, "0002_risky.sql": Self.risky])
    let result = try StrataProcess.run(["lint", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 7, "\(result.standardOutput)")
    #expect(lines.first == "migrations/0002_risky.sql:2: drop-table: drops table pet and its rows")
    #expect(lines.dropFirst().first?.hasPrefix("Help: ") == true)
    #expect(
      lines.dropFirst(2).first?.hasPrefix("migrations/0002_risky.sql:3: insert-or-replace: ")
        == true
    )
    #expect(
      lines.dropFirst(4).first?.hasPrefix(
        "migrations/0002_risky.sql:3: data-with-schema-change: inserts into person in a "
      ) == true
    )
    #expect(lines.last == "3 findings in 2 pending migrations")
    // The database was not created.
    #expect(!FileManager.default.fileExists(atPath: folder.path("app.sqlite3").path))
  }

  @Test func noFindingsExitsZeroAndQuietPrintsNothing() throws {
    let folder = try project(["0001_base.sql": LintMigrations.base])
    let result = try StrataProcess.run(["lint", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "No findings in 1 pending migration\n")
    let quiet = try StrataProcess.run(["lint", "--database", "app.sqlite3", "-q"], in: folder.url)
    #expect(quiet.exitCode == 0)
    #expect(quiet.standardOutput == "")
  }

  @Test func jsonHasTheFindingsAndASummary() throws {
    let folder = try project(["0001_base.sql": LintMigrations.base, "0002_risky.sql": Self.risky])
    let result = try StrataProcess.run(
      ["lint", "--database", "app.sqlite3", "--format", "json"],
      in: folder.url
    )
    #expect(result.exitCode == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    )
    let findings = try #require(object["findings"] as? [[String: Any]])
    #expect(findings.count == 3)
    #expect(findings[0]["file"] as? String == "migrations/0002_risky.sql")
    #expect(findings[0]["line"] as? Int == 2)
    #expect(findings[0]["rule"] as? String == "drop-table")
    #expect((findings[0]["help"] as? String)?.isEmpty == false)
    #expect(findings[1]["rule"] as? String == "insert-or-replace")
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(summary["findings"] as? Int == 3)
    #expect(summary["pendingMigrations"] as? Int == 2)
  }

  @Test(arguments: [["lint", "--databse", "x.sqlite3"], ["lint", "extra"]])
  func aUsageErrorExitsSixtyFour(arguments: [String]) throws {
    let folder = try project(["0001_base.sql": LintMigrations.base])
    let result = try StrataProcess.run(arguments, in: folder.url)
    #expect(result.exitCode == 64, "\(result.standardError)")
  }

  @Test func onlyTheMigrationsPendingInTheDatabaseAreLinted() throws {
    let folder = try project(["0001_base.sql": LintMigrations.base, "0002_risky.sql": Self.risky])
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    try folder.write(
      "migrations/0003_vacuum.sql",
      "-- migrate:up\nCREATE TABLE toy (id INTEGER PRIMARY KEY);\nVACUUM;\n"
    )
    let result = try StrataProcess.run(["lint", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.hasPrefix(
        "migrations/0003_vacuum.sql:3: needs-no-transaction: VACUUM cannot run inside"
      ),
      "\(result.standardOutput)"
    )
    #expect(result.standardOutput.hasSuffix("1 finding in 1 pending migration\n"))
  }

  @Test func gooseAndSQLMigrateUpPartsAreLintedAndTheirDownPartsAreNot() throws {
    let sql =
      "CREATE TABLE a (id INTEGER PRIMARY KEY);\nCREATE TABLE b (a INTEGER REFERENCES a(id));\n"
    let folders = [
      ("00001_a.sql", "-- +goose Up\n\(sql)-- +goose Down\nDROP TABLE b;\nDROP TABLE a;\n"),
      ("1_a.sql", "-- +migrate Up\n\(sql)-- +migrate Down\nDROP TABLE b;\nDROP TABLE a;\n"),
    ]
    for (file, text) in folders {
      let folder = try project([file: text])
      let result = try StrataProcess.run(["lint"], in: folder.url)
      #expect(result.exitCode == 1, "\(result.standardError)")
      #expect(
        result.standardOutput.hasPrefix("migrations/\(file):3: unindexed-foreign-key: "),
        "\(result.standardOutput)"
      )
      #expect(result.standardOutput.hasSuffix("1 finding in 1 pending migration\n"))
    }
  }

  @Test func aStatementThatFailsInTheReplayStopsItWithExitOne() throws {
    let folder = try project([
      "0001_base.sql": LintMigrations.base,
      "0002_bad.sql": "-- migrate:up\nDROP TABLE pet;\nSELEC 1;\n",
    ])
    let result = try StrataProcess.run(["lint"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardOutput.hasPrefix("migrations/0002_bad.sql:2: drop-table: "))
    #expect(
      result.standardError.hasPrefix(
        "Error: the lint's replay of the migrations stopped at migrations/0002_bad.sql:3 ("
      ),
      "\(result.standardError)"
    )
    #expect(
      result.standardOutput.hasSuffix(
        "1 finding before the replay stopped, in 2 pending migrations\n"
      )
    )
  }

  @Test func validateShowsTheFindingsAsWarningsAndKeepsItsExitCode() throws {
    let folder = try project(["0001_base.sql": LintMigrations.base, "0002_risky.sql": Self.risky])
    let text = try StrataProcess.run(["validate", "--files-only"], in: folder.url)
    #expect(text.exitCode == 0, "\(text.standardError)")
    #expect(
      text.standardError.contains(
        "Warning: migrations/0002_risky.sql:2: drop-table: drops table pet and its rows\nHelp: "
      ),
      "\(text.standardError)"
    )
    let json = try StrataProcess.run(
      ["validate", "--files-only", "--format", "json"],
      in: folder.url
    )
    #expect(json.exitCode == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    )
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(
      warnings.map { $0["rule"] as? String } == [
        "drop-table", "insert-or-replace", "data-with-schema-change",
      ]
    )
  }
}
