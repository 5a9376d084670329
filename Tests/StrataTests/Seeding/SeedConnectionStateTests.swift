import Foundation
import Strata
import Testing

/// A seed run changes connection settings for its own use (`PRAGMA defer_foreign_keys`,
/// `PRAGMA cache_size`); whichever way it ends, the caller's connection gets them back as they
/// were, and a caller's open transaction stays open and keeps its own work.
@Suite struct SeedConnectionStateTests {
  static let schema = """
    CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id));
    """

  /// How a seed run ends.
  enum Ending: String, CaseIterable, CustomTestStringConvertible {
    case succeeds, failsOnARow, failsOnAnOrphan, dryRun

    var testDescription: String { rawValue }
  }

  func seed(_ fixture: SeedFixture, _ ending: Ending) throws -> SeedError? {
    let file: SeedFile
    switch ending {
    case .succeeds, .dryRun: file = try fixture.csv("parent.csv", "id,name\n10,Ten\n")
    case .failsOnARow: file = try fixture.csv("parent.csv", "id,name\n10,Ten\n11,\n")
    case .failsOnAnOrphan: file = try fixture.csv("child.csv", "id,parent_id\n20,99\n")
    }
    do {
      _ = try fixture.seeder.seed(
        [file],
        options: SeedOptions(dryRun: ending == .dryRun, cacheKiB: 64 * 1024)
      )
      return nil
    } catch let error as SeedError {
      return error
    }
  }

  @Test(arguments: Ending.allCases)
  func inACallersTransactionEverySettingComesBackAndTheTransactionStaysUsable(
    ending: Ending
  ) throws {
    let fixture = try SeedFixture(schema: Self.schema)
    let db = fixture.connection
    let cacheBefore = try db.scalar("PRAGMA cache_size")
    try db.execute("BEGIN")
    try db.execute("INSERT INTO parent VALUES (1, 'caller')")

    let error = try seed(fixture, ending)
    #expect(
      (error == nil) == (ending == .succeeds || ending == .dryRun),
      "\(String(describing: error))"
    )

    #expect(try db.scalar("PRAGMA defer_foreign_keys") == .integer(0))
    #expect(try db.scalar("PRAGMA cache_size") == cacheBefore)
    #expect(!db.isAutocommit, "the caller's transaction must still be open")
    // Foreign keys are immediate again: an orphan fails its own statement, as it did before.
    #expect(throws: SQLiteError.self) {
      try db.execute("INSERT INTO child VALUES (30, 404)")
    }
    #expect(!db.isAutocommit)
    try db.execute("INSERT INTO child VALUES (31, 1)")
    try db.execute("COMMIT")
    let parents = ending == .succeeds ? [1, 10] : [1]
    #expect(
      try fixture.rows("SELECT id FROM parent ORDER BY id") == parents.map { [.integer(Int64($0))] }
    )
    #expect(try fixture.rows("SELECT id FROM child") == [[.integer(31)]])
  }

  @Test(arguments: Ending.allCases)
  func onItsOwnTransactionEverySettingComesBack(ending: Ending) throws {
    let fixture = try SeedFixture(schema: Self.schema)
    let db = fixture.connection
    let cacheBefore = try db.scalar("PRAGMA cache_size")
    _ = try seed(fixture, ending)
    #expect(db.isAutocommit)
    #expect(try db.scalar("PRAGMA defer_foreign_keys") == .integer(0))
    #expect(try db.scalar("PRAGMA cache_size") == cacheBefore)
    #expect(throws: SQLiteError.self) {
      try db.execute("INSERT INTO child VALUES (30, 404)")
    }
  }

  /// A caller that deferred its foreign keys keeps them deferred, and its own pending orphan
  /// still fails its COMMIT: the seed neither turns deferral off nor forgets the violation.
  @Test(arguments: Ending.allCases)
  func aCallersDeferredForeignKeysStayDeferredWithTheirPendingViolation(ending: Ending) throws {
    let fixture = try SeedFixture(schema: Self.schema)
    let db = fixture.connection
    try db.execute("BEGIN")
    try db.execute("PRAGMA defer_foreign_keys = ON")
    try db.execute("INSERT INTO child VALUES (40, 404)")

    _ = try seed(fixture, ending)

    #expect(try db.scalar("PRAGMA defer_foreign_keys") == .integer(1))
    #expect(!db.isAutocommit)
    #expect(throws: SQLiteError.self) { try db.execute("COMMIT") }
    // The orphan is the caller's to fix; once fixed, the transaction commits.
    try db.execute("INSERT INTO parent VALUES (404, 'found')")
    try db.execute("COMMIT")
    #expect(try fixture.rows("SELECT id FROM child") == [[.integer(40)]])
  }
}
