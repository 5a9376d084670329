import Foundation
import Strata
import StrataTestSupport
import Testing

/// `status` keeps a copy of a folder whose files have been still for a few seconds, and of a
/// database's history likewise, and reads them instead of the files and the database while
/// none of those has changed: what it prints never differs.
@Suite struct StatusCacheTests {
  static let files = [
    "0001_people.sql":
      "-- migrate:up\nCREATE TABLE people (name TEXT);\n-- migrate:down\nDROP TABLE people;\n",
    "0002_pets.sql":
      "-- migrate:up\nCREATE TABLE pets (name TEXT);\n-- migrate:down\nDROP TABLE pets;\n",
  ]

  /// A migrated project whose files have been still long enough to be kept, and its own
  /// cache folder.
  static func settledProject(
    migrating: [String] = []
  ) async throws -> (Project, [String: String]) {
    let project = try Project(files)
    // Copies are kept only under folders no other user can write: so under any umask.
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o700],
      ofItemAtPath: project.dir.url.path
    )
    let migrate = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3"] + migrating,
      in: project.dir.url,
      environment: [:]
    )
    try #require(migrate.exitCode == 0, "\(migrate.standardError)")
    // Waited without holding a thread (the other tests run meanwhile).
    try await Task.sleep(for: .milliseconds(3200))
    return (project, ["XDG_CACHE_HOME": project.dir.path("cache").path])
  }

  static func copies(_ project: Project) -> [String] {
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
        return (result, try Self.copyInodes(project))
      }
      let expected = runs[0].0
      #expect(expected.exitCode == 0)
      for (result, _) in runs.dropFirst() {
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == expected.standardOutput)
        #expect(result.standardError == expected.standardError)
      }
      // A run that read the files or the database would have written its copy again (a new
      // file, renamed over the old one); the third read both copies instead.
      #expect(runs[1].1.count == 2)
      #expect(runs[2].1 == runs[1].1)
    }
    // The folder's copy and the database's.
    #expect(Self.copies(project).count == 2)
  }

  /// The inodes of the project's kept copies, by name.
  private static func copyInodes(_ project: Project) throws -> [Int] {
    try copies(project).sorted().map { name in
      let path = project.dir.path("cache/strata/status/" + name).path
      return try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        ?? -1
    }
  }

  @Test func aMigrateOrARollbackSinceTheCopyIsShownAtOnce() async throws {
    let (project, cache) = try await Self.settledProject(migrating: ["--to", "1"])
    let status = { try project.strata("status", "--database", "app.sqlite3", environment: cache) }
    #expect(try status().standardOutput.contains("1 applied, 1 pending"))
    #expect(Self.copies(project).count == 2)
    #expect(try status().standardOutput.contains("1 applied, 1 pending"))
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let migrated = try status()
    #expect(migrated.standardOutput.contains("2 applied\n"), "\(migrated.standardOutput)")
    #expect(migrated.standardOutput.contains("(version 2)"))
    #expect(try project.strata("rollback", "--database", "app.sqlite3").exitCode == 0)
    let rolledBack = try status()
    #expect(rolledBack.standardOutput.contains("1 applied, 1 pending"))
  }

  @Test func aRowEditedWithTheTimePutBackIsStillReported() async throws {
    let (project, cache) = try await Self.settledProject()
    let database = project.dir.path("app.sqlite3")
    #expect(
      try project.strata("status", "--database", "app.sqlite3", environment: cache).exitCode == 0
    )
    #expect(Self.copies(project).count == 2)
    let before = try FileManager.default.attributesOfItem(atPath: database.path)
    try keepingModificationTime(ofFileAt: database.path) {
      // Another checksum of the same length: the file keeps its size.
      let db = try Connection.open(at: database, access: .write)
      try db.execute(
        "UPDATE strata_migrations SET checksum = replace(checksum, substr(checksum, 1, 1), 'x') "
          + "WHERE version = 2"
      )
    }
    let after = try FileManager.default.attributesOfItem(atPath: database.path)
    #expect(after[.size] as? Int == before[.size] as? Int)
    #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    try Self.expectChanged(project, cache)
  }

  /// `status --check` sees migration 2 changed (and exits 1), whatever the copies held.
  private static func expectChanged(_ project: Project, _ cache: [String: String]) throws {
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

  @Test func anEditThatKeepsTheSizeAndTheTimeIsStillReported() async throws {
    let (project, cache) = try await Self.settledProject()
    #expect(
      try project.strata("status", "--database", "app.sqlite3", environment: cache).exitCode == 0
    )
    #expect(Self.copies(project).count == 2)
    let file = project.dir.path("migrations/0002_pets.sql")
    let date = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
    try Data(Self.files["0002_pets.sql"]!.replacingOccurrences(of: "name", with: "nick").utf8)
      .write(to: file)
    try FileManager.default.setAttributes([.modificationDate: date!], ofItemAtPath: file.path)
    try Self.expectChanged(project, cache)
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
