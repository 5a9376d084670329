import Foundation
import Strata
import Testing

/// `sync` when a seed row collides on a UNIQUE value: with a row the user owns (kept, the
/// launch goes on), or with the file's own rows moving in the same sync (swaps and cycles
/// apply). The rows of "Collisions" in docs/seeding.md's table of cases.
@Suite struct SeedSyncCollisionTests {
  static let schema = """
    CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL UNIQUE, age INTEGER);
    """

  func sync(_ fixture: SeedFixture, _ text: String) throws -> SeedTableReport {
    let file = try fixture.csv("student.csv", text)
    return try #require(try fixture.seed([file], mode: .sync).tables.first)
  }

  func seeded(_ text: String, schema: String = Self.schema) throws -> SeedFixture {
    let fixture = try SeedFixture(schema: schema)
    _ = try sync(fixture, text)
    return fixture
  }

  func students(_ fixture: SeedFixture) throws -> [String] {
    try fixture.rows("SELECT stuID, stuName FROM student ORDER BY stuID").map {
      "\($0[0].textValue ?? "")=\($0[1].textValue ?? "")"
    }
  }

  @Test func aNewRowCollidingWithTheUsersRowIsKeptAndTheRestSynced() throws {
    let fixture = try seeded("stuID,stuName\nS1,Ann\n")
    try fixture.connection.execute("INSERT INTO student VALUES ('U1', 'Dan', NULL)")
    let report = try sync(fixture, "stuID,stuName\nS1,Anne\nS2,Dan\nS3,Eve\n")
    #expect([report.inserted, report.updated, report.kept] as [Int] == [1, 1, 1])
    #expect(try students(fixture) == ["S1=Anne", "S3=Eve", "U1=Dan"])
    // Pending: once the user's row is gone, the file's next version inserts it.
    try fixture.connection.execute("DELETE FROM student WHERE stuID = 'U1'")
    let next = try sync(fixture, "stuID,stuName\nS1,Anne\nS2,Dan\nS3,Eve\nS4,Fay\n")
    #expect([next.inserted, next.kept] as [Int] == [2, 0])
    #expect(try students(fixture) == ["S1=Anne", "S2=Dan", "S3=Eve", "S4=Fay"])
  }

  @Test func anUpdateCollidingWithTheUsersRowIsKeptAndTriedAgainLater() throws {
    let fixture = try seeded("stuID,stuName\nS1,Ann\nS2,Ben\n")
    try fixture.connection.execute("INSERT INTO student VALUES ('U1', 'Dan', NULL)")
    let report = try sync(fixture, "stuID,stuName\nS1,Dan\nS2,Bob\n")
    #expect([report.updated, report.kept] as [Int] == [1, 1])
    #expect(try students(fixture) == ["S1=Ann", "S2=Bob", "U1=Dan"])
    // S1 still holds what the file wrote, so it stays the file's: the next version moves it.
    try fixture.connection.execute("UPDATE student SET stuName = 'Dana' WHERE stuID = 'U1'")
    let next = try sync(fixture, "stuID,stuName\nS1,Dan\nS2,Bob\nS3,Cy\n")
    #expect([next.updated, next.inserted, next.kept] as [Int] == [1, 1, 0])
    #expect(try students(fixture) == ["S1=Dan", "S2=Bob", "S3=Cy", "U1=Dana"])
  }

  @Test func aSwapOfUniqueValuesBetweenTwoKeysApplies() throws {
    let fixture = try seeded("stuID,stuName\nS1,Ann\nS2,Ben\nS3,Cat\n")
    let report = try sync(fixture, "stuID,stuName\nS1,Ben\nS2,Ann\nS3,Cat\n")
    #expect([report.updated, report.kept, report.unchanged] as [Int] == [2, 0, 1])
    #expect(try students(fixture) == ["S1=Ben", "S2=Ann", "S3=Cat"])
    #expect(try sync(fixture, "stuID,stuName\nS1,Ben\nS2,Ann\nS3,Cat\n").unchanged == 3)
  }

  @Test func aThreeWayCycleApplies() throws {
    let fixture = try seeded("stuID,stuName,age\nS1,Ann,1\nS2,Ben,2\nS3,Cat,3\n")
    let report = try sync(fixture, "stuID,stuName,age\nS1,Ben,1\nS2,Cat,2\nS3,Ann,4\n")
    #expect([report.updated, report.kept] as [Int] == [3, 0])
    #expect(try students(fixture) == ["S1=Ben", "S2=Cat", "S3=Ann"])
    #expect(try fixture.rows("SELECT age FROM student WHERE stuID = 'S3'") == [[.integer(4)]])
  }

  @Test func aSwapInATableWhoseCheckRefusesThePlaceholderIsKept() throws {
    let fixture = try seeded(
      "stuID,stuName\nS1,Ann\nS2,Ben\nS3,Cat\n",
      schema: "CREATE TABLE student (stuID TEXT PRIMARY KEY, "
        + "stuName TEXT NOT NULL UNIQUE CHECK (length(stuName) < 10), age INTEGER);"
    )
    let report = try sync(fixture, "stuID,stuName\nS1,Ben\nS2,Ann\nS3,Cy\n")
    #expect([report.updated, report.kept] as [Int] == [1, 2])
    #expect(try students(fixture) == ["S1=Ann", "S2=Ben", "S3=Cy"])
    #expect(fixture.connection.isAutocommit)
  }

  @Test func aRealErrorInTheFileStillFailsWithItsLine() throws {
    let fixture = try seeded("stuID,stuName\nS1,Ann\nS2,Ben\n")
    try fixture.connection.execute("INSERT INTO student VALUES ('U1', 'Dan', NULL)")
    // S3 collides with the user's row (would be kept), but S4's name is empty: NOT NULL.
    let file = try fixture.csv("student.csv", "stuID,stuName\nS1,Ben\nS2,Ann\nS3,Dan\nS4,\n")
    let error = try #require(fixture.seedError([file], mode: .sync))
    #expect(error.message.hasPrefix("seeds/student.csv:5: NOT NULL constraint failed"))
    #expect(try students(fixture) == ["S1=Ann", "S2=Ben", "U1=Dan"])
  }

  @Test func twoRowsOfTheFileSharingAUniqueValueStillFail() throws {
    let fixture = try seeded("stuID,stuName\nS1,Ann\n")
    let file = try fixture.csv("student.csv", "stuID,stuName\nS1,Ann\nS2,Ann\n")
    let error = try #require(fixture.seedError([file], mode: .sync))
    #expect(error.message.hasPrefix("seeds/student.csv:3: UNIQUE constraint failed"))
    #expect(try students(fixture) == ["S1=Ann"])
  }
}
