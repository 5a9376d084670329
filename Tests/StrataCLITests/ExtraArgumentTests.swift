import Foundation
import Strata
import StrataTestSupport
import Testing

/// `--version` and `help` take no argument they do not read.
@Suite struct ExtraArgumentTests {
  // MARK: - Defect 5: arguments nothing reads

  @Test(arguments: [["--version", "x"], ["help", "migrate", "extra"], ["--help", "status", "x"]])
  func anExtraArgumentAfterVersionOrHelpIsAUsageError(_ arguments: [String]) throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(arguments, in: folder.url, timeout: 60)
    #expect(result.exitCode == 64)
    #expect(
      result.standardError.contains("unexpected argument '\(arguments.last ?? "")'"),
      "\(result.standardError)"
    )
    #expect(result.standardOutput.isEmpty)
  }

  @Test func helpForOneCommandStillWorks() throws {
    let folder = try TemporaryDirectory()
    let result = try StrataProcess.run(["help", "migrate"], in: folder.url, timeout: 60)
    #expect(result.exitCode == 0)
    #expect(result.standardOutput.contains("USAGE: strata migrate"))
  }
}
