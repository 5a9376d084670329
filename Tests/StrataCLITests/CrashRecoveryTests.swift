import Foundation
import Strata
import StrataTestSupport
import Testing

/// What a user runs first after a crash (`status`, `inspect`, `validate`) must work on the file
/// the crash left, hot journal and all.
@Suite struct CrashRecoveryTests {
  @Test func readCommandsWorkRightAfterAKill() throws {
    let project = try Project.killedDuringSlowMigration()
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
    let project = try Project.killedDuringSlowMigration()
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
