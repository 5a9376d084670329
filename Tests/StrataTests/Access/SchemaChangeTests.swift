import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A statement kept in the queue's cache is compiled again by SQLite when the schema changes
/// (here or in another connection): its rows then carry the columns the query has now, by
/// name, not the ones it had when it was first prepared.
@Suite struct SchemaChangeTests {
  struct Student: Decodable, Equatable {
    let stuID: String
    let stuName: String
    let email: String?
  }

  @Test func aCachedSelectStarSeesAColumnAddedThroughTheSameQueue() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    let before = try fixture.queue.read { db in try db.fetchRows("SELECT * FROM student") }
    #expect(before.map(\.columns) == [["stuID", "stuName", "age"]])
    try fixture.queue.write { db in
      try db.execute("ALTER TABLE student ADD COLUMN email TEXT DEFAULT 'ann@example.com'")
    }
    let after = try fixture.queue.read { db in try db.fetchRows("SELECT * FROM student") }
    #expect(after.map(\.columns) == [["stuID", "stuName", "age", "email"]])
    #expect(after.map(\.values) == [["S1", "Ann", 20, "ann@example.com"]])
    let students = try fixture.queue.read { db in
      try db.fetchAll(Student.self, "SELECT * FROM student")
    }
    #expect(students == [Student(stuID: "S1", stuName: "Ann", email: "ann@example.com")])
  }

  @Test func aCachedSelectStarSeesAColumnDroppedByAnotherConnection() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    let first = try fixture.queue.read { db in try db.fetchRows("SELECT * FROM student") }
    #expect(first.map(\.columns) == [["stuID", "stuName", "age"]])
    try Connection(path: fixture.url.path).execute(
      "ALTER TABLE student DROP COLUMN age; ALTER TABLE student ADD COLUMN email TEXT"
    )
    let rows = try fixture.queue.read { db in try db.fetchRows("SELECT * FROM student") }
    #expect(rows.map(\.columns) == [["stuID", "stuName", "email"]])
    #expect(rows.map(\.values) == [["S1", "Ann", .null]])
    let row = try fixture.queue.read { db in try db.fetchRow("SELECT * FROM student") }
    #expect(row?["age"] == .null)
    #expect(row?.index(of: "age") == nil)
  }

  @Test func aPoolReaderSeesTheNewColumnsAfterAMigration() throws {
    let dir = try TemporaryDirectory()
    let url = dir.path("pool.sqlite3")
    try Connection(path: url.path).execute(
      "CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL);"
        + "INSERT INTO student VALUES ('S1', 'Ann');"
    )
    let pool = try DatabasePool(url: url)
    for _ in 0..<3 {
      _ = try pool.read { db in try db.fetchRows("SELECT * FROM student") }
    }
    try pool.write { db in try db.execute("ALTER TABLE student ADD COLUMN email TEXT") }
    for _ in 0..<3 {
      let rows = try pool.read { db in try db.fetchRows("SELECT * FROM student") }
      #expect(rows.map(\.columns) == [["stuID", "stuName", "email"]])
    }
  }
}
