import Foundation
import Strata
import StrataTestSupport
import Testing

/// Databases in WAL mode: every command works on them and leaves them in WAL mode; and
/// migrations that switch the journal mode (outside a transaction) are applied and recorded.
@Suite struct WALModeTests {
  /// The sample project with `app.sqlite3` at `version` in WAL mode (unmanaged: tables and no
  /// history, for `baseline`).
  private static func walProject(version: Int = 3, unmanaged: Bool = false) throws -> Project {
    let project = try Project.sample()
    if unmanaged {
      try Connection(path: project.database.path).execute(
        "PRAGMA journal_mode = WAL; CREATE TABLE legacy (x)"
      )
    } else {
      let migrate = try project.strata("migrate", "--database", "app.sqlite3", "--to", "\(version)")
      try #require(migrate.exitCode == 0, "\(migrate.standardError)")
      try Connection(path: project.database.path).execute("PRAGMA journal_mode = WAL")
    }
    try #require(try journalMode(project) == "wal")
    return project
  }

  private static func journalMode(_ project: Project) throws -> String? {
    try DatabaseProbe.rows(project.database, "PRAGMA journal_mode").first?.first?.textValue
  }

  struct Case: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    var version = 3
    var unmanaged = false
    /// The applied versions afterwards.
    let versions: [Int64]
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(arguments: ["init"], versions: [1, 2, 3, 4, 5]),
    Case(arguments: ["migrate"], versions: [1, 2, 3, 4, 5]),
    Case(arguments: ["migrate", "--single-transaction"], versions: [1, 2, 3, 4, 5]),
    Case(arguments: ["migrate", "--to", "2"], versions: [1, 2]),
    Case(arguments: ["migrate", "--dry-run"], versions: [1, 2, 3]),
    Case(arguments: ["rollback"], versions: [1, 2]),
    Case(arguments: ["status"], versions: [1, 2, 3]),
    Case(arguments: ["validate"], versions: [1, 2, 3]),
    Case(arguments: ["baseline", "--version", "2"], unmanaged: true, versions: [1, 2]),
    Case(arguments: ["seed"], version: 5, versions: [1, 2, 3, 4, 5]),
    Case(arguments: ["inspect"], versions: [1, 2, 3]),
    Case(arguments: ["inspect", "--format", "json"], versions: [1, 2, 3]),
    Case(arguments: ["inspect", "--format", "sql"], versions: [1, 2, 3]),
    Case(arguments: ["inspect", "--format", "markdown"], versions: [1, 2, 3]),
    Case(arguments: ["inspect", "--format", "mermaid"], versions: [1, 2, 3]),
    Case(arguments: ["inspect", "--diff"], versions: [1, 2, 3]),
    Case(arguments: ["inspect", "--diff", "--format", "json"], versions: [1, 2, 3]),
  ]

  @Test(arguments: cases)
  func commandWorksAndKeepsWALMode(_ testCase: Case) throws {
    let project = try Self.walProject(version: testCase.version, unmanaged: testCase.unmanaged)
    let result = try StrataProcess.run(
      testCase.arguments + ["--database", "app.sqlite3"],
      in: project.dir.url
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try Self.journalMode(project) == "wal")
    #expect(try project.versions() == testCase.versions)
    #expect(try DatabaseProbe.rows(project.database, "PRAGMA integrity_check") == [[.text("ok")]])
    if testCase.arguments == ["seed"] || testCase.arguments == ["init"] {
      #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM student") == 4)
    }
  }

  /// `new` and `template` do not open the database; they work beside one in WAL mode and
  /// leave it as it was.
  @Test func newAndTemplateBesideAWALDatabase() throws {
    let project = try Self.walProject()
    let before = try DatabaseFingerprint.of(project.database)
    #expect(try project.strata("new", "add_nickname").exitCode == 0)
    try project.write(
      "0006_add_nickname.sql",
      "-- migrate:up\nALTER TABLE person_info ADD COLUMN nickname TEXT;\n"
        + "-- migrate:down\nALTER TABLE person_info DROP COLUMN nickname;\n"
    )
    let template = try project.strata("template")
    #expect(template.exitCode == 0, "\(template.standardError)")
    #expect(template.standardOutput.contains("at version 6"))
    #expect(try DatabaseFingerprint.of(project.database) == before)
    #expect(try Self.journalMode(project) == "wal")
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try project.versions() == [1, 2, 3, 4, 5, 6])
    #expect(try Self.journalMode(project) == "wal")
  }

  /// Migrations that switch the journal mode: to WAL, and later back to DELETE, each in a
  /// `transaction:false` part, recorded in the history, with `status --check` clean.
  @Test func migrationsSwitchTheJournalMode() throws {
    let project = try Project.sample()
    try project.write(
      "0006_wal.sql",
      """
      -- migrate:up transaction:false
      PRAGMA journal_mode = WAL;

      -- migrate:down transaction:false
      PRAGMA journal_mode = DELETE;
      """
    )
    try project.write(
      "0007_note.sql",
      "-- migrate:up\nCREATE TABLE note (body TEXT);\nINSERT INTO note VALUES ('in wal');\n"
        + "-- migrate:down\nDROP TABLE note;\n"
    )
    try project.write(
      "0008_delete.sql",
      """
      -- migrate:up transaction:false
      PRAGMA journal_mode = DELETE;

      -- migrate:down transaction:false
      PRAGMA journal_mode = WAL;
      """
    )
    let toWAL = try project.strata("migrate", "--database", "app.sqlite3", "--to", "7")
    #expect(toWAL.exitCode == 0, "\(toWAL.standardError)")
    #expect(try Self.journalMode(project) == "wal")
    #expect(try project.versions() == [1, 2, 3, 4, 5, 6, 7])
    #expect(try project.strata("status", "--database", "app.sqlite3", "--check").exitCode == 1)

    let toDelete = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(toDelete.exitCode == 0, "\(toDelete.standardError)")
    #expect(try Self.journalMode(project) == "delete")
    #expect(try project.versions() == [1, 2, 3, 4, 5, 6, 7, 8])
    let status = try project.strata("status", "--database", "app.sqlite3", "--check")
    #expect(status.exitCode == 0, "\(status.standardOutput)\(status.standardError)")
    #expect(status.standardOutput.contains("8 applied"))
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    let drift = try project.strata("inspect", "--diff", "--database", "app.sqlite3")
    #expect(drift.exitCode == 0, "\(drift.standardOutput)\(drift.standardError)")
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM note") == 1)
    // No -wal or -shm left beside the file.
    let names = try FileManager.default.contentsOfDirectory(atPath: project.dir.url.path)
    #expect(names.filter { $0.hasPrefix("app.sqlite3") } == ["app.sqlite3"])

    // And back down, through WAL, to version 5 in DELETE mode.
    let back = try project.strata("rollback", "--database", "app.sqlite3", "--to", "7")
    #expect(back.exitCode == 0, "\(back.standardError)")
    #expect(try Self.journalMode(project) == "wal")
    let down = try project.strata("rollback", "--database", "app.sqlite3", "--to", "5")
    #expect(down.exitCode == 0, "\(down.standardError)")
    #expect(try Self.journalMode(project) == "delete")
    #expect(try project.versions() == [1, 2, 3, 4, 5])
  }

  /// A template built from migrations that end in WAL mode is a WAL database; `init` copies
  /// it, and the new database is in WAL mode at the newest version.
  @Test func templateAndInitKeepWALFromMigrations() throws {
    let project = try Project.sample()
    try project.write(
      "0006_wal.sql",
      "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n"
    )
    let template = try project.strata("template")
    #expect(template.exitCode == 0, "\(template.standardError)")
    let first = try project.strata("init", "--database", "app.sqlite3")
    #expect(first.exitCode == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("from the template"))
    #expect(try Self.journalMode(project) == "wal")
    #expect(try project.versions() == [1, 2, 3, 4, 5, 6])
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM student") == 4)
    let again = try project.strata("init", "--database", "app.sqlite3")
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(again.standardOutput.contains("up to date"))
  }
}
