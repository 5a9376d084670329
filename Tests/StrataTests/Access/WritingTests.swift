import Foundation
import Testing

@testable import Strata

/// Writes from Swift values: insert, upsert, update, delete and fetch by key, against real
/// SQLite files, each checked by what the file holds.
@Suite struct WritingTests {
  typealias Student = WritingFixture.Student

  enum Color: String, Codable, Equatable { case red, green }
  enum Level: Int, Codable, Equatable { case low = 1, high = 2 }

  /// A property of every type the decoder reads, and an optional of each.
  struct Everything: Codable, Equatable {
    var id: Int64
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint8: UInt8
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var bool: Bool
    var string: String
    var data: Data
    var date: Date
    var url: URL
    var uuid: UUID
    var color: Color
    var level: Level
    var maybeInt: Int?
    var maybeDouble: Double?
    var maybeBool: Bool?
    var maybeString: String?
    var maybeData: Data?
    var maybeDate: Date?
    var maybeUUID: UUID?
    var maybeColor: Color?
  }

  static let date = Date(timeIntervalSince1970: 1_796_088_600.5)
  static let uuid = UUID(
    uuid: (15, 30, 45, 60, 75, 90, 105, 120, 135, 150, 165, 180, 195, 210, 225, 240)
  )

  static func everything(id: Int64, optionals: Bool) -> Everything {
    Everything(
      id: id,
      int: -42,
      int8: -8,
      int16: 1600,
      int32: .min,
      int64: .max,
      uint8: 255,
      uint32: .max,
      uint64: UInt64(Int64.max),
      double: 2.5,
      float: 1.25,
      bool: true,
      string: "Ann 'the' \"first\"",
      data: Data([0, 1, 2, 255]),
      date: date,
      url: URL(fileURLWithPath: "/tmp/a b"),
      uuid: uuid,
      color: .green,
      level: .high,
      maybeInt: optionals ? 7 : nil,
      maybeDouble: optionals ? -0.25 : nil,
      maybeBool: optionals ? false : nil,
      maybeString: optionals ? "" : nil,
      maybeData: optionals ? Data() : nil,
      maybeDate: optionals ? date : nil,
      maybeUUID: optionals ? uuid : nil,
      maybeColor: optionals ? .red : nil
    )
  }

  @Test func everyTypeRoundTripsThroughInsertAndFetchByKey() throws {
    let fixture = try WritingFixture()
    let full = Self.everything(id: 1, optionals: true)
    let empty = Self.everything(id: 2, optionals: false)
    try fixture.queue.write { db in
      try db.insert(full, into: "everything")
      try db.insert(empty, into: "everything")
    }
    try fixture.queue.read { db throws in
      #expect(try db.fetchOne(Everything.self, from: "everything", key: [1]) == full)
      #expect(try db.fetchOne(Everything.self, from: "everything", key: [2]) == empty)
      #expect(try db.fetchOne(Everything.self, from: "everything", key: [3]) == nil)
    }
    // Stored as SQLValueConvertible says, the way reading reads them back.
    let row = try fixture.stored(
      "SELECT bool, date, uuid, color, level, uint32, data, maybeBool, maybeString "
        + "FROM everything WHERE id = 1"
    )[0]
    #expect(
      row == [
        1, "2026-12-01T01:30:00.500Z", .text(Self.uuid.uuidString), "green", 2,
        .integer(Int64(UInt32.max)), .blob([0, 1, 2, 255]), 0, "",
      ]
    )
    let nulls = try fixture.stored(
      "SELECT maybeInt, maybeDouble, maybeBool, maybeString, maybeData, maybeDate, maybeUUID, "
        + "maybeColor FROM everything WHERE id = 2"
    )[0]
    #expect(nulls == Array(repeating: .null, count: 8))
  }

  @Test func aNilIntegerKeyGetsANewRowIDAndMissingColumnsTheirDefaults() throws {
    struct Account: Codable, Equatable {
      var id: Int64?
      var email: String
      var name: String
    }
    struct Enrolment: Codable, Equatable {
      var student: String
      var course: String
      var grade: Int?
    }
    let fixture = try WritingFixture()
    let (first, second) = try fixture.queue.write { db in
      try db.insert(Account(id: nil, email: "a@x", name: "Ann"), into: "account")
      let first = db.lastInsertRowID
      try db.insert(Account(id: 10, email: "b@x", name: "Bo"), into: "account")
      try db.insert(Enrolment(student: "S1", course: "Maths", grade: nil), into: "enrolment")
      return (first, db.lastInsertRowID)
    }
    #expect(first == 1)
    #expect(second == 10)  // WITHOUT ROWID: the last rowid stays the previous insert's
    // Columns without a property took their defaults; a nil optional stored NULL.
    #expect(
      try fixture.stored("SELECT id, email, name, visits, note FROM account ORDER BY id")
        == [[1, "a@x", "Ann", 0, .null], [10, "b@x", "Bo", 0, .null]]
    )
    #expect(try fixture.stored("SELECT * FROM enrolment") == [["S1", "Maths", .null]])
  }

  @Test func upsertInsertsThenUpdatesInPlaceWithoutDeletingTheRow() throws {
    struct Parent: Codable { var id: Int64; var name: String }
    struct Account: Codable { var email: String; var name: String }
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.upsert(Parent(id: 1, name: "first"), into: "parent")
      try db.execute("INSERT INTO child (id, parent) VALUES (1, 1)")
      try db.upsert(Parent(id: 1, name: "renamed"), into: "parent")
      // By a UNIQUE column: the row keeps its id and the columns the type has no property for.
      try db.upsert(Account(email: "a@x", name: "Ann"), into: "account", onConflict: ["email"])
      try db.execute("UPDATE account SET visits = 5, note = 'kept'")
      try db.upsert(Account(email: "a@x", name: "Anne"), into: "account", onConflict: ["email"])
    }
    #expect(try fixture.stored("SELECT * FROM parent") == [[1, "renamed"]])
    // No delete: the child row was not cascaded away and the delete trigger never fired, as
    // INSERT OR REPLACE would have done.
    #expect(try fixture.stored("SELECT * FROM child") == [[1, 1]])
    #expect(try fixture.stored("SELECT * FROM log") == [])
    #expect(try fixture.stored("SELECT * FROM account") == [[1, "a@x", "Anne", 5, "kept"]])
  }

  @Test func upsertOfAKeylessTableConflictsOnItsRowID() throws {
    struct Person: Codable, Equatable { var rowid: Int64; var name: String; var age: Int? }
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.upsert(Person(rowid: 5, name: "Peter", age: 22), into: "person_info")
      try db.upsert(Person(rowid: 5, name: "Peter", age: 23), into: "person_info")
      #expect(
        try db.fetchOne(Person.self, from: "person_info", key: [5])
          == Person(rowid: 5, name: "Peter", age: 23)
      )
    }
    #expect(try fixture.stored("SELECT rowid, * FROM person_info") == [[5, "Peter", 23]])
  }

  @Test func updateWritesEveryPropertyIncludingNilAndKeepsOtherColumns() throws {
    struct Contact: Codable { var email: String; var note: String? }
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.insert(Student(stuID: "S1", stuName: "Ann", stuAge: 20), into: "student")
      try db.insert(Student(stuID: "S2", stuName: "Bo", stuAge: 30), into: "student")
      try db.update(Student(stuID: "S1", stuName: "Anne", stuAge: nil), in: "student")
      try db.execute("INSERT INTO account (email, name, note) VALUES ('a@x', 'Ann', 'old')")
      try db.update(Contact(email: "a@x", note: nil), in: "account", key: ["email"])
    }
    #expect(
      try fixture.stored("SELECT * FROM student ORDER BY stuID")
        == [["S1", "Anne", .null], ["S2", "Bo", 30]]
    )
    #expect(try fixture.stored("SELECT email, name, note FROM account") == [["a@x", "Ann", .null]])
  }

  @Test func deleteByKeyInOrderOrByNameSaysWhetherARowWasThere() throws {
    struct Enrolment: Codable { var student: String; var course: String }
    let fixture = try WritingFixture()
    let results = try fixture.queue.write { db in
      try db.insert(Enrolment(student: "S1", course: "Maths"), into: "enrolment")
      try db.insert(Enrolment(student: "S1", course: "Art"), into: "enrolment")
      try db.execute("INSERT INTO account (email, name) VALUES ('a@x', 'Ann')")
      return [
        try db.delete(from: "enrolment", key: ["S1", "Maths"]),
        try db.delete(from: "enrolment", key: ["course": "Art", "student": "S1"]),
        try db.delete(from: "enrolment", key: ["S1", "Art"]),
        try db.delete(from: "account", key: ["email": "a@x"]),
      ]
    }
    #expect(results == [true, true, false, true])
    #expect(try fixture.stored("SELECT count(*) FROM enrolment") == [[0]])
    #expect(try fixture.stored("SELECT count(*) FROM account") == [[0]])
  }

  @Test func fetchByKeyReadsByPrimaryOrUniqueKeyAndTheRowIDOfAKeylessTable() throws {
    struct Account: Codable, Equatable { var id: Int64; var email: String; var name: String }
    struct Person: Codable, Equatable { var rowid: Int64; var name: String; var age: Int? }
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO account (id, email, name) VALUES (3, 'a@x', 'Ann')")
      try db.execute("INSERT INTO person_info (rowid, name) VALUES (7, 'Peter')")
    }
    try fixture.queue.read { db throws in
      let ann = Account(id: 3, email: "a@x", name: "Ann")
      #expect(try db.fetchOne(Account.self, from: "account", key: [3]) == ann)
      #expect(try db.fetchOne(Account.self, from: "ACCOUNT", key: ["EMAIL": "a@x"]) == ann)
      #expect(
        try db.fetchOne(Person.self, from: "person_info", key: [7])
          == Person(rowid: 7, name: "Peter", age: nil)
      )
      #expect(
        try db.fetchOne(Person.self, from: "person_info", key: ["rowid": 7])?.name == "Peter"
      )
    }
  }

  @Test func aSchemaChangeInsideTheWriteIsSeenByTheNextWrite() throws {
    struct Before: Codable { var stuID: String; var stuName: String }
    struct After: Codable { var stuID: String; var stuName: String; var email: String? }
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.insert(Before(stuID: "S1", stuName: "Ann"), into: "student")
      try db.execute("ALTER TABLE student ADD COLUMN email TEXT")
      try db.insert(After(stuID: "S2", stuName: "Bo", email: "b@x"), into: "student")
    }
    #expect(
      try fixture.stored("SELECT stuID, email FROM student") == [["S1", .null], ["S2", "b@x"]]
    )
  }

  @Test func aLoopOfInsertsCompilesItsStatementOnce() throws {
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.insert(Student(stuID: "S0", stuName: "A", stuAge: 1), into: "student")
      let cached = db.statements.count
      for number in 1...50 {
        try db.insert(Student(stuID: "S\(number)", stuName: "A", stuAge: number), into: "student")
      }
      #expect(db.statements.count == cached)
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[51]])
  }

  @Test func aWriteInsideAReadIsRefusedAndAReadByKeyIsNot() throws {
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.insert(Student(stuID: "S1", stuName: "Ann", stuAge: nil), into: "student")
    }
    #expect(throws: DatabaseAccessError.self) {
      try fixture.queue.read { db in
        try db.insert(Student(stuID: "S2", stuName: "Bo", stuAge: nil), into: "student")
      }
    }
    let ann = try fixture.queue.read { db in
      try db.fetchOne(Student.self, from: "student", key: ["S1"])
    }
    #expect(ann == Student(stuID: "S1", stuName: "Ann", stuAge: nil))
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[1]])
  }
}
