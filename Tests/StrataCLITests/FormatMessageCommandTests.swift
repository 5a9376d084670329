import Foundation
import StrataTestSupport
import Testing

/// Messages through the real `strata` name the folder format's own markers and options.
@Suite struct FormatMessageCommandTests {
  @Test func gooseVacuumIsToldAboutGooseNoTransaction() throws {
    let project = try Project(["00001_v.sql": "-- +goose Up\nCREATE TABLE a (x);\nVACUUM;\n"])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("add the line '-- +goose NO TRANSACTION' to the file"),
      "\(result.standardError)"
    )
    #expect(!result.standardError.contains("migrate:up"), "\(result.standardError)")
    #expect(try project.versions() == [])
  }

  @Test func golangMigrateUpFileAloneIsToldToAddItsDownFile() throws {
    let project = try Project(["1_a.up.sql": "CREATE TABLE a (x);\n"])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let result = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("Help: Add its .down.sql file (the same version and name"),
      "\(result.standardError)"
    )
    #expect(try project.versions() == [1])
  }
}
