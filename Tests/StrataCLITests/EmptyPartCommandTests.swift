import Foundation
import Strata
import StrataTestSupport
import Testing

/// Parts without SQL through the real `strata`: no-ops applied and rolled back with a word,
/// and a file as `strata new` left it refused by every command until it is written.
@Suite struct EmptyPartCommandTests {
  @Test func rollbackOfAnEmptyDownPartSaysTheChangesStay() throws {
    let project = try Project([
      "1_a.up.sql": "CREATE TABLE a (x);\n", "1_a.down.sql": "",
      "2_mysql_only.up.sql": "-- MySQL only: ALTER TABLE ... ENGINE=InnoDB\n",
      "2_mysql_only.down.sql": "",
    ])
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(
      migrate.standardOutput.contains(
        "its up part has no SQL, so it is a no-op (recorded as applied)"
      ),
      "\(migrate.standardOutput)"
    )
    #expect(try project.versions() == [1, 2])
    let dryRun = try project.strata("rollback", "--database", "app.sqlite3", "--dry-run")
    #expect(
      dryRun.standardOutput.contains(
        "Would roll back migrations/2_mysql_only.down.sql: its down part has no SQL, so the "
          + "changes its up part made would stay"
      ),
      "\(dryRun.standardOutput)"
    )
    let json = try project.strata(
      "rollback",
      "--database",
      "app.sqlite3",
      "--to",
      "0",
      "--format",
      "json"
    )
    #expect(json.exitCode == 0, "\(json.standardError)")
    #expect(json.standardOutput.contains("\"isNoOp\" : true"), "\(json.standardOutput)")
    #expect(try project.versions() == [])
    // The table the up part made stays, and the folder applies again.
    #expect(try DatabaseProbe.tables(project.database).contains("a"))
    try Connection(path: project.database.path).execute("DROP TABLE a")
    let again = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(try project.versions() == [1, 2])
    let text = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(
      text.standardOutput.contains(
        "Rolled back migrations/2_mysql_only.down.sql ("
      )
        && text.standardOutput.contains(
          "its down part has no SQL, so the changes its up part made stay"
        ),
      "\(text.standardOutput)"
    )
  }

  @Test func aMigrationWithoutADownPartStaysIrreversible() throws {
    let project = try Project(["1_a.up.sql": "CREATE TABLE a (x);\n"])
    try project.strata("migrate", "--database", "app.sqlite3")
    let rollback = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(rollback.exitCode == 1)
    #expect(rollback.standardError.contains("has no down part; nothing was rolled back"))
    #expect(try project.versions() == [1])
  }

  /// Every command that reads the folder refuses a file as `strata new` left it, saying so;
  /// deleting its `-- strata:todo` lines makes its parts deliberate no-ops.
  @Test func everyCommandRefusesAFileAsNewLeftIt() throws {
    let project = try Project(["0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n"])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let created = try project.strata("new", "next")
    #expect(created.exitCode == 0, "\(created.standardError)")
    let file = project.dir.path("migrations/0002_next.sql")
    let written = try String(contentsOf: file, encoding: .utf8)
    #expect(written.contains("-- migrate:up\n-- strata:todo "), "\(written)")
    let commands: [[String]] = [
      ["migrate", "--database", "app.sqlite3"],
      ["rollback", "--database", "app.sqlite3"],
      ["status", "--database", "app.sqlite3"],
      ["validate"],
      ["template", "--output", "t.sqlite3"],
      ["init", "--database", "app.sqlite3"],
    ]
    for arguments in commands {
      let result = try StrataProcess.run(arguments, in: project.dir.url)
      #expect(result.exitCode == 1, "\(arguments)")
      #expect(
        result.standardError.contains(
          "migrations/0002_next.sql:2: the up part is still the empty template strata wrote for "
            + "it (no SQL, and its '-- strata:todo' line is still there); nothing was run"
        ),
        "\(arguments): \(result.standardError)"
      )
      #expect(result.standardError.contains("delete the line alone"), "\(result.standardError)")
    }
    #expect(try project.versions() == [1])
    let kept = written.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("-- strata:todo") }.joined(separator: "\n")
    try kept.write(to: file, atomically: true, encoding: .utf8)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try project.versions() == [1, 2])
  }
}
