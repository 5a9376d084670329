import Foundation
import StrataTestSupport
import Testing

/// A dbmate-format folder whose versions have different widths runs in one order under strata
/// (numbers) and in the other under dbmate (names as text): the commands that apply or revert
/// it refuse it, unchanged, until it is zero-padded or its format is named.
@Suite struct DbmateOrderCommandTests {
  /// `10_b` needs `9_a`'s table: the order decides whether it works, as it would under dbmate.
  let files = [
    "9_a.sql": "-- migrate:up\nCREATE TABLE a (x PRIMARY KEY);\n",
    "10_b.sql": "-- migrate:up\nCREATE TABLE b (x REFERENCES a(x));\n",
  ]

  @Test func migrateRefusesAndNamesBothFilesAndTheFix() throws {
    let project = try Project(files)
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1, "\(result.standardOutput)\(result.standardError)")
    #expect(
      result.standardError.contains(
        "Error: migrations/9_a.sql and migrations/10_b.sql run in opposite orders under strata "
          + "and dbmate: strata compares versions as numbers and runs migrations/9_a.sql first, "
          + "dbmate sorts the names as text and runs migrations/10_b.sql first; nothing was run"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("rename 9_a.sql to 09_a.sql"), "\(result.standardError)")
    #expect(result.standardError.contains("--migration-format strata"))
    #expect(result.standardError.contains("change its schema_migrations row"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func anExistingDatabaseIsLeftByteForByte() throws {
    let project = try Project(["9_a.sql": files["9_a.sql"]!])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let before = try Data(contentsOf: project.database)
    try project.write("10_b.sql", files["10_b.sql"]!)
    for arguments in [["migrate"], ["rollback"], ["init"]] {
      let result = try StrataProcess.run(
        arguments + ["--database", "app.sqlite3"],
        in: project.dir.url
      )
      #expect(result.exitCode == 1, "\(arguments): \(result.standardError)")
      #expect(result.standardError.contains("run in opposite orders"), "\(result.standardError)")
    }
    #expect(try Data(contentsOf: project.database) == before)
    #expect(try project.versions() == [9])
  }

  @Test func templateRefusesToo() throws {
    let project = try Project(files)
    let result = try project.strata("template", "--output", "t.sqlite3")
    #expect(result.exitCode == 1, "\(result.standardError)")
    #expect(result.standardError.contains("run in opposite orders"), "\(result.standardError)")
  }

  @Test func namingTheFormatRunsTheNumbersOrder() throws {
    for name in ["strata", "dbmate"] {
      let project = try Project(files)
      let result = try project.strata(
        "migrate",
        "--database",
        "app.sqlite3",
        "--migration-format",
        name
      )
      #expect(result.exitCode == 0, "\(name): \(result.standardError)")
      #expect(try project.versions() == [9, 10])
      #expect(
        result.standardError.contains(
          "Warning: migrations/9_a.sql runs before migrations/10_b.sql as numbers, as strata runs "
            + "them; dbmate itself sorts the names and would run migrations/10_b.sql first."
        ),
        "\(result.standardError)"
      )
    }
  }

  @Test func paddedVersionsAndNumericFormatsRunAsBefore() throws {
    let padded = try Project([
      "09_a.sql": files["9_a.sql"]!, "10_b.sql": files["10_b.sql"]!,
    ])
    #expect(try padded.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    #expect(try padded.versions() == [9, 10])
    // golang-migrate compares numbers, as strata does: nothing to choose between.
    let golang = try Project([
      "9_a.up.sql": "CREATE TABLE a (x PRIMARY KEY);",
      "10_b.up.sql": "CREATE TABLE b (x REFERENCES a(x));",
    ])
    let result = try golang.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try golang.versions() == [9, 10])
  }

  /// dbmate compares whole names: `10_a.sql` sorts before `1_z.sql` ('0' before '_'), though
  /// the digits "1" and "10" sort as the numbers do.
  @Test func wholeNamesAreComparedAsDbmateComparesThem() throws {
    let project = try Project([
      "1_z.sql": "-- migrate:up\nCREATE TABLE z (x);\n",
      "10_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
    ])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/1_z.sql and migrations/10_a.sql run in opposite orders"
      ),
      "\(result.standardError)"
    )
    let validate = try project.strata("validate", "--files-only")
    #expect(validate.exitCode == 0)
    #expect(
      validate.standardError.contains("sorted as text '10_a.sql' comes before '1_z.sql'"),
      "\(validate.standardError)"
    )
    #expect(validate.standardError.contains("migrate, rollback, init and template refuse"))
  }
}
