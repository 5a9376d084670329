import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata seed --mode sync` and `strata init` end to end: the real binary, the rows in the
/// file, the exit code and the message.
@Suite struct SeedSyncCommandTests {
  /// The sample project's migrations and seeds, migrated (`SeedCommandTests`).
  func sampleProject() throws -> TemporaryDirectory {
    try SeedCommandTests().sampleProject()
  }

  /// `strata seed FILE --mode sync` on app.sqlite3.
  func syncFile(_ file: String, in folder: TemporaryDirectory) throws -> ProcessResult {
    try strata("seed", file, "--mode", "sync", "--database", "app.sqlite3", in: folder)
  }

  func strata(_ arguments: String..., in folder: TemporaryDirectory) throws -> ProcessResult {
    try StrataProcess.run(arguments, in: folder.url)
  }

  func students(_ folder: TemporaryDirectory) throws -> [[SQLValue]] {
    try DatabaseProbe.rows(
      folder.path("app.sqlite3"),
      "SELECT stuID, stuAge FROM student ORDER BY stuID"
    )
  }

  @Test func seedModeSyncFollowsTheFileAndKeepsTheUsersEdits() throws {
    let folder = try sampleProject()
    let first = try strata("seed", "--mode", "sync", "--database", "app.sqlite3", in: folder)
    #expect(first.exitCode == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("DELETED  KEPT"))
    // The user edits 00501's age and deletes 00502; the new file changes 00503's and
    // 00501's ages, drops 10001 and adds 10002.
    try Connection(path: folder.path("app.sqlite3").path).execute(
      "UPDATE student SET stuAge = 30 WHERE stuID = '00501'; DELETE FROM student WHERE stuID = '00502'"
    )
    try folder.write(
      "seeds/student.csv",
      """
      stuID,stuName,stuAge,stuClass,email
      00501,Ann Lee,20,A1,ann@example.com
      00502,Ben Carter,20,A1,
      00503,"Cruz, Dana",22,B2,dana@example.com
      10002,Fay Ortiz,19,B2,
      """
    )
    let second = try syncFile("seeds/student.csv", in: folder)
    #expect(second.exitCode == 0, "\(second.standardError)")
    #expect(
      second.standardOutput.contains(
        "1 inserted, 1 updated, 0 unchanged, 1 deleted, 2 kept because the user changed or "
          + "deleted them."
      ),
      "\(second.standardOutput)"
    )
    #expect(
      try students(folder) == [
        [.text("00501"), .integer(30)], [.text("00503"), .integer(22)],
        [.text("10002"), .integer(19)],
      ]
    )
  }

  @Test func aDuplicateKeyInASyncFileIsRefusedWithBothLines() throws {
    let folder = try sampleProject()
    try folder.write("seeds/student.csv", "stuID,stuName\nS1,Ann\nS1,Ben\n")
    let result = try syncFile("seeds/student.csv", in: folder)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("Error: seeds/student.csv:3: duplicate key"))
    #expect(try students(folder).isEmpty)
  }

  @Test func initSyncsAChangedSeedFileAndKeepsTheUsersDeletion() throws {
    let folder = try sampleProject()
    let first = try strata("init", "--database", "app.sqlite3", in: folder)
    #expect(first.exitCode == 0, "\(first.standardError)")
    try Connection(path: folder.path("app.sqlite3").path).execute(
      "DELETE FROM student WHERE stuID = '00502'"
    )
    try folder.write(
      "seeds/student.csv",
      "stuID,stuName,stuAge,stuClass,email\n00501,Ann Lee,20,A1,ann@example.com\n"
        + "00502,Ben Carter,20,A1,\n"
    )
    let second = try strata("init", "--database", "app.sqlite3", in: folder)
    #expect(second.exitCode == 0, "\(second.standardError)")
    #expect(second.standardOutput.contains("Loaded seeds/student.csv."))
    #expect(try students(folder) == [[.text("00501"), .integer(20)]])
    let third = try strata("init", "--database", "app.sqlite3", in: folder)
    #expect(third.standardOutput.contains("nothing was changed"), "\(third.standardOutput)")
  }
}
