import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A statement kept in the queue's cache is compiled again by SQLite when the schema changes
/// (here or in another connection): its rows then carry the columns the query has now, by
/// name, not the ones it had when it was first prepared. Each way of reading rows is tried on
/// a statement of its own, warmed before the change and the first to run after it.
@Suite struct SchemaChangeTests {
  struct Student: Decodable, Equatable {
    let stuID: String
    let fullName: String
  }

  struct HandRead: RowDecodable, Equatable {
    let stuID: String
    let fullName: String
    init(stuID: String, fullName: String) {
      self.stuID = stuID
      self.fullName = fullName
    }
    init(row: borrowing LiveRow) throws {
      stuID = try row.decode(column: "stuID")
      fullName = try row.decode(column: "fullName")
    }
  }

  /// `student` with one row, every way of reading it warmed (each reads by the old column
  /// names where it can), then `stuName` renamed to `fullName`: the column count is the same,
  /// only the names differ.
  func renamed() throws -> AccessFixture {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    _ = try fixture.queue.read { db in try db.fetchRows("SELECT * FROM student -- rows") }
    _ = try fixture.queue.read { db in try db.fetchRow("SELECT * FROM student -- row") }
    try fixture.queue.write { db in
      try db.execute("ALTER TABLE student RENAME COLUMN stuName TO fullName")
    }
    return fixture
  }

  @Test func fetchRowsSeesTheNewNames() throws {
    let fixture = try renamed()
    let rows = try fixture.queue.read { db in try db.fetchRows("SELECT * FROM student -- rows") }
    #expect(rows.map(\.columns) == [["stuID", "fullName", "age"]])
  }

  @Test func fetchRowSeesTheNewNames() throws {
    let fixture = try renamed()
    let row = try fixture.queue.read { db in try db.fetchRow("SELECT * FROM student -- row") }
    #expect(row?["fullName"] == "Ann")
    #expect(row?.index(of: "stuName") == nil)
  }

  /// Decodable and RowDecodable, all rows and one, each first on its own statement after the
  /// change (warmed before it with a type that reads the old name, which then fails).
  @Test func decodableAndRowDecodableReadTheNewNames() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    let sql = [
      "SELECT * FROM student -- all", "SELECT * FROM student -- one",
      "SELECT * FROM student -- hand all", "SELECT * FROM student -- hand one",
    ]
    for query in sql {
      _ = try fixture.queue.read { db in try db.fetchRows(query) }
    }
    try fixture.queue.write { db in
      try db.execute("ALTER TABLE student RENAME COLUMN stuName TO fullName")
    }
    let ann = Student(stuID: "S1", fullName: "Ann")
    let handAnn = HandRead(stuID: "S1", fullName: "Ann")
    let all = try fixture.queue.read { db in try db.fetchAll(Student.self, sql[0]) }
    let one = try fixture.queue.read { db in try db.fetchOne(Student.self, sql[1]) }
    let handAll = try fixture.queue.read { db in try db.fetchAll(HandRead.self, sql[2]) }
    let handOne = try fixture.queue.read { db in try db.fetchOne(HandRead.self, sql[3]) }
    #expect(all == [ann])
    #expect(one == ann)
    #expect(handAll == [handAnn])
    #expect(handOne == handAnn)
  }

  /// A value that does not fit is named by the column's name now.
  @Test func fetchValueNamesTheColumnAsItIsNow() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    let sql = "SELECT * FROM student -- value"
    _ = try fixture.queue.read { db in try db.fetchValue(String.self, sql) }
    try fixture.queue.write { db in
      try db.execute("ALTER TABLE student RENAME COLUMN stuID TO id")
    }
    let error = #expect(throws: RowDecodingError.self) {
      try fixture.queue.read { db in try db.fetchValue(Int.self, sql) }
    }
    #expect(error == .mismatch(column: "id", type: "Int", value: "S1"))
  }

  /// A run that finds no row after the change, then one that does.
  @Test func anEmptyRunAfterTheChangeThenARowSeesTheNewNames() throws {
    let fixture = try AccessFixture()
    let sql = "SELECT * FROM student WHERE age > ?"
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    _ = try fixture.queue.read { db in try db.fetchRows(sql, [0]) }
    try fixture.queue.write { db in
      try db.execute("ALTER TABLE student RENAME COLUMN stuName TO fullName")
    }
    #expect(try fixture.queue.read { db in try db.fetchRows(sql, [99]) }.isEmpty)
    let rows = try fixture.queue.read { db in try db.fetchRows(sql, [0]) }
    #expect(rows.map(\.columns) == [["stuID", "fullName", "age"]])
  }

  @Test func aColumnAddedThroughTheSameQueueIsRead() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    struct WithEmail: Decodable, Equatable {
      let stuID: String
      let email: String?
    }
    let sql = "SELECT * FROM student"
    _ = try fixture.queue.read { db in try db.fetchRows(sql) }
    try fixture.queue.write { db in
      try db.execute("ALTER TABLE student ADD COLUMN email TEXT DEFAULT 'ann@example.com'")
    }
    // Silently nil before the fix: the cached statement's names had no `email`.
    let students = try fixture.queue.read { db in try db.fetchAll(WithEmail.self, sql) }
    #expect(students == [WithEmail(stuID: "S1", email: "ann@example.com")])
  }

  @Test func aColumnDroppedByAnotherConnectionIsGone() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    let sql = "SELECT * FROM student"
    _ = try fixture.queue.read { db in try db.fetchRows(sql) }
    try Connection(path: fixture.url.path).execute(
      "ALTER TABLE student DROP COLUMN age; ALTER TABLE student ADD COLUMN email TEXT"
    )
    let rows = try fixture.queue.read { db in try db.fetchRows(sql) }
    #expect(rows.map(\.columns) == [["stuID", "stuName", "email"]])
    #expect(rows.map(\.values) == [["S1", "Ann", .null]])
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
