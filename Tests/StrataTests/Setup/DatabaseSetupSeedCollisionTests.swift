import Foundation
import Strata
import StrataTestSupport
import Testing

/// A launch whose changed seed file collides on a UNIQUE value never fails for it: with the
/// user's own row the seed row is kept, a swap among the file's rows applies. A file that is
/// wrong in itself still fails, with help for an app (the next version must fix the file).
@Suite struct DatabaseSetupSeedCollisionTests {
  let dir: TemporaryDirectory
  var database: URL { dir.path("Documents/data.sqlite3") }

  init() throws {
    dir = try TemporaryDirectory()
    try dir.write(
      "migrations/0001_init.sql",
      "CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL UNIQUE);\n"
    )
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

  func students() throws -> [[SQLValue]] {
    try Connection(path: database.path).rows("SELECT * FROM student ORDER BY stuID")
  }

  @Test func theUsersOwnRowNoLongerBlocksTheLaunch() throws {
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
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ann\n")
    try setup.run()
    try dir.write("seeds/student.csv", "stuID,stuName\nS1,Ann\nS2,\n")
    let error = #expect(throws: SetupError.self) { try setup.run() }
    #expect(error?.message.hasPrefix("seeds/student.csv:3: NOT NULL constraint failed") == true)
    let help = try #require(error?.help)
    #expect(help.hasSuffix("ship the corrected file in the app's next version."))
    #expect(!help.contains("loads the seed files not loaded yet"))
    #expect(error?.remedies.contains(.fixSeedFile) == true)
    #expect(try students() == [[.text("S1"), .text("Ann")]])
  }
}
