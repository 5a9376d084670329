import Foundation
import Testing

@testable import Strata

/// The queue's fast paths: arguments kept inline (one to three values) and rows decoded in
/// place from the statement, without a `Row` in between.
@Suite struct InPlaceReadingTests {
  struct Person: Decodable, Equatable {
    var name: String
    var age: Int?
  }

  @Test func shortLiteralsEqualAndHashLikeTheArrayTheyStandFor() {
    let one: SQLArguments = [1]
    let two: SQLArguments = ["a", nil]
    let three: SQLArguments = [1, 2.5, true]
    let four: SQLArguments = [1, 2, 3, 4]
    #expect(one == SQLArguments([.integer(1)]))
    #expect(one.hashValue == SQLArguments([.integer(1)]).hashValue)
    #expect(two == SQLArguments([.text("a"), .null]))
    #expect(three == SQLArguments([.integer(1), .real(2.5), .integer(1)]))
    #expect(four == SQLArguments([1, 2, 3, 4]))
    #expect(one != two)
    #expect(one != SQLArguments(named: ["1": 1]))
    #expect(Set([one, SQLArguments([1])]).count == 1)
    #expect(!one.isEmpty && !three.isEmpty)
    #expect(([] as SQLArguments).isEmpty)
  }

  @Test func eachLiteralLengthBindsInOrderAndChecksTheCount() throws {
    let fixture = try AccessFixture()
    let date = Date(timeIntervalSince1970: 1_796_000_000.123)
    let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    let url = URL(string: "https://example.com/a?b=1")!
    let bytes = Data([0, 1, 2])
    try fixture.queue.write { db in
      try db.execute("INSERT INTO item (id) VALUES (?)", [1])
      try db.execute("INSERT INTO item (id, b) VALUES (?, ?)", [2, true])
      try db.execute("INSERT INTO item (id, date, uuid) VALUES (?, ?, ?)", [3, date, uuid])
      try db.execute(
        "INSERT INTO item (id, s, data, b, v) VALUES (?, ?, ?, ?, ?)",
        [4, url, bytes, false, nil]
      )
      let sql = "INSERT INTO item (id, s) VALUES (?, ?)"
      #expect(throws: DatabaseAccessError.argumentCount(sql: sql, expected: 2, given: 1)) {
        try db.execute(sql, [5])
      }
      #expect(throws: DatabaseAccessError.argumentCount(sql: sql, expected: 2, given: 3)) {
        try db.execute(sql, [5, "x", 1])
      }
      let named = "INSERT INTO item (id, s) VALUES (:id, :s)"
      #expect(throws: DatabaseAccessError.self) { try db.execute(named, [5, "x"]) }
      try db.execute(named, ["id": 5, "s": "named"])
    }
    #expect(
      try fixture.stored("SELECT id, b, date, uuid, s, data, v FROM item ORDER BY id") == [
        [1, .null, .null, .null, .null, .null, .null],
        [2, 1, .null, .null, .null, .null, .null],
        [3, .null, date.sqlValue, .text(uuid.uuidString), .null, .null, .null],
        [4, 0, .null, .null, .text(url.absoluteString), .blob([0, 1, 2]), .null],
        [5, .null, .null, .null, "named", .null, .null],
      ]
    )
    try fixture.queue.read { (db) throws in
      #expect(try db.fetchValue(Date.self, "SELECT date FROM item WHERE id = ?", [3]) == date)
      #expect(try db.fetchValue(UUID.self, "SELECT uuid FROM item WHERE id = ?", [3]) == uuid)
      #expect(try db.fetchValue(URL.self, "SELECT s FROM item WHERE id = ?", [4]) == url)
      #expect(try db.fetchValue(Data.self, "SELECT data FROM item WHERE id = ?", [4]) == bytes)
      #expect(try db.fetchValue(Bool.self, "SELECT b FROM item WHERE id = ?", [4]) == false)
      #expect(try db.fetchValue(Int.self, "SELECT id FROM item WHERE date = ?", [date]) == 3)
    }
  }

  @Test func aStructDecodesInPlaceWithNullMismatchAndMissingColumns() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", nil])
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S2", "Bob", 30])
    }
    try fixture.queue.read { (db) throws in
      let sql = "SELECT stuName AS name, age FROM student WHERE stuID = ?"
      #expect(try db.fetchOne(Person.self, sql, ["S1"]) == Person(name: "Ann", age: nil))
      #expect(try db.fetchOne(Person.self, sql, ["S2"]) == Person(name: "Bob", age: 30))
      #expect(try db.fetchOne(Person.self, sql, ["S9"]) == nil)
      // Column names match ignoring ASCII case, in any order.
      let upper = "SELECT age AS AGE, stuName AS NAME FROM student WHERE stuID = :id"
      #expect(try db.fetchOne(Person.self, upper, ["id": "S2"]) == Person(name: "Bob", age: 30))
      let mismatch = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Person.self, "SELECT 'Ann' AS name, 'old' AS age")
      }
      #expect(mismatch == .mismatch(column: "age", type: "Int", value: "old"))
      let null = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Person.self, "SELECT NULL AS name, 1 AS age")
      }
      #expect(null == .mismatch(column: "name", type: "String", value: .null))
      let missing = #expect(throws: RowDecodingError.self) {
        try db.fetchAll(Person.self, "SELECT 1 AS age")
      }
      #expect(missing == .missingColumn(column: "name", type: "String", columns: ["age"]))
      #expect(
        try db.fetchAll(Person.self, "SELECT stuName AS name, age FROM student ORDER BY 1") == [
          Person(name: "Ann", age: nil), Person(name: "Bob", age: 30),
        ]
      )
    }
  }

  @Test func oneStatementReadAsAValueThenAStructThenAValueAgain() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", 22])
    }
    try fixture.queue.read { (db) throws in
      // One cached statement, read as several types in turn: each reads as its own kind.
      let sql = "SELECT stuName AS name, age FROM student WHERE stuID = ?"
      #expect(try db.fetchOne(String.self, sql, ["S1"]) == "Ann")
      #expect(try db.fetchOne(Person.self, sql, ["S1"]) == Person(name: "Ann", age: 22))
      #expect(try db.fetchOne(String?.self, sql, ["S1"]) == "Ann")
      #expect(try db.fetchOne(Person.self, sql, ["S1"]) == Person(name: "Ann", age: 22))
      #expect(try db.fetchAll(String.self, sql, ["S1"]) == ["Ann"])
      let mismatch = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Int.self, sql, ["S1"])
      }
      #expect(mismatch == .mismatch(column: "name", type: "Int", value: "Ann"))
    }
  }

  @Test func oneStatementDecodesAsTwoStructsInTurnEachWithItsOwnKeys() throws {
    struct Named: Decodable, Equatable {
      var name: String
      var nickname: String?
      var score: Double?
    }
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", 22])
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S2", "Bob", nil])
    }
    try fixture.queue.read { (db) throws in
      // The decoder keeps the container made for one type's keys: another type, then the
      // first again, each reads its own properties.
      let sql = "SELECT stuName AS name, age FROM student ORDER BY stuID"
      let people = [Person(name: "Ann", age: 22), Person(name: "Bob", age: nil)]
      let named = [
        Named(name: "Ann", nickname: nil, score: 22), Named(name: "Bob", nickname: nil, score: nil),
      ]
      #expect(try db.fetchAll(Person.self, sql) == people)
      #expect(
        try db.fetchAll(Named.self, sql.replacingOccurrences(of: "age", with: "age AS score"))
          == named
      )
      #expect(try db.fetchAll(Person.self, sql) == people)
      // An optional property holding another type is an error naming the property's type.
      let text = #expect(throws: RowDecodingError.self) {
        try db.fetchOne(Named.self, "SELECT 'Ann' AS name, 'high' AS score")
      }
      #expect(text == .mismatch(column: "score", type: "Double", value: "high"))
    }
  }
}
