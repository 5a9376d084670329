import Foundation
import StrataTestSupport
import Testing

/// `--exclude GLOB` on every command that reads the migrations folder, and `init`'s
/// `--migration-format`.
@Suite struct ExcludeCommandTests {
  static let files = [
    "00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n-- +goose Down\nDROP TABLE a;\n",
    "00002_seed.go": "package migrations\n",
    "00003_c.sql": "-- +goose Up\nCREATE TABLE c (x);\n-- +goose Down\nDROP TABLE c;\n",
  ]

  @Test func aGoMigrationIsNamedAndExcludeLetsEveryCommandRun() throws {
    let project = try Project(Self.files)
    let refused = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError.contains(
        "migrations/00002_seed.go carries a migration version but is not an SQL file strata can "
          + "run, so a run would miss that step; nothing was run"
      ),
      "\(refused.standardError)"
    )
    #expect(refused.standardError.contains("pass --exclude '00002_seed.go'"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
    let refusing: [[String]] = [
      ["status", "--database", "app.sqlite3"], ["validate"], ["template"],
      ["init", "--database", "app.sqlite3"],
    ]
    for arguments in refusing {
      let result = try StrataProcess.run(arguments, in: project.dir.url)
      #expect(result.exitCode == 1, "\(arguments): \(result.standardError)")
      #expect(result.standardError.contains("00002_seed.go"), "\(arguments)")
    }
    #expect(try project.strata("new", "next").exitCode == 1)

    let exclude = ["--exclude", "*.go"]
    let runs: [[String]] = [
      ["migrate", "--database", "app.sqlite3"],
      ["status", "--database", "app.sqlite3"],
      ["validate", "--database", "app.sqlite3"],
      ["rollback", "--database", "app.sqlite3"],
      ["init", "--database", "app.sqlite3"],
      ["inspect", "--database", "app.sqlite3", "--diff"],
      ["template", "--output", "t.sqlite3"],
      ["new", "next"],
    ]
    for arguments in runs {
      let result = try StrataProcess.run(arguments + exclude, in: project.dir.url)
      #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
    }
    #expect(try project.versions() == [1, 3])
    #expect(
      FileManager.default.fileExists(atPath: project.dir.path("migrations/00004_next.sql").path)
    )
  }

  @Test func excludeIsRepeatableAndTakesAName() throws {
    var files = Self.files
    files["00004_more.py"] = "print(1)\n"
    let project = try Project(files)
    let result = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--exclude",
      "00002_seed.go",
      "--exclude",
      "00004_*"
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try project.versions() == [1, 3])
  }

  @Test func initReadsTheNamedMigrationFormat() throws {
    let project = try Project(["1_a.sql": "CREATE TABLE a (x);\n"])
    let forced = try project.strata(
      "init",
      "--database",
      "app.sqlite3",
      "--migration-format",
      "golang-migrate"
    )
    #expect(forced.exitCode == 1)
    #expect(
      forced.standardError.contains("golang-migrate reads only <version>_<name>.up.sql"),
      "\(forced.standardError)"
    )
    let detected = try project.strata("init", "--database", "app.sqlite3")
    #expect(detected.exitCode == 0, "\(detected.standardError)")
    #expect(try project.versions() == [1])
  }
}
