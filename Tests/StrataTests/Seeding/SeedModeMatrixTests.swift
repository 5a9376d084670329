import Foundation
import Strata
import Testing

/// What each mode does to the rows of a second load, as docs/seeding.md's table says: the
/// file's first version (e, d, u, g) is loaded, the user edits e, deletes d and adds a row,
/// then the second version (e, d, u: g left it) is loaded the same way.
@Suite struct SeedModeMatrixTests {
  /// One row of the docs' table.
  struct Outcome: Equatable, CustomStringConvertible {
    /// The labels of the rows that are e's: "mine" (the user's edit), "e" (the file's).
    var edited: [String]
    /// How many rows d has (the user deleted it).
    var deleted: Int
    /// How many rows the user's own row has.
    var added: Int
    /// How many rows u has, and whether its row was never deleted (and inserted again).
    var unchanged: Int
    var unchangedNeverDeleted: Bool
    /// How many rows g has (it left the file).
    var gone: Int

    var description: String {
      "edited \(edited), deleted \(deleted), added \(added), unchanged \(unchanged) "
        + "(never deleted: \(unchangedNeverDeleted)), gone \(gone)"
    }
  }

  enum Case: String, CaseIterable, CustomStringConvertible {
    case keyedSync, keyedMissing, keyedUpsert, keyedReplace
    case keylessSync, keylessMissingAtLaunch, keylessUpsertAtLaunch, keylessReload
    case keylessReplace, keylessAppend

    var description: String { rawValue }
    var keyed: Bool { rawValue.hasPrefix("keyed") }
    var mode: SeedMode {
      switch self {
      case .keyedSync, .keylessSync, .keylessReload: .sync
      case .keyedMissing, .keylessMissingAtLaunch: .missing
      case .keyedUpsert, .keylessUpsertAtLaunch: .upsert
      case .keyedReplace, .keylessReplace: .replace
      case .keylessAppend: .append
      }
    }
    var atLaunch: Bool { self == .keylessMissingAtLaunch || self == .keylessUpsertAtLaunch }

    /// The docs' row for this case.
    var expected: Outcome {
      switch self {
      case .keyedSync, .keylessSync, .keylessMissingAtLaunch, .keylessUpsertAtLaunch,
        .keylessReload:
        Outcome(
          edited: ["mine"],
          deleted: 0,
          added: 1,
          unchanged: 1,
          unchangedNeverDeleted: true,
          gone: 0
        )
      case .keyedMissing:
        Outcome(
          edited: ["mine"],
          deleted: 1,
          added: 1,
          unchanged: 1,
          unchangedNeverDeleted: true,
          gone: 1
        )
      case .keyedUpsert:
        Outcome(
          edited: ["e"],
          deleted: 1,
          added: 1,
          unchanged: 1,
          unchangedNeverDeleted: true,
          gone: 1
        )
      case .keyedReplace, .keylessReplace:
        Outcome(
          edited: ["e"],
          deleted: 1,
          added: 0,
          unchanged: 1,
          unchangedNeverDeleted: false,
          gone: 0
        )
      case .keylessAppend:
        Outcome(
          edited: ["e", "mine"],
          deleted: 1,
          added: 1,
          unchanged: 2,
          unchangedNeverDeleted: true,
          gone: 1
        )
      }
    }
  }

  static let keyedSchema = "CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT);" + deletions
  static let keylessSchema = "CREATE TABLE item (code TEXT, label TEXT);" + deletions
  /// Every row deleted from `item`, by code.
  static let deletions = """
    CREATE TABLE deleted (code TEXT);
    CREATE TRIGGER item_deleted AFTER DELETE ON item BEGIN INSERT INTO deleted VALUES (old.code); END;
    """
  static let v1 = "code,label\ne,e\nd,d\nu,u\ng,g\n"
  static let v2 = "code,label\ne,e\nd,d\nu,u\n"

  func load(_ fixture: SeedFixture, _ text: String, _ item: Case) throws {
    var file = try fixture.csv("item.csv", text)
    file.format.reload = item == .keylessReload
    _ = try fixture.seeder.seed(
      [file],
      options: SeedOptions(mode: item.mode, onlyUnrecorded: item.atLaunch)
    )
  }

  @Test(arguments: Case.allCases)
  func eachModeMeetsTheUsersRowsAsDocumented(item: Case) throws {
    let fixture = try SeedFixture(schema: item.keyed ? Self.keyedSchema : Self.keylessSchema)
    try load(fixture, Self.v1, item)
    try fixture.connection.execute(
      "UPDATE item SET label = 'mine' WHERE code = 'e'; DELETE FROM item WHERE code = 'd'; "
        + "INSERT INTO item VALUES ('a', 'added')"
    )
    try load(fixture, Self.v2, item)
    func count(_ code: String) throws -> Int {
      Int(
        try fixture.connection.scalar("SELECT count(*) FROM item WHERE code = ?", [.text(code)])?
          .integerValue ?? -1
      )
    }
    let outcome = Outcome(
      edited: try fixture.rows("SELECT label FROM item WHERE code = 'e' ORDER BY label")
        .compactMap { $0[0].textValue },
      deleted: try count("d"),
      added: try count("a"),
      unchanged: try count("u"),
      unchangedNeverDeleted: try fixture.rows("SELECT 1 FROM deleted WHERE code = 'u'").isEmpty,
      gone: try count("g")
    )
    #expect(outcome == item.expected)
  }

  /// `append` on a table with a key: the file's rows collide with their own keys; nothing
  /// changes.
  @Test func appendOnAKeyedTableFailsOnTheFilesOwnKeysAndChangesNothing() throws {
    let fixture = try SeedFixture(schema: Self.keyedSchema)
    _ = try fixture.seed([try fixture.csv("item.csv", Self.v1)], mode: .append)
    let error = try #require(
      fixture.seedError([try fixture.csv("item.csv", Self.v2)], mode: .append)
    )
    #expect(error.message.contains("UNIQUE constraint failed: item.code"))
    #expect(try fixture.count("item") == 4)
  }

  /// `missing` or `upsert` on a keyless table outside a launch: refused, it needs a key.
  @Test(arguments: [SeedMode.missing, .upsert])
  func aModeWithAKeyOnAKeylessTableIsRefusedOutsideALaunch(mode: SeedMode) throws {
    let fixture = try SeedFixture(schema: Self.keylessSchema)
    let error = try #require(fixture.seedError([try fixture.csv("item.csv", Self.v1)], mode: mode))
    guard case .noKey = error else {
      Issue.record("\(error)")
      return
    }
    #expect(try fixture.count("item") == 0)
  }
}
