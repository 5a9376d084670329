import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata seed` end to end: the real binary on the sample project and on bad files.
@Suite struct SeedCommandTests {
  /// The repository's root, for the sample project's migrations and seeds.
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A folder with the sample project's migrations and seeds, migrated.
  func sampleProject() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    for name in ["migrations", "seeds"] {
      try FileManager.default.copyItem(
        at: Self.repository.appendingPathComponent(name),
        to: folder.path(name)
      )
    }
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

  func count(_ folder: TemporaryDirectory, _ table: String) throws -> Int64? {
    try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM \(table)")
  }

  @Test func seedLoadsTheSampleProjectAndASecondRunInsertsNothing() throws {
    let folder = try sampleProject()
    try Data([0x53, 0x51, 0x4C]).write(to: folder.path("seeds/template.sqlite3"))
    let first = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(first.exitCode == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("person_info  seeds/person_info.csv"))
    #expect(
      first.standardOutput.contains("in one transaction: 12 inserted, 0 updated, 0 unchanged")
    )
    #expect(try count(folder, "person_info") == 8)
    #expect(try count(folder, "student") == 4)
    #expect(
      try DatabaseProbe.rows(
        folder.path("app.sqlite3"),
        "SELECT name, age FROM person_info WHERE name IN ('Peter', 'Jack', 'Tom') ORDER BY id"
      ) == [
        [.text("Peter"), .integer(22)], [.text("Jack"), .integer(20)],
        [.text("Tom"), .integer(24)],
      ]
    )
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT stuID FROM student LIMIT 1")
        == [[.text("00501")]]
    )

    let second = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3", "--format", "json"],
      in: folder.url
    )
    #expect(second.exitCode == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any]
    )
    let totals = try #require(json["totals"] as? [String: Any])
    #expect(totals["inserted"] as? Int == 0)
    #expect(totals["unchanged"] as? Int == 12)
    #expect(try count(folder, "person_info") == 8)
    #expect(try count(folder, "student") == 4)
    #expect(try count(folder, "strata_seeds") == 4)
  }

  @Test func oneFileWithATableOverrideAndTheSeedsOption() throws {
    let folder = try sampleProject()
    try folder.write("data/people.csv", "name,age\nZed,40\n")
    let override = try StrataProcess.run(
      ["seed", "data/people.csv", "--table", "person_info", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(override.exitCode == 0, "\(override.standardError)")
    #expect(override.standardOutput.contains("person_info  data/people.csv"))
    #expect(try count(folder, "person_info") == 1)

    try folder.write("other/student.csv", "stuID,stuName\nS1,Sam\n")
    let other = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3"],
      in: folder.url,
      environment: ["STRATA_SEEDS": "other"]
    )
    #expect(other.exitCode == 0, "\(other.standardError)")
    #expect(other.standardOutput.contains("other/student.csv"))
    #expect(try count(folder, "student") == 1)
  }

  @Test func aDryRunPrintsWhatWouldHappenAndChangesNothing() throws {
    let folder = try sampleProject()
    let result = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3", "--dry-run", "--mode", "upsert"],
      in: folder.url
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("WOULD INSERT"))
    #expect(result.standardOutput.contains("nothing was changed"))
    #expect(try count(folder, "person_info") == 0)
    #expect(try DatabaseProbe.tables(folder.path("app.sqlite3")).contains("strata_seeds") == false)
  }

  @Test func aBadRowExitsOneNamesFileLineAndColumnAndWritesNothing() throws {
    let folder = try sampleProject()
    try folder.write("seeds/student.csv", "stuID,stuName,stuAge\n1,Ann,19\n2,Ben,0x14\n")
    let result = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "Error: seeds/student.csv:3:7: column stuAge (INTEGER): the value is not a whole number; "
          + "nothing was seeded; the database is unchanged"
      )
    )
    #expect(result.standardError.contains("Help: "))
    #expect(result.standardOutput.isEmpty)
    #expect(try count(folder, "person_info") == 0)
    #expect(try count(folder, "student") == 0)
  }

  @Test func anInjectionHeaderIsReportedAsAnUnknownColumnAndNothingIsDropped() throws {
    let folder = try sampleProject()
    try folder.write(
      "seeds/person_info.csv",
      "\"name\"\"; DROP TABLE person_info; --\",age\nx,1\n"
    )
    let result = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("has no column named \"name\\\"; DROP TABLE person_info; --\"")
    )
    #expect(result.standardError.contains("(columns: id, name, age)"))
    #expect(try DatabaseProbe.tables(folder.path("app.sqlite3")).contains("person_info"))
  }

  @Test func usageErrorsExit64() throws {
    let folder = try sampleProject()
    let noFile = try StrataProcess.run(
      ["seed", "--table", "person_info", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(noFile.exitCode == 64)
    #expect(noFile.standardError.contains("--table needs exactly one FILE"))
    let badMode = try StrataProcess.run(["seed", "--mode", "merge"], in: folder.url)
    #expect(badMode.exitCode == 64)
    let help = try StrataProcess.run(["seed", "--help"], in: folder.url)
    #expect(help.exitCode == 0)
    #expect(help.standardOutput.contains("USAGE: strata seed [<file> ...] [<options>]"))
  }

  @Test func aMissingDatabaseOrSeedsFolderIsAClearError() throws {
    let folder = try TemporaryDirectory()
    let noSeeds = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(noSeeds.exitCode == 1)
    #expect(noSeeds.standardError.contains("seeds folder seeds does not exist"))
    try folder.write("seeds/person_info.csv", "name\nA\n")
    let noDatabase = try StrataProcess.run(["seed", "--database", "app.sqlite3"], in: folder.url)
    #expect(noDatabase.exitCode == 1)
    #expect(noDatabase.standardError.contains("no database at"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("app.sqlite3").path))
  }

  @Test func killedHalfwayThroughALargeFileLeavesNoRowsAndTheFileIntact() throws {
    let folder = try sampleProject()
    var text = "name,age\n"
    for id in 1...1_500_000 {
      text += id % 10 == 3 ? "\"Smith, \(id)\",\(id % 90)\n" : "Person \(id),\(id % 90)\n"
    }
    let csv = try folder.write("big/person_info.csv", text)
    let before = SHA256.hex(try Data(contentsOf: csv))
    let process = try StrataProcess.start(
      ["seed", "big/person_info.csv", "--mode", "append", "--database", "app.sqlite3"],
      in: folder.url
    )
    // Wait until the load is writing (its rollback journal exists), then kill it.
    let journal = folder.path("app.sqlite3-journal").path
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, !FileManager.default.fileExists(atPath: journal), Date() < deadline {
      usleep(2_000)
    }
    usleep(200_000)
    #expect(process.isRunning, "the load finished before it could be killed; use a larger file")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)

    #expect(try count(folder, "person_info") == 0)
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "PRAGMA integrity_check")
        == [[.text("ok")]]
    )
    #expect(SHA256.hex(try Data(contentsOf: csv)) == before)
    let again = try StrataProcess.run(
      ["seed", "big/person_info.csv", "--mode", "append", "--database", "app.sqlite3", "--quiet"],
      in: folder.url
    )
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(try count(folder, "person_info") == 1_500_000)
  }
}
