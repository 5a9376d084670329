import Foundation
import Strata
import StrataTestSupport
import Testing

/// What a user runs first after a crash (`status`, `inspect`, `validate`) must work on the file
/// the crash left, hot journal and all.
@Suite struct CrashRecoveryTests {
  /// A project whose migration 2 writes long enough to be killed mid-way, migrated to 1, with
  /// a `migrate` killed while the rollback journal is hot.
  private static func crashedProject() throws -> Project {
    let project = try Project([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_slow.sql": """
      CREATE TABLE big (n INTEGER, filler TEXT);
      WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 3000000)
      INSERT INTO big SELECT n, hex(randomblob(16)) FROM c;
      """,
    ])
    let first = try project.strata("migrate", "--database", "app.sqlite3", "--to", "1")
    try #require(first.exitCode == 0, "\(first.standardError)")
    let journal = project.dir.path("app.sqlite3-journal")
    let process = try StrataProcess.start(
      ["migrate", "--database", "app.sqlite3"],
      in: project.dir.url
    )
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: journal.path), Date() < deadline {
      usleep(2_000)
    }
    usleep(200_000)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    try #require(process.terminationReason == .uncaughtSignal)
    try #require(FileManager.default.fileExists(atPath: journal.path), "no hot journal left")
    return project
  }

  @Test func readCommandsWorkRightAfterAKill() throws {
    let project = try Self.crashedProject()
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.exitCode == 0, "\(status.standardError)")
    #expect(status.standardOutput.contains("app.sqlite3 (version 1)"))
    let inspect = try project.strata("inspect", "--database", "app.sqlite3")
    #expect(inspect.exitCode == 0, "\(inspect.standardError)")
    #expect(!inspect.standardOutput.contains("big"))
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    // The interrupted write was rolled back: the old version, intact, no journal left.
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("app.sqlite3-journal").path))
    #expect(try DatabaseProbe.rows(project.database, "PRAGMA integrity_check") == [[.text("ok")]])
    #expect(try project.versions() == [1])
  }

  /// When strata may not write the file, it cannot roll the journal back: it says so, and
  /// leaves the file and its journal as they are.
  @Test func hotJournalOnAReadOnlyFileIsExplained() throws {
    let project = try Self.crashedProject()
    let journal = project.dir.path("app.sqlite3-journal")
    let before = try Data(contentsOf: project.database)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o444],
      ofItemAtPath: project.database.path
    )
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.exitCode == 1)
    #expect(status.standardError.contains("left its journal"))
    #expect(
      status.standardError.contains(
        "strata changed nothing, and the file together with its -journal still holds the last "
          + "committed state"
      )
    )
    #expect(status.standardError.contains("Help: Run the same command again with write access"))
    #expect(status.standardError.contains("copy or move the database only together with it"))
    #expect(try Data(contentsOf: project.database) == before)
    #expect(FileManager.default.fileExists(atPath: journal.path))
  }
}
