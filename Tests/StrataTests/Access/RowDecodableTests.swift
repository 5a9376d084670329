import Foundation
import Testing

@testable import Strata

/// `fetchRow`, and `RowDecodable` types read by `init(row:)` from the statement's row in place.
@Suite struct RowDecodableTests {
  /// One property of each type `LiveRow.decode` reads, in the columns of `item`.
  struct Item: RowDecodable, Equatable {
    var id: Int
    var i: Int?
    var i64: Int64?
    var i32: Int32?
    var d: Double?
    var f: Float?
    var b: Bool?
    var s: String?
    var data: Data?
    var date: Date?
    var uuid: UUID?
    var v: SQLValue

    init(row: borrowing LiveRow) throws {
      id = try row.decode(column: "id")
      i = try row.decode(column: "i")
      i64 = try row.decode(column: "i64")
      i32 = try row.decode(column: "i32")
      d = try row.decode(column: "d")
      f = try row.decode(column: "f")
      b = try row.decode(column: "b")
      s = try row.decode(column: "s")
      data = try row.decode(column: "data")
      date = try row.decode(column: "date")
      uuid = try row.decode(column: "uuid")
      v = try row.decode(column: "v")
    }
  }

  struct Student: RowDecodable, Equatable {
    var name: String
    var age: Int?

    init(name: String, age: Int?) {
      (self.name, self.age) = (name, age)
    }

    init(row: borrowing LiveRow) throws {
      name = try row.decode(column: "stuName")
      age = try row.decode(column: "age")
    }
  }

  /// Both `Decodable` and `RowDecodable`: `init(row:)` is the one used (it says so).
  struct Both: Decodable, RowDecodable, Equatable {
    var source: String

    init(source: String) { self.source = source }
    init(row: borrowing LiveRow) throws { source = "init(row:) of \(row.columns.count)" }
  }

  @Test func eachTypeReadsAndNullIsNilNeverZero() throws {
    let fixture = try AccessFixture()
    let date = Date(timeIntervalSince1970: 1_796_088_600.123)
    let uuid = UUID()
    try fixture.queue.write { db in
      try db.execute(
        "INSERT INTO item VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [42, Int64.max, Int32.min, 2.5, Float(1.5), true, "Ann", Data([0, 255]), date, uuid, 9]
      )
      try db.execute("INSERT INTO item (id) VALUES (2)")
    }
    let items = try fixture.queue.read { db in
      try db.fetchAll(Item.self, "SELECT * FROM item ORDER BY id")
    }
    try #require(items.count == 2)
    #expect(items[0].id == 1 && items[0].i == 42 && items[0].i64 == .max)
    #expect(items[0].i32 == .min && items[0].d == 2.5 && items[0].f == 1.5)
    #expect(items[0].b == true && items[0].s == "Ann" && items[0].data == Data([0, 255]))
    #expect(items[0].date?.sqlValue == date.sqlValue && items[0].uuid == uuid)
    #expect(items[0].v == 9)
    #expect(
      [items[1].i == nil, items[1].i64 == nil, items[1].i32 == nil, items[1].d == nil]
        + [items[1].f == nil, items[1].b == nil, items[1].s == nil, items[1].data == nil]
        + [items[1].date == nil, items[1].uuid == nil, items[1].v == .null]
        == Array(
          repeating: true,
          count: 11
        )
    )
  }

  @Test func aMismatchOrAMissingColumnNamesTheColumnAndTheType() throws {
    let fixture = try AccessFixture()
    try fixture.queue.read { (db) throws in
      let text = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Student.self, "SELECT 'Ann' AS stuName, 'old' AS age")
      }
      #expect(text == .mismatch(column: "age", type: "Int?", value: "old"))
      let null = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Student.self, "SELECT NULL AS stuName, 1 AS age")
      }
      #expect(null == .mismatch(column: "stuName", type: "String", value: .null))
      let missing = #expect(throws: RowDecodingError.self) {
        try db.fetchAll(Student.self, "SELECT 1 AS age")
      }
      #expect(missing == .missingColumn(column: "stuName", type: "String", columns: ["age"]))
      let tooBig = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Student.self, "SELECT 'Ann' AS stuName, 9223372036854775807 * 2 AS age")
      }
      #expect(tooBig == .mismatch(column: "age", type: "Int?", value: .real(1.8446744073709552e19)))
    }
  }

  @Test func columnsMatchInAnyOrderIgnoringCaseAndTheFirstOfTwoNamesIsRead() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 22), ('S2', 'Bob', NULL)")
    }
    try fixture.queue.read { (db) throws in
      // The columns in another order and case, row after row.
      let sql = "SELECT age AS AGE, stuName AS STUNAME FROM student ORDER BY stuID"
      #expect(
        try db.fetchAll(Student.self, sql) == [
          Student(name: "Ann", age: 22), Student(name: "Bob", age: nil),
        ]
      )
      // Two columns of one name: the first is read, by `decode` and by the subscripts.
      let twice = "SELECT 'first' AS stuName, 'second' AS stuName, 1 AS age"
      #expect(try db.fetchOne(Student.self, twice) == Student(name: "first", age: 1))
      let row = try #require(try db.fetchRow(twice))
      #expect(row["stuName"] == "first")
      #expect(try db.fetchOne(Both.self, twice) == Both(source: "init(row:) of 3"))
      #expect(try db.fetchAll(Both.self, twice) == [Both(source: "init(row:) of 3")])
      #expect(try db.fetchOne(Student.self, "SELECT * FROM student WHERE stuID = ?", ["S9"]) == nil)
    }
  }

  @Test func fetchRowReadsTheFirstRowOrNilAndKeepsTheQueuesRules() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', NULL), ('S2', 'Bob', 30)")
      #expect(
        try db.fetchRow("INSERT INTO student VALUES ('S3', 'Cy', 3) RETURNING stuID")
          == Row(columns: ["stuID"], values: ["S3"])
      )
    }
    try fixture.queue.read { (db) throws in
      let sql = "SELECT stuName, age FROM student WHERE stuID = ?"
      let ann = try #require(try db.fetchRow(sql, ["S1"]))
      #expect(ann.columns == ["stuName", "age"] && ann.values == ["Ann", .null])
      #expect(ann["age"] as Int? == nil)
      #expect(try db.fetchRow(sql, ["S2"])?["age"] == 30)
      #expect(try db.fetchRow(sql, ["S9"]) == nil)
      #expect(try db.fetchRow("SELECT stuID FROM student ORDER BY stuID")?["stuID"] == "S1")
      #expect(throws: DatabaseAccessError.argumentCount(sql: sql, expected: 1, given: 0)) {
        try db.fetchRow(sql)
      }
      let insert = "INSERT INTO student VALUES ('S4', 'Di', 4) RETURNING stuID"
      #expect(throws: DatabaseAccessError.writeInsideRead(sql: insert)) {
        try db.fetchRow(insert)
      }
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[3]])
  }

  @Test func liveRowSubscriptsAreNilForNullMissingAndOtherTypes() throws {
    struct Loose: RowDecodable {
      var age: Int?
      var name: Int?
      var missing: String?
      var value: SQLValue
      var columns: [String]
      init(row: borrowing LiveRow) throws {
        (age, name, missing) = (row["age"], row["name"], row["missing"])
        (value, columns) = (row["name"], row.columns)
      }
    }
    let fixture = try AccessFixture()
    let loose = try #require(
      try fixture.queue.read { db in
        try db.fetchOne(Loose.self, "SELECT NULL AS age, 'Ann' AS name")
      }
    )
    #expect(loose.age == nil && loose.name == nil && loose.missing == nil)
    #expect(loose.value == "Ann" && loose.columns == ["age", "name"])
  }
}
