import Foundation
import Testing

@testable import Strata

@Suite struct ArgumentsAndRowsTests {
  struct Student: Decodable, Equatable {
    var stuID: String
    var stuName: String
    var age: Int?
  }

  @Test func namedParametersBindWithEachPrefix() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute(
        "INSERT INTO student VALUES (:id, @name, $age)",
        ["id": "S1", "name": "Ann", "age": 22]
      )
      try db.execute(
        "INSERT INTO student VALUES (:id, :name, :age)",
        ["name": "Bob", "id": "S2", "age": nil]
      )
      try db.execute(
        "UPDATE student SET age = :age + :age WHERE stuID = :id",
        ["id": "S1", "age": 11]
      )
    }
    #expect(
      try fixture.stored("SELECT * FROM student ORDER BY stuID") == [
        ["S1", "Ann", 22], ["S2", "Bob", .null],
      ]
    )
  }

  @Test func argumentsThatDoNotMatchAreTypedErrorsAndRunNothing() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      let sql = "INSERT INTO student VALUES (?, ?, ?)"
      let count = #expect(
        throws: DatabaseAccessError.argumentCount(sql: sql, expected: 3, given: 2)
      ) {
        try db.execute(sql, ["S1", "Ann"])
      }
      _ = count
      #expect(throws: DatabaseAccessError.argumentCount(sql: sql, expected: 3, given: 0)) {
        try db.execute(sql)
      }
      let named = "INSERT INTO student VALUES (:id, :name, :age)"
      let missing = #expect(throws: DatabaseAccessError.self) {
        try db.execute(named, ["id": "S1", "name": "Ann"])
      }
      #expect(
        missing?.message
          == "`INSERT INTO student VALUES (:id, :name, :age)` has the parameter :age but no "
          + "argument of that name was given; nothing was run"
      )
      #expect(throws: DatabaseAccessError.unknownArgument(sql: named, name: "nmae")) {
        try db.execute(named, ["id": "S1", "name": "Ann", "age": 1, "nmae": "x"])
      }
      #expect(throws: DatabaseAccessError.argumentStyle(sql: named, parameter: ":id", named: false))
      {
        try db.execute(named, ["S1", "Ann", 1])
      }
      #expect(throws: DatabaseAccessError.argumentStyle(sql: sql, parameter: "?", named: true)) {
        try db.execute(sql, ["id": "S1"])
      }
      #expect(throws: DatabaseAccessError.argumentsForScript(sql: "DELETE FROM student; SELECT ?"))
      {
        try db.execute("DELETE FROM student; SELECT ?", [1])
      }
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
  }

  @Test func scriptsRunWithoutArguments() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute(
        "INSERT INTO student VALUES ('S1', 'Ann', 1); INSERT INTO student VALUES ('S2', 'Bob', 2);"
      )
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[2]])
  }

  @Test func rowsReadByNameIgnoringCaseAndDecodeIntoTypes() throws {
    let fixture = try AccessFixture()
    let students = try fixture.queue.write { db in
      for (id, name, age) in [("S2", "Bob", 30 as Int?), ("S1", "Ann", nil)] {
        try db.execute("INSERT INTO student VALUES (?, ?, ?)", [id, name, age])
      }
      #expect(db.changes == 1)
      #expect(db.lastInsertRowID == 2)
      return try db.fetchAll(Student.self, "SELECT * FROM student ORDER BY stuName")
    }
    #expect(
      students == [
        Student(stuID: "S1", stuName: "Ann", age: nil),
        Student(stuID: "S2", stuName: "Bob", age: 30),
      ]
    )
    try fixture.queue.read { db in
      let row = try #require(
        try db.fetchRows("SELECT stuName, age FROM student WHERE stuID = ?", ["S2"]).first
      )
      #expect(row.columns == ["stuName", "age"])
      #expect(row["STUNAME"] == "Bob")
      #expect(row["stuname"] as String? == "Bob")
      #expect(Array(row.map(\.0)) == ["stuName", "age"])
      let missing = #expect(throws: RowDecodingError.self) {
        try row.decode(String.self, column: "name")
      }
      #expect(
        missing?.message
          == "the row has no column \"name\" for a String (its columns: stuName, age)"
      )
      #expect(try db.fetchOne(Student.self, "SELECT * FROM student WHERE stuID = ?", ["S9"]) == nil)
      #expect(
        try db.fetchOne(Student.self, "SELECT * FROM student WHERE stuID = ?", ["S1"])?.stuName
          == "Ann"
      )
      #expect(
        try db.fetchAll(String.self, "SELECT stuName FROM student ORDER BY 1") == ["Ann", "Bob"]
      )
      #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM student") == 2)
    }
  }

  @Test func aDecodingMismatchNamesColumnTypeAndValue() throws {
    let fixture = try AccessFixture()
    try fixture.queue.read { db in
      let error = #expect(throws: RowDecodingError.self) {
        try db.fetchAll(Student.self, "SELECT 'S1' AS stuID, 'Ann' AS stuName, 'twelve' AS age")
      }
      #expect(error?.message == "column \"age\" holds text 'twelve', which is not an Int")
      let missing = #expect(throws: RowDecodingError.self) {
        try db.fetchAll(Student.self, "SELECT 'S1' AS stuID, 12 AS age")
      }
      #expect(
        missing == .missingColumn(column: "stuName", type: "String", columns: ["stuID", "age"])
      )
      // An optional property may be missing from the query: it decodes as nil.
      let partial = try db.fetchOne(Student.self, "SELECT 'S1' AS stuID, 'Ann' AS stuName")
      #expect(partial == Student(stuID: "S1", stuName: "Ann", age: nil))
    }
  }

  enum Level: String, Decodable { case beginner, expert }
  struct Tagged: Decodable, Equatable {
    struct Point: Decodable, Equatable { var x: Int; var y: Int }
    var level: Level
    var point: Point
    var tags: [String]
    var small: Int8
    var when: Date
    var id: UUID
  }

  @Test func nestedTypesDecodeFromJSONTextAndEnumsFromRawValues() throws {
    let fixture = try AccessFixture()
    try fixture.queue.read { db in
      let sql = """
        SELECT 'expert' AS level, '{"x":1,"y":2}' AS point, '["a","b"]' AS tags, 5 AS small,
        '2026-12-01T01:30:00Z' AS "when", 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' AS id
        """
      let value = try #require(try db.fetchOne(Tagged.self, sql))
      #expect(value.level == .expert)
      #expect(value.point == .init(x: 1, y: 2))
      #expect(value.tags == ["a", "b"])
      #expect(value.small == 5)
      #expect(value.when == Date(sqlValue: "2026-12-01T01:30:00Z"))
      let overflow = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(
          Tagged.self,
          sql.replacingOccurrences(of: "5 AS small", with: "300 AS small")
        )
      }
      #expect(overflow == .mismatch(column: "small", type: "Int8", value: 300))
      // A raw value the enum has no case for names its column, as any other mismatch does.
      let unknown = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Tagged.self, sql.replacingOccurrences(of: "'expert'", with: "'master'"))
      }
      #expect(unknown == .mismatch(column: "level", type: "Level", value: "master"))
      #expect(unknown?.message == "column \"level\" holds text 'master', which is not a Level")
      #expect(throws: RowDecodingError.self) {
        try db.fetchOne(
          Tagged.self,
          sql.replacingOccurrences(of: "'{\"x\":1,\"y\":2}'", with: "'{'")
        )
      }
    }
  }
}
