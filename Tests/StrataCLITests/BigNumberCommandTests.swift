import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 10, item 9: numbers too large for 64 bits are clear errors, never a trap.
@Suite struct BigNumberCommandTests {
  @Test func newAfterTheLargestVersionSaysWhatToDo() throws {
    let project = try Project([
      "9223372036854775807_last.sql": "-- migrate:up\nCREATE TABLE a (x);\n"
    ])
    let new = try project.strata("new", "next")
    #expect(new.exitCode == 1, "\(new.standardError)")
    #expect(new.standardError.contains("9223372036854775807_last.sql"), "\(new.standardError)")
    #expect(new.standardError.contains("largest a migration version can be"))
    #expect(new.standardError.contains("Help: "))
    let files = try FileManager.default.contentsOfDirectory(
      atPath: project.dir.path("migrations").path
    )
    #expect(files == ["9223372036854775807_last.sql"])
  }

  @Test func aVersionBeyond64BitsNamesTheFile() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
      "18446744073709551616_big.sql": "-- migrate:up\nCREATE TABLE b (x);\n",
    ])
    for command in ["migrate", "validate", "status"] {
      let result = try project.strata(command, "--database", "app.sqlite3")
      #expect(result.exitCode == 1, "\(command): \(result.standardError)")
      #expect(
        result.standardError.contains(
          "migrations/18446744073709551616_big.sql: the version number is larger than "
            + "9223372036854775807"
        ),
        "\(command): \(result.standardError)"
      )
    }
    let new = try project.strata("new", "next")
    #expect(new.exitCode == 1, "\(new.standardError)")
    #expect(new.standardError.contains("18446744073709551616_big.sql"))
    let exists = FileManager.default.fileExists(atPath: project.database.path)
    #expect(try (exists ? project.versions() : []) == [])
  }

  @Test func largeNumbersOnTheCommandLineAreUsageErrors() throws {
    let project = try Project(threeMigrations)
    for arguments in [
      ["migrate", "--to", "99999999999999999999"],
      ["rollback", "--steps", "99999999999999999999"],
      ["rollback", "--to", "-1"],
    ] {
      let result = try StrataProcess.run(
        arguments + ["--database", "app.sqlite3"],
        in: project.dir.url
      )
      #expect(result.exitCode == 64, "\(arguments): \(result.standardError)")
    }
    let huge = try project.strata(
      "rollback",
      "--database",
      "app.sqlite3",
      "--steps",
      "9223372036854775807"
    )
    #expect(huge.exitCode == 0 || huge.exitCode == 1, "\(huge.standardError)")
  }

  @Test func helpForAnUnknownCommandIsAUsageError() throws {
    let project = try Project()
    let result = try project.strata("help", "nosuch")
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("unknown command 'nosuch'"), "\(result.standardError)")
    let known = try project.strata("help", "migrate")
    #expect(known.exitCode == 0)
  }
}
