import Foundation
import Strata
import StrataTestSupport
import Testing

/// Seeds at launch: `DatabaseSetup` syncs each table with its file (the default; a keyless
/// one by rowid), and an app update's changed seed file keeps the user's edits and
/// deletions. A UNIQUE collision with the user's row never fails the launch, a swap among the
/// file's rows applies, and a file wrong in itself fails with help for an app.
@Suite struct DatabaseSetupSeedSyncTests {
  let dir: TemporaryDirectory
  var database: URL { dir.path("Documents/data.sqlite3") }

  init() throws {
    dir = try TemporaryDirectory()
    try dir.write(
      "migrations/0001_init.sql",
      "CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);\n"
        + "CREATE TABLE person_info (name TEXT, age INTEGER);\n"
    )
    try dir.write("seeds/country.csv", "code,name\nFR,France\nDE,Germany\nIT,Italy\n")
    try dir.write("seeds/person_info.csv", "name,age\nPeter,22\nJack,20\n")
  }

  var setup: DatabaseSetup {
    var setup = DatabaseSetup(
      database: database,
      migrations: dir.path("migrations"),
      seeds: dir.path("seeds")
    )
    setup.seedsDisplayPath = "seeds"
    return setup
  }

  func rows(_ sql: String) throws -> [[SQLValue]] {
    try Connection(path: database.path).rows(sql)
  }

  @Test func firstLaunchSeedsBothAndTheSecondWritesNothing() throws {
    #expect(setup.seedMode == .sync)
    let first = try setup.run()
    #expect(first.seedFilesLoaded == ["seeds/country.csv", "seeds/person_info.csv"])
    #expect(try rows("SELECT count(*) FROM country") == [[.integer(3)]])
    #expect(try rows("SELECT count(*) FROM person_info") == [[.integer(2)]])
    let bytes = try Data(contentsOf: database)
    let second = try setup.run()
    #expect(!second.changedAnything)
    #expect(try Data(contentsOf: database) == bytes)
  }

  @Test func anUpdateWithAChangedSeedFileKeepsTheUsersEditsAndDeletions() throws {
    try setup.run()
    let connection = try Connection(path: database.path)
    try connection.execute(
      "UPDATE country SET name = 'La France' WHERE code = 'FR'; DELETE FROM country WHERE code = 'DE'"
    )
    // The update: Italy renamed, Spain added, Germany (deleted by the user) still in the file.
    try dir.write(
      "seeds/country.csv",
      "code,name\nFR,France!\nDE,Germany\nIT,Italia\nES,Spain\n"
    )
    let report = try setup.run()
    #expect(report.seedFilesLoaded == ["seeds/country.csv"])
    #expect(
      try rows("SELECT code, name FROM country ORDER BY code") == [
        [.text("ES"), .text("Spain")], [.text("FR"), .text("La France")],
        [.text("IT"), .text("Italia")],
      ]
    )
    #expect(try rows("SELECT count(*) FROM person_info") == [[.integer(2)]])
  }

  /// Was a `SetupError` (a changed keyless file was refused) until issue 31: it now syncs.
  @Test func aChangedKeylessFileAtLaunchSyncsAndKeepsTheUsersEdit() throws {
    try setup.run()
    try Connection(path: database.path).execute(
      "UPDATE person_info SET age = 23 WHERE name = 'Peter'"
    )
    try dir.write("seeds/person_info.csv", "name,age\nPeter,22\nJack,20\nTom,24\n")
    let report = try setup.run()
    #expect(report.seedProblem == nil)
    #expect(report.seedFilesLoaded == ["seeds/person_info.csv"])
    #expect(
      try rows("SELECT name, age FROM person_info ORDER BY rowid") == [
        [.text("Peter"), .integer(23)], [.text("Jack"), .integer(20)],
        [.text("Tom"), .integer(24)],
      ]
    )
  }

  @Test func theMissingModeKeepsTodaysBehaviour() throws {
    var setup = self.setup
    setup.seedMode = .missing
    try setup.run()
    try Connection(path: database.path).execute("DELETE FROM country WHERE code = 'FR'")
    try dir.write("seeds/country.csv", "code,name\nFR,France\nDE,Deutschland\nES,Spain\n")
    try setup.run()
    // missing: only new keys go in (FR comes back, DE is not updated, IT is not deleted).
    #expect(
      try rows("SELECT code, name FROM country ORDER BY code") == [
        [.text("DE"), .text("Germany")], [.text("ES"), .text("Spain")],
        [.text("FR"), .text("France")], [.text("IT"), .text("Italy")],
      ]
    )
  }

  // MARK: - Collisions on a UNIQUE value (a student table added by a second migration)

  func addStudentTable() throws {
    try dir.write(
      "migrations/0002_student.sql",
      "CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL UNIQUE);\n"
    )
  }

  func students() throws -> [[SQLValue]] {
    try Connection(path: database.path).rows("SELECT * FROM student ORDER BY stuID")
  }

  @Test func theUsersOwnRowNoLongerBlocksTheLaunch() throws {
    try addStudentTable()
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ann\n")
    try setup.run()
    try Connection(path: database.path).execute("INSERT INTO student VALUES ('U1', 'Dan')")
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ann\nS2,Dan\n")
    let report = try setup.run()
    #expect(report.seedFilesLoaded == ["seeds/student.csv"])
    #expect(try students() == [[.text("S1"), .text("Ann")], [.text("U1"), .text("Dan")]])
    // The next launch finds the file loaded and writes nothing.
    #expect(!(try setup.run().changedAnything))
  }

  @Test func aFileSwappingAUniqueValueBetweenTwoKeysSyncs() throws {
    try addStudentTable()
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ann\nS2,Ben\nS3,Cat\n")
    try setup.run()
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ben\nS2,Ann\nS3,Cat\n")
    #expect(try setup.run().seedFilesLoaded == ["seeds/student.csv"])
    #expect(
      try students() == [
        [.text("S1"), .text("Ben")], [.text("S2"), .text("Ann")], [.text("S3"), .text("Cat")],
      ]
    )
  }

  @Test func aWrongBundledFileFailsWithItsLineAndHelpForAnApp() throws {
    try addStudentTable()
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ann\n")
    try setup.run()
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ann\nS2,\n")
    // Issue 31: reported in the launch's report, the database open and migrated.
    let error = try setup.run().seedProblem
    #expect(error?.message.hasPrefix("seeds/student.csv:3: NOT NULL constraint failed") == true)
    let help = try #require(error?.help)
    #expect(help.hasSuffix("ship the corrected file in the app's next version."))
    #expect(!help.contains("loads the seed files not loaded yet"))
    #expect(error?.remedies.contains(.fixSeedFile) == true)
    #expect(try students() == [[.text("S1"), .text("Ann")]])
  }
}
