import Foundation
import Strata
import StrataTestSupport
import Testing

/// `kill -9` in the middle of a fleet run: every database is at its old version or its new
/// one (`--single-transaction`), and a rerun finishes the rest.
@Suite struct FleetKillTests {
  // Not under a sanitizer: 60 databases of 200,000 rows each take a quarter of an hour there,
  // and what it checks (SQLite's journal after kill -9) is not what a sanitizer looks at.
  @Test(.notUnderSanitizer) func killedFleetLeavesOldOrNewAndARerunFinishes() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"
    ])
    let names = (1...60).map { "dbs/d\($0).db" }
    try FileManager.default.createDirectory(
      at: project.dir.path("dbs"),
      withIntermediateDirectories: true
    )
    try project.dir.write("list.txt", names.joined(separator: "\n") + "\n")
    let first = try StrataProcess.run(["migrate", "--databases", "@list.txt"], in: project.dir.url)
    try #require(first.exitCode == 0, "\(first.standardError)")
    // A slow second migration (many rows) and a third, in one transaction per database.
    try project.write(
      "0002_slow.sql",
      "-- migrate:up\nCREATE TABLE b (x);\nWITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
        + "SELECT i + 1 FROM n WHERE i < 200000) INSERT INTO b SELECT i FROM n;\n"
        + "-- migrate:down\nDROP TABLE b;\n"
    )
    try project.write(
      "0003_c.sql",
      "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n"
    )
    let process = try StrataProcess.start(
      ["migrate", "--databases", "@list.txt", "--single-transaction", "--jobs", "2"],
      in: project.dir.url
    )
    // Kill once a few databases are done and the rest are not.
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, ((try? versions(project, names)) ?? []).filter({ $0 == 3 }).count < 3 {
      usleep(20_000)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let after = try versions(project, names)
    #expect(after.allSatisfy { $0 == 1 || $0 == 3 }, "\(after)")
    #expect(after.contains(1), "the fleet finished before the kill: \(after)")
    #expect(after.contains(3))
    for name in names {
      let integrity = try DatabaseProbe.rows(project.dir.path(name), "PRAGMA integrity_check")
      #expect(integrity == [[.text("ok")]])
    }
    let rerun = try StrataProcess.run(["migrate", "--databases", "@list.txt"], in: project.dir.url)
    #expect(rerun.exitCode == 0, "\(rerun.standardError)")
    let done = after.filter { $0 == 3 }.count
    #expect(
      rerun.standardOutput
        == "\(60 - done) migrated, \(done) already up to date, 0 failed (60 databases)\n"
    )
    #expect(try versions(project, names).allSatisfy { $0 == 3 })
  }

  /// On a terminal (`script` gives it one), a progress line is redrawn as each database
  /// finishes and cleared before the summary line.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
  func progressLineOnATerminal() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"
    ])
    for name in ["a", "b"] { try project.dir.write("dbs/\(name).db", "") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = [
      "-qec", "'\(StrataProcess.executable.path)' migrate --databases 'dbs/*.db' --jobs 1",
      "/dev/null",
    ]
    process.currentDirectoryURL = project.dir.url
    process.environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(
      text.contains("\r\u{1B}[2K[1/2] databases done\r\u{1B}[2K[2/2] databases done"),
      "\(text)"
    )
    #expect(
      text.contains("\r\u{1B}[2K2 migrated, 0 already up to date, 0 failed (2 databases)"),
      "\(text)"
    )
  }

  /// Each database's applied version, read from its history.
  /// Each database's version, read as the next run would read it: with write access, so that
  /// SQLite rolls back the hot journal a killed run left (a read-only connection cannot, and
  /// fails with SQLITE_READONLY_ROLLBACK).
  private func versions(_ project: Project, _ names: [String]) throws -> [Int64] {
    try names.map {
      try Connection(path: project.dir.path($0).path, mode: .readWrite)
        .scalar("SELECT max(version) FROM strata_migrations")?.integerValue ?? 0
    }
  }
}
