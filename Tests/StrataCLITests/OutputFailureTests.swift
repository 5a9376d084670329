import Foundation
import Strata
import StrataTestSupport
import Testing

/// Item 23: a write to standard output that fails (a full disk, a reader that left, a closed
/// descriptor) is an error with exit 1 and a true message, never a crash with a backtrace.
@Suite struct OutputFailureTests {
  static let createTable =
    "-- migrate:up\nCREATE TABLE item (id INTEGER PRIMARY KEY);\n"
    + "-- migrate:down\nDROP TABLE item;\n"

  /// One `Error:` line and one `Help:` line; nothing from a crash.
  private func expectCleanError(_ result: StrataOutputSink.Result) {
    #expect(!result.killedBySignal)
    #expect(result.exitCode == 1)
    #expect(result.standardError.hasPrefix("Error: could not write to standard output"))
    #expect(!result.standardError.contains("Fatal error"))
    #expect(!result.standardError.contains("Backtrac"))
    #expect(result.standardError.split(separator: "\n").count == 2)
  }

  @Test func statusToAFullDiskExitsOneWithAnErrorLine() throws {
    let project = try Project(["0001_item.sql": Self.createTable])
    try project.strata("migrate", "--database", project.database.path)
    let result = try StrataOutputSink.run(
      ["status", "--database", project.database.path],
      in: project.dir.url,
      to: .full,
      ignoringSIGPIPE: false
    )
    expectCleanError(result)
    #expect(result.standardError.contains("No space left on device"))
    #expect(result.standardError.contains("Nothing was changed"))
  }

  @Test func migrateWhoseReportIsLostSaysTheMigrationsWereApplied() throws {
    for destination in [StrataOutputSink.Destination.full, .closedPipe] {
      let project = try Project(["0001_item.sql": Self.createTable])
      let result = try StrataOutputSink.run(
        ["migrate", "--database", project.database.path],
        in: project.dir.url,
        to: destination,
        ignoringSIGPIPE: true
      )
      expectCleanError(result)
      #expect(result.standardError.contains("1 migration was applied"))
      #expect(result.standardError.contains("now at version 1"))
      // …and it was: the message is true about the file.
      #expect(try project.versions() == [1])
      #expect(try DatabaseProbe.tables(project.database).contains("item"))
    }
  }

  @Test func aReaderThatLeftWithSIGPIPEIgnoredIsAnErrorNotACrash() throws {
    let project = try Project(["0001_item.sql": Self.createTable])
    try project.strata("migrate", "--database", project.database.path)
    for arguments in [["status"], ["validate"], ["status", "--format", "json"], ["--help"]] {
      let result = try StrataOutputSink.run(
        arguments + (arguments == ["--help"] ? [] : ["--database", project.database.path]),
        in: project.dir.url,
        to: .closedPipe,
        ignoringSIGPIPE: true
      )
      expectCleanError(result)
      #expect(result.standardError.contains("Broken pipe"))
    }
  }

  @Test func aReaderThatLeftWithSIGPIPEAtItsDefaultEndsStrataBySIGPIPE() throws {
    let project = try Project(["0001_item.sql": Self.createTable])
    let result = try StrataOutputSink.run(
      ["status", "--database", project.database.path],
      in: project.dir.url,
      to: .closedPipe,
      ignoringSIGPIPE: false
    )
    #expect(result.killedBySignal)
    #expect(result.exitCode == SIGPIPE)
    #expect(!result.standardError.contains("Fatal error"))
  }

  @Test func aClosedStandardOutputIsReportedAndNeverReachesTheDatabase() throws {
    let project = try Project(["0001_item.sql": Self.createTable])
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // `>&-`: strata starts without descriptor 1.
    process.arguments = [
      "-c", "exec \"$0\" migrate --database \"$1\" >&-",
      StrataProcess.executable.path, project.database.path,
    ]
    process.currentDirectoryURL = project.dir.url
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": project.dir.url.path, "NO_COLOR": "1"]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(text.contains("Error: could not write to standard output (Bad file descriptor)"))
    #expect(text.contains("1 migration was applied"))
    #expect(try project.versions() == [1])
    let check = try DatabaseProbe.rows(project.database, "PRAGMA integrity_check")
    #expect(check.first?.first?.textValue == "ok")
  }

  /// `--format json`: an error is JSON on standard output too, with its message, help and exit
  /// code, for usage errors (64) and failures (1) alike.
  @Test func jsonErrorsAreJSONOnStandardOutput() throws {
    let project = try Project([
      "0001_item.sql": Self.createTable,
      "0002_bad.sql": "-- migrate:up\nCREAT TABLE oops (id);\n-- migrate:down\n",
    ])
    let cases: [([String], Int32)] = [
      (["migrate", "--database", project.database.path, "--format", "json"], 1),
      (["migrate", "--database", project.database.path, "--format=json", "--to", "x"], 64),
      (["status", "--format", "json", "--nosuch"], 64),
      (["nosuch", "--format", "json"], 64),
      (["inspect", "--database", project.dir.path("missing.sqlite3").path, "--format", "json"], 1),
    ]
    for (arguments, code) in cases {
      let result = try StrataProcess.run(arguments, in: project.dir.url)
      #expect(result.exitCode == code, "\(arguments)")
      let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
      let error = (object as? [String: Any])?["error"] as? [String: Any]
      #expect((error?["message"] as? String)?.isEmpty == false, "\(arguments)")
      #expect(error?["help"] is String, "\(arguments)")
      #expect(error?["exitCode"] as? Int == Int(code), "\(arguments)")
      // People still get the message on standard error.
      #expect(result.standardError.hasPrefix("Error: "), "\(arguments)")
    }
  }
}
