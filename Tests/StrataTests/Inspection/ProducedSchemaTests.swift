import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct ProducedSchemaTests {
  @Test func theSchemaIsWhatEveryMigrationBuildsAndNoFileIsCreated() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_person.sql",
      "-- migrate:up\nCREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);\n"
        + "-- migrate:down\nDROP TABLE person;\n"
    )
    try folder.write(
      "migrations/0002_age.sql",
      "ALTER TABLE person ADD COLUMN age INTEGER;\nCREATE INDEX person_age ON person (age);\n"
    )
    let migrations = try MigrationSet(directory: folder.path("migrations"))
    let schema = try migrations.producedSchema()
    #expect(schema.tables.map(\.name) == ["person"])
    #expect(schema.tables[0].columns.map(\.name) == ["id", "name", "age"])
    #expect(schema.tables[0].indexes.map(\.name) == ["person_age"])
    #expect(schema.migrations?.currentVersion == 2)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(files == ["migrations"])
  }

  @Test func aMigrationThatFailsIsNamedWithItsLine() throws {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);\n\nCREAT TABLE b (y);\n")
    let migrations = try MigrationSet(directory: folder.path("migrations"), displayPath: "m")
    #expect {
      try migrations.producedSchema()
    } throws: { error in
      guard case .replayFailed(let directory, let reason, _) = error as? InspectionError else {
        return false
      }
      return directory == "m" && reason.hasPrefix("m/0001_a.sql:3:") && reason.contains("CREAT")
    }
  }

  /// A statement the replay must skip leaves the schema unknown: an error, not a guess.
  @Test func aSkippedStatementIsAnErrorNamingIt() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_a.sql",
      "CREATE TABLE a (x);\nATTACH DATABASE 'other.db' AS other;\n"
    )
    let migrations = try MigrationSet(directory: folder.path("migrations"), displayPath: "m")
    #expect {
      try migrations.producedSchema()
    } throws: { error in
      guard case .replayIncomplete(_, let notChecked) = error as? InspectionError,
        let message = (error as? InspectionError)?.message
      else { return false }
      return notChecked.map(\.line) == [2] && message.contains("m/0001_a.sql:2 `ATTACH")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("other.db").path))
  }
}
