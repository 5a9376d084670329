import Foundation
import StrataArguments
import StrataTestSupport
import Testing

@Suite struct HelpTests {
  @Test func versionPrintsAndExitsZero() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["--version"], in: folder.url)
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0.6.0")
  }

  /// The version `--version` prints is CHANGELOG.md's newest, so a tag made from it names
  /// what the changelog describes.
  @Test func versionIsTheChangelogsNewest() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["--version"], in: folder.url)
    let changelog = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("CHANGELOG.md")
    let text = try String(contentsOf: changelog, encoding: .utf8)
    let newest = text.split(separator: "\n").first { $0.hasPrefix("## ") }
    let version = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(newest?.hasPrefix("## \(version) ") == true, "\(String(describing: newest))")
  }

  @Test(arguments: [
    "init", "migrate", "rollback", "restore", "status", "validate", "lint", "new", "diff",
    "baseline", "template", "seed", "inspect", "schema",
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

  // The commands and the tool's options are one aligned table (`alignedRows`), as they were
  // when the names were padded by hand.
  @Test func theToolsHelpAlignsCommandsAndOptionsInOneTable() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["--help"], in: folder.url)
    #expect(result.exitCode == 0)
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.contains("USAGE: strata <command> [<options>]"))
    #expect(
      lines.contains(
        "  init        Create the database (from the template), migrate it and load seeds."
      )
    )
    #expect(lines.contains("  template    Build the template database from the migrations."))
    #expect(lines.contains("  --version   Show the version."))
    #expect(lines.contains("  -h, --help  Show help information."))
    #expect(lines.contains("See 'strata <command> --help' for a command's options."))
  }

  @Test func aCommandsHelpListsEachDeclaredOptionOnce() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["rollback", "--help"], in: folder.url)
    #expect(result.exitCode == 0)
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.contains("USAGE: strata rollback [<options>]"))
    #expect(
      lines.contains("  --steps <n>                 How many migrations to revert (default: 1).")
    )
    #expect(lines.contains("  --format <format>           Output format. (text|json)"))
    #expect(lines.contains("  -q, --quiet                 Print nothing on success."))
    #expect(lines.filter { $0.hasPrefix("  --to ") }.count == 1)
  }

  @Test func noCommandPrintsHelpAndExits64() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run([], in: folder.url)
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("COMMANDS:"))
  }
}
