import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// An error that wraps another keeps it typed (`underlyingError`), with the same message as
/// before, and a failure at launch never reaches the app as a raw system error.
@Suite struct TypedCauseTests {
  @Test func aSeedFileThatFailsAtLaunchIsCarriedAsItsSeedError() throws {
    let dir = try TemporaryDirectory()
    try dir.write("migrations/0001_person.sql", "CREATE TABLE person_info (name TEXT, age INT);")
    try dir.write("seeds/nosuch.csv", "name\nAnn\n")
    let setup = DatabaseSetup(
      database: dir.path("app.sqlite3"),
      migrations: dir.path("migrations"),
      seeds: dir.path("seeds")
    )
    // Issue 31: carried by the launch's report, not thrown.
    let thrown = try setup.run().seedProblem
    guard case .seedingFailed(_, true, 1, let seedError) = try #require(thrown) else {
      Issue.record("not a seeding failure: \(String(describing: thrown))")
      return
    }
    guard case .noSuchTable(_, "nosuch", _) = seedError else {
      Issue.record("not the missing table: \(seedError)")
      return
    }
    #expect(thrown?.underlyingError as? SeedError == seedError)
    #expect(thrown?.localizedDescription == thrown?.message)
    #expect(thrown?.message.hasPrefix(seedError.problem) == true)
    let db = try Connection(url: dir.path("app.sqlite3"))
    #expect(try db.scalar("SELECT count(*) FROM person_info") == .integer(0))
  }

  @Test func aCorruptTemplateKeepsSQLitesError() throws {
    let dir = try TemporaryDirectory()
    try dir.write("migrations/0001_person.sql", "CREATE TABLE person_info (name TEXT, age INT);")
    let template = dir.path("template.sqlite3")
    var bytes = Array("SQLite format 3\0".utf8)
    bytes += [UInt8](repeating: 0xAB, count: 8192 - bytes.count)
    try Data(bytes).write(to: template)
    let setup = DatabaseSetup(
      database: dir.path("app.sqlite3"),
      migrations: dir.path("migrations"),
      template: template
    )
    let thrown = #expect(throws: SetupError.self) { try setup.run() }
    guard case .templateInvalid = try #require(thrown) else {
      Issue.record("not an invalid template: \(String(describing: thrown))")
      return
    }
    #expect(thrown?.underlyingError is SQLiteError)
    #expect(thrown?.remedies == [.rebuildTemplate])
    #expect(!FileManager.default.fileExists(atPath: dir.path("app.sqlite3").path))
  }

  @Test func aSettingsFileThatCannotBeReadKeepsTheSystemsError() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path("strata.toml")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let thrown = #expect(throws: SettingsError.self) {
      try ProjectSettings(contentsOf: folder, displayPath: "strata.toml")
    }
    guard case .unreadable(let path, _, _) = try #require(thrown) else {
      Issue.record("not unreadable: \(String(describing: thrown))")
      return
    }
    #expect(path == "strata.toml")
    #expect(thrown?.underlyingError != nil)
    #expect(!(thrown?.underlyingError is SettingsError))
  }
}
