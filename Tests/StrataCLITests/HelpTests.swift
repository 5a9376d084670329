import Foundation
import StrataArguments
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

  // Found by the arguments fuzz target: messages echoed arguments raw, so an escape sequence
  // or a line break in one reached the terminal.
  @Test func argumentsAreEchoedWithoutControlCharacters() throws {
    let folder = try TemporaryDirectory()
    let option = try StrataProcess.run(["migrate", "--format=\u{1B}[2J"], in: folder.url)
    #expect(option.exitCode == 64)
    #expect(option.standardError.contains("got '\\u{1B}[2J'"))
    #expect(!option.standardError.contains("\u{1B}"))
    let command = try StrataProcess.run(["mi\ngrate"], in: folder.url)
    #expect(command.exitCode == 64)
    #expect(command.standardError.contains("Error: unknown command 'mi\\u{A}grate'"))
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
