import Foundation
import Strata
import StrataTestSupport
import Testing

/// `status` keeps a copy of a folder whose files have been still for a few seconds, and reads
/// it instead of the files while none of them has changed: what it prints never differs.
@Suite struct StatusCacheTests {
  static let files = [
    "0001_people.sql":
      "-- migrate:up\nCREATE TABLE people (name TEXT);\n-- migrate:down\nDROP TABLE people;\n",
    "0002_pets.sql": "-- migrate:up\nCREATE TABLE pets (name TEXT);\n",
  ]

  /// A migrated project whose files have been still long enough to be kept, and its own
  /// cache folder.
  private static func settledProject() async throws -> (Project, [String: String]) {
    let project = try Project(files)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    try #require(migrate.exitCode == 0, "\(migrate.standardError)")
    // Waited without holding a thread (the other tests run meanwhile).
    try await Task.sleep(for: .milliseconds(3200))
    return (project, ["XDG_CACHE_HOME": project.dir.path("cache").path])
  }

  private static func copies(_ project: Project) -> [String] {
    (try? FileManager.default.contentsOfDirectory(
      atPath: project.dir.path("cache/strata/status").path
    ))
      ?? []
  }

  @Test func theSecondStatusReadsTheCopyAndPrintsTheSame() async throws {
    let (project, cache) = try await Self.settledProject()
    for format in ["text", "json"] {
      // Without the cache, then the run that keeps the copy, then the one that reads it.
      let runs = try [["STRATA_NO_CACHE": "1"], cache, cache].map { environment in
        let result = try project.strata(
          "status",
          "--database",
          "app.sqlite3",
          "--format",
          format,
          environment: environment
        )
        return (result, try Self.copyInode(project))
      }
      let expected = runs[0].0
      #expect(expected.exitCode == 0)
      for (result, _) in runs.dropFirst() {
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == expected.standardOutput)
        #expect(result.standardError == expected.standardError)
      }
      // A run that read the files would have written the copy again (a new file, renamed
      // over the old one); the third read it instead.
      #expect(runs[1].1 != nil)
      #expect(runs[2].1 == runs[1].1)
    }
    #expect(Self.copies(project).count == 1)
  }

  /// The inode of the project's one kept copy, nil while there is none.
  private static func copyInode(_ project: Project) throws -> Int? {
    guard let name = copies(project).first else { return nil }
    let path = project.dir.path("cache/strata/status/" + name).path
    return try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
  }

  @Test func anEditThatKeepsTheSizeAndTheTimeIsStillReported() async throws {
    let (project, cache) = try await Self.settledProject()
    #expect(
      try project.strata("status", "--database", "app.sqlite3", environment: cache).exitCode == 0
    )
    #expect(Self.copies(project).count == 1)
    let file = project.dir.path("migrations/0002_pets.sql")
    let date = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
    try Data(Self.files["0002_pets.sql"]!.replacingOccurrences(of: "name", with: "nick").utf8)
      .write(to: file)
    try FileManager.default.setAttributes([.modificationDate: date!], ofItemAtPath: file.path)
    let result = try project.strata(
      "status",
      "--database",
      "app.sqlite3",
      "--check",
      environment: cache
    )
    #expect(result.exitCode == 1)
    #expect(result.standardOutput.contains("1 applied, 1 changed"), "\(result.standardOutput)")
  }

  @Test func aFileAddedSinceTheCopyIsPending() async throws {
    let (project, cache) = try await Self.settledProject()
    #expect(
      try project.strata("status", "--database", "app.sqlite3", environment: cache).exitCode == 0
    )
    try project.write("0003_toys.sql", "-- migrate:up\nCREATE TABLE toys (x);\n")
    let result = try project.strata("status", "--database", "app.sqlite3", environment: cache)
    #expect(result.standardOutput.contains("2 applied, 1 pending"), "\(result.standardOutput)")
  }

  @Test func noCacheTurnsItOffAndOtherCommandsNeverKeepACopy() async throws {
    let (project, cache) = try await Self.settledProject()
    var off = cache
    off["STRATA_NO_CACHE"] = "1"
    #expect(
      try project.strata("status", "--database", "app.sqlite3", environment: off).exitCode == 0
    )
    for command in ["migrate", "validate"] {
      #expect(
        try project.strata(command, "--database", "app.sqlite3", environment: cache).exitCode == 0
      )
    }
    #expect(Self.copies(project).isEmpty)
  }

  @Test func aCacheFolderThatCannotBeWrittenChangesNothing() async throws {
    let (project, _) = try await Self.settledProject()
    try project.dir.write("not-a-folder", "a file where the cache folder would be\n")
    let blocked = ["XDG_CACHE_HOME": project.dir.path("not-a-folder").path]
    let result = try project.strata("status", "--database", "app.sqlite3", environment: blocked)
    #expect(result.exitCode == 0)
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    #expect(result.standardOutput.contains("2 applied"))
  }
}
