import Foundation
import Strata
import StrataTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Named pipes and devices where strata expects a regular file. Opening a FIFO blocks until a
/// writer comes, so before the fix every one of these hung forever; each run has a timeout
/// and a hang fails the test.
@Suite struct SpecialFileTests {
  static let timeout = 30.0

  private static func fifo(_ url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try #require(mkfifo(url.path, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
  }

  private static func run(_ project: Project, _ arguments: [String]) throws -> ProcessResult {
    let result = try StrataProcess.run(arguments, in: project.dir.url, timeout: timeout)
    #expect(!result.timedOut, "strata \(arguments.joined(separator: " ")) hung")
    return result
  }

  static let databaseCommands: [[String]] = [
    ["migrate"], ["migrate", "--dry-run"], ["status"], ["validate"], ["init"], ["inspect"],
    ["rollback"], ["baseline", "--version", "1"], ["seed", "seeds/student.csv"],
  ]

  @Test(arguments: databaseCommands)
  func aNamedPipeAsTheDatabaseIsRefusedWithoutHanging(_ command: [String]) throws {
    let project = try Project.sample()
    try Self.fifo(project.dir.path("db.sqlite3"))
    let result = try Self.run(project, command + ["--database", "db.sqlite3"])
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("db.sqlite3 is a named pipe (FIFO), not a database file"))
    #expect(result.standardError.contains("Help: "))
  }

  @Test(arguments: [["migrate"], ["status"], ["init"]])
  func aDeviceAsTheDatabaseIsRefusedUpFront(_ command: [String]) throws {
    let project = try Project.sample()
    let result = try Self.run(project, command + ["--database", "/dev/null"])
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("/dev/null is a character device, not a database file"))
    #expect(!result.standardError.contains("disk I/O error"))
  }

  @Test(arguments: [["migrate"], ["migrate", "--dry-run"], ["status"], ["validate"], ["init"]])
  func aNamedPipeInTheMigrationsFolderIsRefused(_ command: [String]) throws {
    let project = try Project.sample()
    try Self.fifo(project.dir.path("migrations/0006_pipe.sql"))
    let result = try Self.run(project, command)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/0006_pipe.sql: it is a named pipe (FIFO), not a regular file"
      )
    )
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func aNamedPipeInTheSeedsFolderIsRefused() throws {
    let project = try Project.sample()
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    try Self.fifo(project.dir.path("seeds/course.csv"))
    for command in [["seed"], ["init"]] {
      let result = try Self.run(project, command + ["--database", "app.sqlite3"])
      #expect(result.exitCode == 1)
      #expect(result.standardError.contains("seeds/course.csv"))
      #expect(result.standardError.contains("it is a named pipe (FIFO), not a regular file"))
    }
    #expect(try DatabaseProbe.rows(project.database, "SELECT * FROM student").isEmpty)
  }

  @Test func aNamedPipeAsTheTemplateIsRefused() throws {
    let project = try Project.sample()
    try Self.fifo(project.dir.path("template.sqlite3"))
    let result = try Self.run(
      project,
      ["init", "--template", "template.sqlite3", "--database", "app.sqlite3"]
    )
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("it is a named pipe (FIFO), not a regular file"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  @Test func aNamedPipeAsTheDefaultTemplateIsRefused() throws {
    let project = try Project.sample()
    try Self.fifo(project.dir.path("seeds/template.sqlite3"))
    let result = try Self.run(project, ["init", "--database", "app.sqlite3"])
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("template.sqlite3"))
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }
}
