import Foundation
import StrataTestSupport
import Testing

@Suite struct HelpTests {
  @Test func versionPrintsAndExitsZero() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["--version"], in: folder.url)
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
  }

  @Test(arguments: [
    "init", "migrate", "rollback", "status", "validate", "new", "baseline", "template", "seed",
    "inspect",
  ])
  func everyCommandHasHelp(command: String) throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run([command, "--help"], in: folder.url)
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.contains("USAGE: strata \(command)"))
  }

  @Test func unknownOptionIsAUsageErrorWithASuggestion() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["migrate", "--databse", "x.sqlite3"], in: folder.url)
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("Error: unknown option '--databse'"))
    #expect(result.standardError.contains("Did you mean '--database'?"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("x.sqlite3").path))
  }

  @Test func unknownCommandIsAUsageError() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["migrat"], in: folder.url)
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("Did you mean 'migrate'?"))
  }

  @Test func noCommandPrintsHelpAndExits64() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run([], in: folder.url)
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("COMMANDS:"))
  }
}
