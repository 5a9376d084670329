import Foundation
import Strata
import StrataTestSupport
import Testing

/// Paths whose real problem used to be reported as something else ("does not exist yet",
/// "is a directory", a raw Foundation error, or "Fix the file" about a migration).
@Suite struct PathProblemTests {
  @Test(arguments: [["status"], ["migrate"], ["validate"], ["init"], ["inspect"]])
  func aSymbolicLinkLoopIsNamed(_ command: [String]) throws {
    let project = try Project.sample()
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("loop.sqlite3").path,
      withDestinationPath: "loop.sqlite3"
    )
    let result = try StrataProcess.run(
      command + ["--database", "loop.sqlite3"],
      in: project.dir.url,
      timeout: 60
    )
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("symbolic link loop"), "\(result.standardError)")
    #expect(!result.standardOutput.contains("does not exist"))
    #expect(result.standardError.contains("Help: "))
  }

  @Test func aDanglingSymbolicLinkIsNamed() throws {
    let project = try Project.sample()
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("app.sqlite3").path,
      withDestinationPath: "gone/app.sqlite3"
    )
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("symbolic link to gone/app.sqlite3, which does not exist")
    )
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("gone").path))
  }

  @Test(arguments: ["status", "migrate", "seed", "validate"])
  func anEmptyDatabaseOptionIsAUsageError(_ command: String) throws {
    let project = try Project.sample()
    let result = try project.strata(command, "--database=")
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("--database needs a path"))
    #expect(!result.standardError.contains("is a directory"))
  }

  @Test func aDocumentsFolderThatIsAFileIsNamed() throws {
    let project = try Project.sample()
    try project.dir.write("Documents", "not a folder\n")
    let result = try project.strata("migrate")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("Documents is a file, not a folder"))
    #expect(result.standardError.contains("Help: "))
    #expect(
      try String(contentsOf: project.dir.path("Documents"), encoding: .utf8) == "not a folder\n"
    )
  }

  /// Run as root, a link to a database in a read-only folder used to pass the folder check
  /// (the link's own folder is writable) and write a journal into the read-only folder.
  @Test func aLinkToADatabaseInAReadOnlyFolderNamesThatFolder() throws {
    let project = try Project.sample()
    try FileManager.default.createDirectory(
      at: project.dir.path("ro"),
      withIntermediateDirectories: true
    )
    #expect(
      try project.strata("migrate", "--database", "ro/app.sqlite3", "--to", "4").exitCode == 0
    )
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o555],
      ofItemAtPath: project.dir.path("ro").path
    )
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o755],
        ofItemAtPath: project.dir.path("ro").path
      )
    }
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("link.sqlite3").path,
      withDestinationPath: "ro/app.sqlite3"
    )
    let result = try project.strata("migrate", "--database", "link.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("(a symbolic link to "))
    #expect(result.standardError.contains("/ro is not writable"))
    #expect(!result.standardError.contains("Fix the file"))
    let versions = try DatabaseProbe.rows(
      project.dir.path("ro/app.sqlite3"),
      "SELECT version FROM strata_migrations"
    )
    #expect(versions.count == 4)
  }

  /// As `nobody`, for whom the kernel enforces permissions: a database in a folder that cannot
  /// be searched was reported as "does not exist yet" with exit 0.
  @Test(.enabled(if: ReadOnlyLocationTests.canRunAsNobody))
  func aDatabaseInAFolderWithoutSearchPermissionIsNamed() throws {
    let project = try Project.sample()
    try FileManager.default.createDirectory(
      at: project.dir.path("db"),
      withIntermediateDirectories: true
    )
    #expect(try project.strata("migrate", "--database", "db/app.sqlite3").exitCode == 0)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755],
      ofItemAtPath: project.dir.url.path
    )
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600],
      ofItemAtPath: project.dir.path("db").path
    )
    for command in [["status"], ["migrate"], ["validate"]] {
      let result = try StrataProcess.run(
        command + ["--database", "db/app.sqlite3"],
        in: project.dir.url,
        launcher: ReadOnlyLocationTests.nobody,
        timeout: 60
      )
      #expect(result.exitCode == 1, "\(command): \(result.standardOutput)")
      #expect(result.standardError.contains("cannot be searched"), "\(result.standardError)")
      #expect(!result.standardOutput.contains("does not exist"))
    }
  }

  /// Item 14: a relative XDG_DOCUMENTS_DIR is invalid by the XDG spec and ignored, so the
  /// default database does not depend on the working directory.
  @Test func aRelativeXDGDocumentsDirIsIgnored() throws {
    let project = try Project.sample()
    let result = try project.strata("migrate", environment: ["XDG_DOCUMENTS_DIR": "docs"])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(FileManager.default.fileExists(atPath: project.dir.path("Documents/data.sqlite3").path))
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("docs").path))
  }
}
