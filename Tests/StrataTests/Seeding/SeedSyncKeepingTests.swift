import Foundation
import Testing

@testable import Strata

/// A row that left the seed file, and still holds what the file wrote, is deleted only when
/// nothing else of the user's hangs on it: no row references it, and the columns the file does
/// not have still hold their defaults. Cells of the table of cases in docs/seeding.md.
@Suite struct SeedSyncKeepingTests {
  static let v1 = "code,label\nfood,Food\ntravel,Travel\n"
  static let v2 = "code,label\nfood,Food\n"

  func sync(_ fixture: SeedFixture, _ text: String) throws -> SeedTableReport {
    let file = try fixture.csv("category.csv", text)
    return try #require(try fixture.seed([file], mode: .sync).tables.first)
  }

  func codes(_ fixture: SeedFixture) throws -> [String] {
    try fixture.rows("SELECT code FROM category ORDER BY code").map { $0[0].textValue ?? "" }
  }

  func fixture(child onDelete: String) throws -> SeedFixture {
    let fixture = try SeedFixture(
      schema: """
        CREATE TABLE category (code TEXT PRIMARY KEY, label TEXT NOT NULL);
        CREATE TABLE expense (id INTEGER PRIMARY KEY, amount REAL,
          category TEXT REFERENCES category (code) \(onDelete));
        """
    )
    _ = try sync(fixture, Self.v1)
    try fixture.connection.execute("INSERT INTO expense (amount, category) VALUES (12.5, 'travel')")
    return fixture
  }

  @Test(arguments: ["ON DELETE CASCADE", "ON DELETE SET NULL", "ON DELETE SET DEFAULT", ""])
  func aRowTheUsersRowsReferenceIsKeptWhenTheFileDropsIt(onDelete: String) throws {
    let fixture = try fixture(child: onDelete)
    let report = try sync(fixture, Self.v2)
    #expect(report.deleted == 0)
    #expect(report.kept == 1)
    #expect(try codes(fixture) == ["food", "travel"])
    #expect(
      try fixture.rows("SELECT amount, category FROM expense") == [
        [.real(12.5), .text("travel")]
      ]
    )
    // Kept for good: the ledger forgot it, so the next launch leaves it too.
    let again = try sync(fixture, Self.v2)
    #expect([again.deleted, again.kept] as [Int] == [0, 0])
    #expect(try codes(fixture) == ["food", "travel"])
  }

  @Test func aRowNothingReferencesIsStillDeleted() throws {
    let fixture = try fixture(child: "ON DELETE CASCADE")
    let report = try sync(fixture, "code,label\ntravel,Travel\n")
    #expect(report.deleted == 1)
    #expect(try codes(fixture) == ["travel"])
    #expect(try fixture.count("expense") == 1)
  }

  @Test func aRowAnotherRowOfItsOwnTableReferencesIsKept() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE category (code TEXT PRIMARY KEY, label TEXT NOT NULL, "
        + "parent TEXT REFERENCES category)"
    )
    _ = try sync(fixture, Self.v1)
    try fixture.connection.execute("INSERT INTO category VALUES ('trains', 'Trains', 'travel')")
    let report = try sync(fixture, Self.v2)
    #expect(report.deleted == 0)
    #expect(try codes(fixture) == ["food", "trains", "travel"])
  }

  @Test func aRowWhoseOtherColumnTheUserChangedIsKept() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE category (code TEXT PRIMARY KEY, label TEXT NOT NULL, "
        + "favorite INTEGER NOT NULL DEFAULT 0, note TEXT)"
    )
    _ = try sync(fixture, Self.v1 + "rail,Rail\n")
    try fixture.connection.execute("UPDATE category SET favorite = 1 WHERE code = 'travel'")
    try fixture.connection.execute("UPDATE category SET note = 'mine' WHERE code = 'rail'")
    let report = try sync(fixture, Self.v2)
    #expect(report.deleted == 0)
    #expect(report.kept == 2)
    #expect(try codes(fixture) == ["food", "rail", "travel"])
  }

  /// A column the file's last version wrote is the ledger's to compare, not the user's.
  @Test func aColumnTheFileDroppedDoesNotKeepTheRowsItAlsoDropped() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE category (code TEXT PRIMARY KEY, label TEXT NOT NULL, icon TEXT)"
    )
    _ = try sync(fixture, "code,label,icon\nfood,Food,f.png\ntravel,Travel,t.png\n")
    let report = try sync(fixture, Self.v2)
    #expect(report.deleted == 1)
    #expect(try codes(fixture) == ["food"])
  }

  /// A DEFAULT that differs each time it is taken says nothing about the user.
  @Test func aColumnWithAnExpressionDefaultDoesNotKeepTheRow() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE category (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, "
        + "label TEXT NOT NULL, added TEXT DEFAULT CURRENT_TIMESTAMP, "
        + "favorite INTEGER DEFAULT (0))"
    )
    _ = try sync(fixture, Self.v1)
    try fixture.connection.execute("UPDATE category SET added = '2001-01-01'")
    let report = try sync(fixture, Self.v2)
    #expect(report.deleted == 1)
    #expect(try codes(fixture) == ["food"])
  }

  @Test(arguments: [
    ("0", true), ("(0)", true), ("-1.5e3", true), ("'x'", true), ("'it''s'", true),
    ("X'CAFE'", true), ("NULL", true), ("true", true), ("0x1F", true), ("((2))", true),
    ("CURRENT_TIMESTAMP", false), ("(datetime('now'))", false), ("'a' || 'b'", false),
    ("(1 + 1)", false), ("random()", false), ("'a''", false), ("", false), ("-", false),
  ])
  func constantDefaultsAreRecognised(expression: String, constant: Bool) {
    #expect(SeedSync.isConstant(expression) == constant)
  }
}
