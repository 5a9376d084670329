import Foundation
import Strata
import StrataTestSupport
import Testing

/// Paths whose real problem was reported as something else (issue 10, item 10, second round):
/// an unreadable database as "not an SQLite database", an unlistable folder as a raw Foundation
/// error about UTF-8, a device or a file as a missing folder.
@Suite struct PathPermissionTests {
  static let nobody = ReadOnlyLocationTests.nobody
  static let canRunAsNobody = ReadOnlyLocationTests.canRunAsNobody

  private static func setMode(_ mode: Int, _ url: URL) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
  }

  /// The sample project, migrated, in a folder anyone may write.
  private static func migratedProject() throws -> Project {
    let project = try Project.sample()
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    try #require(migrate.exitCode == 0, "\(migrate.standardError)")
    try setMode(0o777, project.dir.url)
    return project
  }

  // MARK: - Defect 1: a database this user may not read

  @Test(.enabled(if: canRunAsNobody), arguments: ["status", "migrate", "validate", "init"])
  func anUnreadableDatabaseIsReportedAsPermissionDenied(_ command: String) throws {
    let project = try Self.migratedProject()
    let before = try Data(contentsOf: project.database)
    try Self.setMode(0o000, project.database)
    let result = try StrataProcess.run(
      [command, "--database", "app.sqlite3"],
      in: project.dir.url,
      launcher: Self.nobody,
      timeout: 60
    )
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("permission denied"), "\(result.standardError)")
    #expect(result.standardError.contains("app.sqlite3"))
    #expect(result.standardError.contains("nothing was changed"))
    #expect(result.standardError.contains("Help: Check the file's permissions"))
    #expect(!result.standardError.contains("not an SQLite database"))
    try Self.setMode(0o644, project.database)
    #expect(try Data(contentsOf: project.database) == before)
    #expect(!FileManager.default.fileExists(atPath: project.database.path + "-journal"))
  }

  // MARK: - Defect 2: a folder this user may not list

  @Test(.enabled(if: canRunAsNobody), arguments: [0o000, 0o711])
  func anUnlistableMigrationsFolderIsNamed(_ mode: Int) throws {
    let project = try Self.migratedProject()
    try Self.setMode(mode, project.dir.path("migrations"))
    defer { try? Self.setMode(0o755, project.dir.path("migrations")) }
    for command in ["status", "migrate", "validate"] {
      let result = try StrataProcess.run(
        [command, "--database", "app.sqlite3"],
        in: project.dir.url,
        launcher: Self.nobody,
        timeout: 60
      )
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.contains(
          "cannot use the migrations folder migrations: the folder cannot be listed: "
            + "permission denied"
        ),
        "\(result.standardError)"
      )
      #expect(!result.standardError.contains("UTF-8"))
      #expect(!result.standardError.contains("operation could not be completed"))
      #expect(result.standardError.contains("Help: Point --migrations"))
    }
  }

  @Test(.enabled(if: canRunAsNobody), arguments: [0o000, 0o711])
  func anUnlistableSeedsFolderIsNamed(_ mode: Int) throws {
    let project = try Self.migratedProject()
    try Self.setMode(mode, project.dir.path("seeds"))
    defer { try? Self.setMode(0o755, project.dir.path("seeds")) }
    for command in [["seed"], ["init", "--seeds", "seeds"]] {
      let result = try StrataProcess.run(
        command + ["--database", "app.sqlite3"],
        in: project.dir.url,
        launcher: Self.nobody,
        timeout: 60
      )
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.contains(
          "cannot use the seeds folder seeds: the folder cannot be listed: permission denied"
        ),
        "\(result.standardError)"
      )
      #expect(!result.standardError.contains("UTF-8"))
      #expect(!result.standardError.contains("operation could not be completed"))
    }
    #expect(
      try DatabaseProbe.integer(project.database, "SELECT count(*) FROM person_info") == 0
    )
  }

  // MARK: - Defect 3: a device, a file or a FIFO where a folder or a template should be

  /// `path` made in `project` (a file, a FIFO) or a device, and the words that name it.
  private static func notAFolder(_ kind: String, in project: Project) throws -> (String, String) {
    switch kind {
    case "device": return ("/dev/null", "it is a character device, not a folder")
    case "file":
      try project.dir.write("plain", "text\n")
      return ("plain", "it is a file, not a folder")
    default:
      #expect(mkfifo(project.dir.path("pipe").path, 0o600) == 0)
      return ("pipe", "it is a named pipe (FIFO), not a folder")
    }
  }

  @Test(arguments: ["device", "file", "fifo"])
  func aSeedsPathThatIsNotAFolderSaysWhatItIs(_ kind: String) throws {
    let project = try Project.sample()
    let (path, words) = try Self.notAFolder(kind, in: project)
    for command in [["init"], ["seed"]] {
      let result = try StrataProcess.run(
        command + ["--seeds", path, "--database", "app.sqlite3"],
        in: project.dir.url,
        timeout: 60
      )
      #expect(!result.timedOut)
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.contains("seeds folder \(path): \(words)"),
        "\(result.standardError)"
      )
      #expect(!result.standardError.contains("does not exist"))
    }
  }

  @Test(arguments: ["device", "file", "fifo"])
  func aMigrationsPathThatIsNotAFolderSaysWhatItIs(_ kind: String) throws {
    let project = try Project.sample()
    let (path, words) = try Self.notAFolder(kind, in: project)
    for command in ["init", "migrate", "status", "validate"] {
      let result = try StrataProcess.run(
        [command, "--migrations", path, "--database", "app.sqlite3"],
        in: project.dir.url,
        timeout: 60
      )
      #expect(!result.timedOut)
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.contains("migrations folder \(path): \(words)"),
        "\(result.standardError)"
      )
      #expect(!result.standardError.contains("UTF-8"))
    }
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test(arguments: ["device", "folder", "fifo"])
  func aTemplateThatIsNotAFileSaysWhatItIs(_ kind: String) throws {
    let project = try Project.sample()
    let path: String
    let words: String
    switch kind {
    case "device": (path, words) = ("/dev/null", "it is a character device, not a regular file")
    case "folder": (path, words) = ("seeds", "it is a directory")
    default:
      #expect(mkfifo(project.dir.path("template.fifo").path, 0o600) == 0)
      (path, words) = ("template.fifo", "it is a named pipe (FIFO), not a regular file")
    }
    let result = try StrataProcess.run(
      ["init", "--template", path, "--database", "app.sqlite3"],
      in: project.dir.url,
      timeout: 60
    )
    #expect(!result.timedOut)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains(words), "\(result.standardError)")
    #expect(!result.standardError.contains("does not exist"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }
}
