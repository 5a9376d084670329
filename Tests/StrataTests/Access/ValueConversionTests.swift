import Foundation
import Testing

@testable import Strata

@Suite struct ValueConversionTests {
  @Test func everyTypeRoundTripsThroughATableAsLiteralAndOptional() throws {
    let fixture = try AccessFixture()
    let date = Date(timeIntervalSince1970: 1_796_088_600.123)
    let uuid = UUID()
    let data = Data([0, 1, 2, 255])
    try fixture.queue.write { db in
      try db.execute(
        "INSERT INTO item VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [42, Int64.max, Int32.min, 2.5, Float(1.5), true, "Ann", data, date, uuid, SQLValue.null]
      )
      let i: Int? = 7
      let i64: Int64? = nil
      let i32: Int32? = 3
      let d: Double? = nil
      let f: Float? = 0.25
      let b: Bool? = false
      let s: String? = nil
      let blob: Data? = Data()
      let when: Date? = date
      let id: UUID? = nil
      let v: SQLValue? = .integer(9)
      try db.execute(
        "INSERT INTO item VALUES (2, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [i, i64, i32, d, f, b, s, blob, when, id, v]
      )
    }
    #expect(
      try fixture.stored("SELECT * FROM item WHERE id = 1")[0] == [
        1, 42, .integer(Int64.max), .integer(Int64(Int32.min)), 2.5, 1.5, 1, "Ann",
        .blob([0, 1, 2, 255]), "2026-12-01T01:30:00.123Z", .text(uuid.uuidString), .null,
      ]
    )
    try fixture.queue.read { db in
      let rows = try db.fetchRows("SELECT * FROM item ORDER BY id")
      let first = rows[0]
      #expect(try first.decode(Int.self, column: "i") == 42)
      #expect(try first.decode(Int64.self, column: "i64") == .max)
      #expect(try first.decode(Int32.self, column: "i32") == .min)
      #expect(try first.decode(Double.self, column: "d") == 2.5)
      #expect(try first.decode(Float.self, column: "f") == 1.5)
      #expect(try first.decode(Bool.self, column: "b") == true)
      #expect(try first.decode(String.self, column: "s") == "Ann")
      #expect(try first.decode(Data.self, column: "data") == data)
      #expect(abs(try first.decode(Date.self, column: "date").timeIntervalSince(date)) < 0.0005)
      #expect(try first.decode(UUID.self, column: "uuid") == uuid)
      #expect(try first.decode(SQLValue.self, column: "v") == .null)
      let second = rows[1]
      #expect(second["i"] as Int? == 7)
      #expect(second["i64"] as Int64? == nil)
      #expect(second["i32"] as Int32? == 3)
      #expect(second["d"] as Double? == nil)
      #expect(second["f"] as Float? == 0.25)
      #expect(second["b"] as Bool? == false)
      #expect(second["s"] as String? == nil)
      #expect(second["data"] as Data? == Data())
      #expect((second["date"] as Date?)?.sqlValue == date.sqlValue)
      #expect(second["uuid"] as UUID? == nil)
      #expect(second["v"] == 9)
      #expect(try second.decode(String?.self, column: "s") == nil)
    }
  }

  @Test func literalsMakeValues() {
    let values: [SQLValue] = ["text", 12, 1.5, true, false]
    #expect(values == [.text("text"), .integer(12), .real(1.5), .integer(1), .integer(0)])
    #expect(SQLValue.real(2).doubleValue == 2)
    #expect(SQLValue.integer(2).doubleValue == nil)
    #expect(SQLValue.blob([1]).blobValue == [1])
    #expect(SQLValue.null.isNull)
    #expect(!SQLValue.integer(0).isNull)
  }

  @Test func datesAreWrittenInUTCWithMillisecondsAndReadInThreeForms() throws {
    let date = Date(timeIntervalSince1970: 1_796_088_600.123)
    #expect(date.sqlValue == .text("2026-12-01T01:30:00.123Z"))
    let read = try #require(Date(sqlValue: "2026-12-01T01:30:00.123Z"))
    #expect(abs(read.timeIntervalSince(date)) < 0.0005)
    #expect(read.sqlValue == date.sqlValue)
    let whole = Date(timeIntervalSince1970: 1_796_088_600)
    #expect(Date(sqlValue: "2026-12-01T01:30:00Z") == whole)
    #expect(Date(sqlValue: "2026-12-01 01:30:00") == whole)
    #expect(Date(sqlValue: "yesterday") == nil)
    #expect(Date(sqlValue: .integer(1_796_088_600)) == nil)
    // SQLite's own datetime() text reads back.
    let fixture = try AccessFixture()
    let now = try fixture.queue.read { db in
      try db.fetchValue(Date.self, "SELECT datetime('2026-12-01 01:30:00')")
    }
    #expect(now == whole)
  }

  @Test func uuidsAreUpperCaseTextAndReadFromEitherCaseOrSixteenBytes() {
    let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(uuid.sqlValue == .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(UUID(sqlValue: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f") == uuid)
    let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
    #expect(UUID(sqlValue: .blob(bytes)) == uuid)
    #expect(UUID(sqlValue: .blob([1, 2, 3])) == nil)
    #expect(UUID(sqlValue: "not-a-uuid") == nil)
  }

  @Test func nullReadsAsNilNeverZero() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", nil])
    }
    try fixture.queue.read { db in
      #expect(try db.fetchValue(Int.self, "SELECT age FROM student") == nil)
      let row = try #require(try db.fetchRows("SELECT * FROM student").first)
      #expect(row["age"] as Int? == nil)
      #expect(row["age"] == .null)
      #expect(try row.decode(Int?.self, column: "age") == nil)
      let error = #expect(throws: RowDecodingError.self) {
        try row.decode(Int.self, column: "age")
      }
      #expect(
        error?.message
          == "column \"age\" holds NULL, which is not an Int (the Swift type is not optional)"
      )
    }
  }

  @Test func overflowAndTextAreTypedErrorsNotZero() throws {
    let fixture = try AccessFixture()
    try fixture.queue.read { db in
      let row = try #require(
        try db.fetchRows("SELECT 9223372036854775807 AS big, 'twelve' AS age, 2 AS two").first
      )
      #expect(
        throws: RowDecodingError.mismatch(column: "big", type: "Int32", value: .integer(.max))
      ) {
        try row.decode(Int32.self, column: "big")
      }
      let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, column: "age") }
      #expect(error?.message == "column \"age\" holds text 'twelve', which is not an Int")
      #expect(throws: RowDecodingError.self) { try row.decode(Bool.self, column: "two") }
      #expect(throws: RowDecodingError.self) {
        try db.fetchValue(Int.self, "SELECT 'twelve'")
      }
      #expect(Int(sqlValue: .real(3.5)) == nil)
      #expect(Int(sqlValue: .real(1e30)) == nil)
      #expect(Int(sqlValue: .real(3)) == 3)
      #expect(String(sqlValue: .integer(3)) == nil)
    }
  }
}
