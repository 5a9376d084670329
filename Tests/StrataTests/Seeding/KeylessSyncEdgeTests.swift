import Foundation
import Strata
import Testing

/// Keyless sync at its edges: the line a failing insert names when several lines are new, an
/// AUTOINCREMENT table's used ids, and a file first loaded by a mode that records no rows.
@Suite struct KeylessSyncEdgeTests {
  static let schema = "CREATE TABLE person_info (name TEXT, age INTEGER CHECK (age >= 0))"
  static let v1 = "name,age\nPeter,22\nJack,20\n"

  func people(_ fixture: SeedFixture) throws -> [[SQLValue]] {
    try fixture.rows("SELECT rowid, name, age FROM person_info ORDER BY rowid")
  }

  /// Three new lines, the third refused by the CHECK: the error names its line and the CHECK
  /// (not a rowid clash of the one-row retries), and nothing changed.
  @Test func theThirdNewLineRefusedIsNamedByItsLineAndCause() throws {
    let fixture = try SeedFixture(schema: Self.schema)
    _ = try fixture.seed([try fixture.csv("person_info.csv", Self.v1)], mode: .sync)
    let before = try people(fixture)
    let bad = try fixture.csv("person_info.csv", Self.v1 + "Tom,24\nAnn,30\nBob,-1\n")
    let error = try #require(fixture.seedError([bad], mode: .sync))
    guard case .rowFailed(let file, let line, _, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(file == "seeds/person_info.csv" && line == 6)
    #expect(error.message.contains("CHECK constraint failed"))
    #expect(!error.message.contains("UNIQUE"))
    #expect(try people(fixture) == before)
  }

  /// `person(id INTEGER PRIMARY KEY AUTOINCREMENT, name)` seeded from names: an id the user's
  /// deleted row had is never given to a new line of the file.
  @Test func anAutoincrementIdTheUserUsedIsNeverGivenAgain() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE person (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL)"
    )
    _ = try fixture.seed([try fixture.csv("person.csv", "name\nAnn\nBob\n")], mode: .sync)
    try fixture.connection.execute(
      "INSERT INTO person (name) VALUES ('Mine'); DELETE FROM person WHERE name = 'Mine'"
    )
    _ = try fixture.seed([try fixture.csv("person.csv", "name\nAnn\nBob\nDan\n")], mode: .sync)
    #expect(
      try fixture.rows("SELECT id, name FROM person ORDER BY id") == [
        [.integer(1), .text("Ann")], [.integer(2), .text("Bob")], [.integer(4), .text("Dan")],
      ]
    )
  }

  /// Loaded by a mode that records no rows (`append` as the first load; `replace` after a
  /// sync, whose recorded rows it deleted), then changed: a sync takes the table's rows equal
  /// to the lines as the file's and inserts only the new line, never every line again, and a
  /// user's identical extra row is not taken twice.
  @Test(arguments: [SeedMode.append, .replace])
  func aFileLoadedByAModeThatRecordsNoRowsSyncsWithoutDuplicates(mode: SeedMode) throws {
    let fixture = try SeedFixture(schema: Self.schema)
    if mode == .replace {
      _ = try fixture.seed([try fixture.csv("person_info.csv", Self.v1)], mode: .sync)
    }
    _ = try fixture.seed(
      [try fixture.csv("person_info.csv", "name,age\nPeter,22\nAmy,9\n")],
      mode: mode
    )
    try fixture.connection.execute("INSERT INTO person_info VALUES ('Amy', 9)")
    let report = try #require(
      try fixture.seed(
        [try fixture.csv("person_info.csv", "name,age\nPeter,22\nAmy,9\nTom,24\n")],
        mode: .sync
      ).tables.first
    )
    #expect(report.inserted == 1)
    #expect(
      try fixture.rows("SELECT name, count(*) FROM person_info GROUP BY name ORDER BY name") == [
        [.text("Amy"), .integer(2)], [.text("Peter"), .integer(1)], [.text("Tom"), .integer(1)],
      ]
    )
  }
}
