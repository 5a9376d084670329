import Foundation
import Testing

@testable import Strata

/// Writes from Swift values that cannot be done: each error names the Swift type, the table
/// and the property or column, and the failed write left the table as it was.
@Suite struct WritingErrorTests {
  typealias Student = WritingFixture.Student

  @Test func aPropertyWithoutAColumnIsRefused() throws {
    struct Nicknamed: Codable { var stuID: String; var stuName: String; var nickname: String }
    let fixture = try WritingFixture()
    let error = try fixture.failure { db in
      try db.insert(Nicknamed(stuID: "S1", stuName: "Ann", nickname: "A"), into: "student")
    }
    #expect(
      error
        == .propertyWithoutColumn(
          type: "Nicknamed",
          table: "student",
          property: "nickname",
          columns: ["stuID", "stuName", "stuAge", "rowid"]
        )
    )
    #expect(
      error?.message
        == "Nicknamed's property \"nickname\" has no column in table \"student\" (its columns: "
        + "stuID, stuName, stuAge, rowid); nothing was written"
    )
  }

  @Test func aNotNullColumnWithoutDefaultNeedsAPropertyButNullableAndDefaultedOnesDoNot() throws {
    struct NameOnly: Codable { var stuID: String }
    struct Account: Codable { var email: String; var name: String }
    let fixture = try WritingFixture()
    let error = try fixture.failure { db in
      try db.insert(NameOnly(stuID: "S1"), into: "student")
    }
    #expect(
      error
        == .columnWithoutProperty(
          type: "NameOnly",
          table: "student",
          column: "stuName",
          isKey: false
        )
    )
    #expect(
      error?.message
        == "NameOnly has no property for column \"stuName\" of table \"student\", which is NOT "
        + "NULL without a default; nothing was written"
    )
    // `visits` (NOT NULL DEFAULT 0), `note` (nullable) and `id` (the rowid) need none.
    try fixture.queue.write { db in
      try db.insert(Account(email: "a@x", name: "Ann"), into: "account")
    }
    #expect(try fixture.stored("SELECT * FROM account") == [[1, "a@x", "Ann", 0, .null]])
  }

  @Test func anUpdateOrUpsertNeedsAPropertyForEachKeyColumn() throws {
    struct Unkeyed: Codable { var stuName: String }
    let fixture = try WritingFixture()
    for write in [
      { (db: Database) in try db.update(Unkeyed(stuName: "Ann"), in: "student") },
      { (db: Database) in try db.upsert(Unkeyed(stuName: "Ann"), into: "student") },
    ] {
      let error = try fixture.failure("SELECT count(*) FROM student", write)
      #expect(
        error
          == .columnWithoutProperty(type: "Unkeyed", table: "student", column: "stuID", isKey: true)
      )
    }
  }

  @Test func aValueThatDoesNotFitNamesThePropertyAndWritesNothing() throws {
    struct Wide: Codable { var id: Int64; var count: UInt64 }
    struct Counted: Codable { var id: Int64; var count: String }
    struct Measured: Codable { var stuID: String; var stuName: String; var stuAge: Double }
    struct Nameless: Codable { var stuID: String; var stuName: String? }
    let fixture = try WritingFixture()
    let counter = "SELECT count(*) FROM counter"

    let tooWide = try fixture.failure(counter) { db in
      try db.insert(Wide(id: 1, count: .max), into: "counter")
    }
    #expect(
      tooWide?.message
        == "Wide's property \"count\" cannot be stored in table \"counter\": "
        + "18446744073709551615 is beyond SQLite's integers (-9223372036854775808 to "
        + "9223372036854775807); nothing was written"
    )

    // A STRICT table refuses text in an INTEGER column: SQLite's refusal, named.
    let text = try fixture.failure(counter) { db in
      try db.insert(Counted(id: 1, count: "twelve"), into: "counter")
    }
    #expect(
      text
        == .valueDoesNotFit(
          type: "Counted",
          table: "counter",
          property: "count",
          reason: "SQLite refused it: cannot store TEXT value in INTEGER column counter.count"
        )
    )

    let nan = try fixture.failure { db in
      try db.insert(Measured(stuID: "S1", stuName: "Ann", stuAge: .nan), into: "student")
    }
    #expect(
      nan
        == .valueDoesNotFit(
          type: "Measured",
          table: "student",
          property: "stuAge",
          reason: "NaN is not a number SQLite keeps (it would store NULL)"
        )
    )

    let null = try fixture.failure { db in
      try db.insert(Nameless(stuID: "S1", stuName: nil), into: "student")
    }
    #expect(
      null
        == .valueDoesNotFit(
          type: "Nameless",
          table: "student",
          property: "stuName",
          reason: "nil, and its column \"stuName\" is NOT NULL"
        )
    )
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
    #expect(try fixture.stored(counter) == [[0]])
  }

  @Test func aNestedTypeIsRefusedWithItsPropertyNotStoredAsJSON() throws {
    struct Address: Codable { var street: String }
    struct Moved: Codable { var stuID: String; var stuName: String; var stuAge: Address }
    struct Tagged: Codable { var stuID: String; var stuName: String; var stuAge: [Int] }
    struct Mapped: Codable { var stuID: String; var stuName: String; var stuAge: [String: Int] }
    struct MaybeMoved: Codable { var stuID: String; var stuName: String; var stuAge: Address? }
    let fixture = try WritingFixture()

    let nested = try fixture.failure { db in
      try db.insert(
        Moved(stuID: "S1", stuName: "Ann", stuAge: Address(street: "x")),
        into: "student"
      )
    }
    #expect(
      nested
        == .nestedValue(type: "Moved", table: "student", property: "stuAge", valueType: "Address")
    )
    #expect(
      nested?.message
        == "Moved's property \"stuAge\" is Address, a nested type, which table \"student\" "
        + "cannot hold in one column; nothing was written"
    )
    let array = try fixture.failure { db in
      try db.insert(Tagged(stuID: "S1", stuName: "Ann", stuAge: [1]), into: "student")
    }
    #expect(
      array
        == .nestedValue(
          type: "Tagged",
          table: "student",
          property: "stuAge",
          valueType: "Array<Int>"
        )
    )
    let dictionary = try fixture.failure { db in
      try db.upsert(Mapped(stuID: "S1", stuName: "Ann", stuAge: ["a": 1]), into: "student")
    }
    #expect(
      dictionary
        == .nestedValue(
          type: "Mapped",
          table: "student",
          property: "stuAge",
          valueType: "Dictionary<String, Int>"
        )
    )
    // nil is NULL; a value is still refused.
    try fixture.queue.write { db in
      try db.insert(MaybeMoved(stuID: "S1", stuName: "Ann", stuAge: nil), into: "student")
    }
    let some = try fixture.failure { db in
      try db.update(
        MaybeMoved(stuID: "S1", stuName: "Ann", stuAge: Address(street: "x")),
        in: "student"
      )
    }
    #expect(some?.message.contains("property \"stuAge\" is Address") == true)
    #expect(try fixture.stored("SELECT * FROM student") == [["S1", "Ann", .null]])
  }

  @Test func aSingleValueOrAListIsNotARow() throws {
    let fixture = try WritingFixture()
    let single = try fixture.failure { db in try db.insert("Ann", into: "student") }
    #expect(single == .notARow(type: "String", table: "student"))
    let list = try fixture.failure { db in try db.insert([1, 2], into: "student") }
    #expect(list == .notARow(type: "Array<Int>", table: "student"))
  }

  @Test func anUpdateOfAKeyThatMatchesNoRowIsAnError() throws {
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.insert(Student(stuID: "S1", stuName: "Ann", stuAge: 20), into: "student")
    }
    let error = try fixture.failure("SELECT * FROM student") { db in
      try db.update(Student(stuID: "S9", stuName: "Zed", stuAge: 1), in: "student")
    }
    #expect(error == .noRowForKey(type: "Student", table: "student", key: "stuID = 'S9'"))
    #expect(
      error?.message
        == "no row of table \"student\" has the key of the Student to update (stuID = 'S9'); "
        + "nothing was written"
    )
    #expect(try fixture.stored("SELECT * FROM student") == [["S1", "Ann", 20]])
  }

  @Test func aTableThatIsNotThereOrIsAViewIsNamed() throws {
    let fixture = try WritingFixture()
    let missing = try fixture.failure { db in
      try db.insert(Student(stuID: "S1", stuName: "Ann", stuAge: nil), into: "students")
    }
    #expect(missing == .noSuchTable(type: "Student", table: "students"))
    let view = try fixture.failure { db in
      _ = try db.delete(from: "student_names", key: ["Ann"])
    }
    #expect(view == .noSuchTable(type: "a key", table: "student_names"))
  }

  @Test func aKeyThatIsNotOneOfTheTablesIsRefused() throws {
    struct Named: Codable { var stuID: String; var stuName: String }
    let fixture = try WritingFixture()
    let count = try fixture.failure { db in _ = try db.delete(from: "enrolment", key: ["S1"]) }
    #expect(
      count
        == .notAKey(table: "enrolment", given: "1 value in order", keys: [["student", "course"]])
    )
    let column = try fixture.failure { db in
      _ = try db.fetchOne(Student.self, from: "account", key: ["name": "Ann"])
    }
    #expect(
      column?.message
        == "the key given (name) is not a key of table \"account\", whose keys are (id), (email); "
        + "nothing was run"
    )
    let conflict = try fixture.failure { db in
      try db.upsert(Named(stuID: "S1", stuName: "Ann"), into: "student", onConflict: ["stuName"])
    }
    #expect(conflict == .notAKey(table: "student", given: "stuName", keys: [["stuID"]]))
  }

  @Test func aConstraintOtherThanAValuesFitStaysSQLitesError() throws {
    let fixture = try WritingFixture()
    try fixture.queue.write { db in
      try db.insert(Student(stuID: "S1", stuName: "Ann", stuAge: nil), into: "student")
    }
    #expect {
      try fixture.queue.write { db in
        try db.insert(Student(stuID: "S1", stuName: "Bo", stuAge: nil), into: "student")
      }
    } throws: { error in
      (error as? SQLiteError)?.message == "UNIQUE constraint failed: student.stuID"
    }
    #expect(try fixture.stored("SELECT * FROM student") == [["S1", "Ann", .null]])
  }
}
