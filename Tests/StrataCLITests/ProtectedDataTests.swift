import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A database the system refuses to open although its permissions allow it, as iOS refuses a
/// file protected by Data Protection while the device is locked (`EPERM`), simulated by a
/// preloaded library (`ProtectedFileShim`) around the real `strata`. The error says the file is
/// intact and locked away, never "not an SQLite database" (an app that resets a database on
/// that error would delete the user's data); the file is left byte for byte as it was, and no
/// copy of it is set aside as damaged.
#if os(Linux)
@Suite(.canBuildExtensions, .notUnderSanitizer) struct ProtectedDataTests {
  private static func project(
    readsOnly: Bool = false
  ) throws -> (TemporaryDirectory, URL, [String: String]) {
    let folder = try TemporaryDirectory()
    _ = try folder.write(
      "migrations/0001_create_person_info.sql",
      "-- migrate:up\nCREATE TABLE person_info (name TEXT, age INTEGER);\n"
        + "-- migrate:down\nDROP TABLE person_info;\n"
    )
    _ = try folder.write(
      "migrations/0002_add_email.sql",
      "-- migrate:up\nALTER TABLE person_info ADD COLUMN email TEXT;\n"
        + "-- migrate:down\nALTER TABLE person_info DROP COLUMN email;\n"
    )
    let migrate = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3", "--to", "1"],
      in: folder.url
    )
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    let library = try ProtectedFileShim.build(in: folder)
    let database = folder.path("app.sqlite3")
    try FileManager.default.copyItem(at: database, to: folder.path("backup.sqlite3"))
    let environment = ProtectedFileShim.environment(
      library: library,
      refusing: database,
      readsOnly: readsOnly
    )
    return (folder, database, environment)
  }

  @Test(arguments: [
    ["migrate", "--database", "app.sqlite3"],
    ["init", "--database", "app.sqlite3"],
    ["inspect", "--database", "app.sqlite3"],
    ["seed", "--database", "app.sqlite3", "--seeds", "seeds"],
    ["status", "--database", "app.sqlite3"],
    ["validate", "--database", "app.sqlite3"],
    // Even forced, a restore never sets a locked-away database aside as unreadable.
    ["restore", "backup.sqlite3", "--database", "app.sqlite3", "--force"],
  ])
  func aRefusedFileIsReportedAsLockedAwayAndLeftAlone(arguments: [String]) throws {
    try Self.check(arguments, readsOnly: false)
  }

  /// The file opens but every read is refused, as when the device locks while it is open.
  @Test(arguments: [
    ["migrate", "--database", "app.sqlite3"],
    ["init", "--database", "app.sqlite3"],
    ["inspect", "--database", "app.sqlite3"],
  ])
  func aFileWhoseReadsAreRefusedIsReportedTheSameWay(arguments: [String]) throws {
    try Self.check(arguments, readsOnly: true)
  }

  private static func check(_ arguments: [String], readsOnly: Bool) throws {
    let (folder, database, environment) = try Self.project(readsOnly: readsOnly)
    _ = try folder.write("seeds/person_info.csv", "name,age\nPeter,22\n")
    let before = try Data(contentsOf: database)
    let entriesBefore = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      .sorted()
    let run = try StrataProcess.run(arguments, in: folder.url, environment: environment)
    #expect(run.exitCode != 0)
    #expect(run.standardError.contains(systemRefusalReason), "\(run.standardError)")
    #expect(run.standardError.contains("intact"), "\(run.standardError)")
    #expect(run.standardError.contains("never delete or reset it"), "\(run.standardError)")
    #expect(!run.standardError.contains("not an SQLite database"), "\(run.standardError)")
    #expect(try Data(contentsOf: database) == before)
    let entriesAfter = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      .sorted()
    #expect(entriesAfter == entriesBefore)
    // Once the device is unlocked (no shim), the same command works on the same file.
    let unlocked = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(unlocked.exitCode == 0, "\(unlocked.standardError)")
  }

  /// The shim refuses only the file it names: a check that the simulation is what fails.
  @Test func anotherFileIsNotRefused() throws {
    let (folder, _, environment) = try Self.project()
    let other = try StrataProcess.run(
      ["migrate", "--database", "other.sqlite3"],
      in: folder.url,
      environment: environment
    )
    #expect(other.exitCode == 0, "\(other.standardError)")
  }
}
#endif
