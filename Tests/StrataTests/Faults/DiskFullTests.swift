import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A full disk, simulated with `PRAGMA max_page_count` on the connection strata works with:
/// the database fills up part-way through a migration, a rollback or a seed. The error names
/// the failure (SQLITE_FULL, the file and line for a migration), the state and what to do;
/// the file is exactly as before and intact; once there is room again, a rerun succeeds.
@Suite struct DiskFullTests {
  /// Pages left free below the limit: from none (the first page fails) to a few (the limit
  /// is hit in the middle of the work).
  static let margins = [0, 1, 2, 3, 5, 8, 20]

  /// Migration 2 and 3 each write far more than the margin.
  static let migrations = [
    "0001_base.sql": """
    -- migrate:up
    CREATE TABLE base (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
    WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 2000)
    INSERT INTO base (body) SELECT printf('%0200d', n) FROM c;
    -- migrate:down
    DROP TABLE base;
    """,
    "0002_copy.sql": """
    -- migrate:up
    CREATE TABLE copy (id INTEGER PRIMARY KEY, body TEXT NOT NULL);

    INSERT INTO copy SELECT * FROM base;
    CREATE INDEX copy_body ON copy (body);
    -- migrate:down
    DROP TABLE copy;
    """,
    "0003_more.sql": """
    -- migrate:up
    UPDATE base SET body = body || body;
    -- migrate:down
    UPDATE base SET body = substr(body, 1, 200);
    """,
  ]

  /// A database at version 1, then filled so that `margin` pages are left under the limit.
  private static func fullDatabase(
    _ fixture: MigrationFixture,
    margin: Int
  ) throws -> Connection {
    let connection = try fixture.open()
    try fixture.migrator().migrate(connection, options: MigrateOptions(target: 1))
    try limit(connection, margin: margin)
    return connection
  }

  private static func limit(_ connection: Connection, margin: Int) throws {
    let pages = try #require(try connection.scalar("PRAGMA page_count")?.integerValue)
    try connection.execute("PRAGMA max_page_count = \(pages + Int64(margin))")
  }

  private static func lift(_ connection: Connection) throws {
    try connection.execute("PRAGMA max_page_count = 1073741823")
  }

  private static func integrity(_ url: URL) throws -> [[SQLValue]] {
    try Connection(path: url.path, mode: .readOnly).rows("PRAGMA integrity_check")
  }

  /// The SQLite error inside a migration error, if there is one.
  private static func sqliteError(_ error: MigrationError) -> SQLiteError? {
    switch error.underlyingFailure {
    case .failed(_, _, _, let sqlite), .rollbackFailed(_, _, _, let sqlite),
      .database(_, let sqlite), .locked(_, let sqlite):
      sqlite
    default: nil
    }
  }

  @Test(arguments: margins)
  func migrateStopsAtTheFullMigrationAndChangesNothing(margin: Int) throws {
    let fixture = try MigrationFixture(Self.migrations)
    let connection = try Self.fullDatabase(fixture, margin: margin)
    let before = try DatabaseFingerprint.of(fixture.database)
    let error = try #require(throws: MigrationError.self) {
      try fixture.migrator().migrate(connection)
    }
    let sqlite = try #require(Self.sqliteError(error), "\(error)")
    #expect(sqlite.isFull, "\(error)")
    #expect(sqlite.message == "database or disk is full")
    if case .failed(let version, let file, let line, _) = error.underlyingFailure {
      #expect(version == 2 && file == "migrations/0002_copy.sql")
      #expect([2, 4, 5].contains(line), "line \(line)")
      #expect(error.runState?.databaseVersion == 1 && error.runState?.completed.isEmpty == true)
      #expect(error.message.hasPrefix("migration migrations/0002_copy.sql:\(line) failed: "))
    } else {
      Issue.record("not reported as the failing migration: \(error)")
    }
    #expect(error.message.contains("SQLite error 13: database or disk is full"))
    #expect(error.message.contains("nothing from 2 was applied; the database is at version 1"))
    #expect(error.help.contains("Free disk space"), "\(error.help)")
    #expect(try DatabaseFingerprint.of(fixture.database) == before)
    #expect(try Self.integrity(fixture.database) == [[.text("ok")]])

    try Self.lift(connection)
    let report = try fixture.migrator().migrate(connection)
    #expect(report.steps.map(\.version) == [2, 3])
    #expect(try DatabaseFingerprint.of(fixture.database).versions == [1, 2, 3])
  }

  @Test(arguments: margins)
  func singleTransactionMigrateStaysAtTheOldVersion(margin: Int) throws {
    let fixture = try MigrationFixture(Self.migrations)
    let connection = try Self.fullDatabase(fixture, margin: margin)
    let before = try DatabaseFingerprint.of(fixture.database)
    let error = try #require(throws: MigrationError.self) {
      try fixture.migrator().migrate(connection, options: MigrateOptions(singleTransaction: true))
    }
    #expect(Self.sqliteError(error)?.isFull == true, "\(error)")
    #expect(error.message.contains("migrations/0002_copy.sql:"), "\(error.message)")
    #expect(error.message.contains("the database is at version 1"))
    #expect(error.help.contains("Free disk space"), "\(error.help)")
    #expect(try DatabaseFingerprint.of(fixture.database) == before)
    #expect(try Self.integrity(fixture.database) == [[.text("ok")]])

    try Self.lift(connection)
    try fixture.migrator().migrate(connection, options: MigrateOptions(singleTransaction: true))
    #expect(try DatabaseFingerprint.of(fixture.database).versions == [1, 2, 3])
  }

  /// A down part that needs room (it rewrites every row).
  @Test(arguments: margins)
  func rollbackStopsAndKeepsTheVersion(margin: Int) throws {
    var files = Self.migrations
    files["0003_more.sql"] = """
      -- migrate:up
      CREATE TABLE extra (x);
      -- migrate:down
      WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 2000)
      INSERT INTO base (body) SELECT printf('%0300d', n) FROM c;
      DROP TABLE extra;
      """
    let fixture = try MigrationFixture(files)
    let connection = try fixture.open()
    try fixture.migrator().migrate(connection)
    try Self.limit(connection, margin: margin)
    let before = try DatabaseFingerprint.of(fixture.database)
    let error = try #require(throws: MigrationError.self) {
      try fixture.migrator().rollback(connection)
    }
    #expect(Self.sqliteError(error)?.isFull == true, "\(error)")
    #expect(error.message.hasPrefix("rollback migrations/0003_more.sql:4 failed: "))
    #expect(error.message.contains("version 3 was not rolled back; the database is at version 3"))
    #expect(error.help.contains("Free disk space"), "\(error.help)")
    #expect(try DatabaseFingerprint.of(fixture.database) == before)
    #expect(try Self.integrity(fixture.database) == [[.text("ok")]])

    try Self.lift(connection)
    try fixture.migrator().rollback(connection)
    #expect(try DatabaseFingerprint.of(fixture.database).versions == [1, 2])
  }

  @Test(arguments: margins)
  func seedIsAllOrNothing(margin: Int) throws {
    let dir = try TemporaryDirectory()
    let database = dir.path("app.sqlite3")
    let connection = try Connection.open(at: database, access: .create)
    try connection.execute(
      """
      CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, note TEXT);
      INSERT INTO item (code, note) VALUES ('kept', 'from before');
      """
    )
    var csv = "code,note\n"
    for row in 1...20_000 { csv += "C\(row),\"seeded row \(row), with some text\"\n" }
    let file = try dir.write("seeds/item.csv", csv)
    let seed = SeedFile(url: file, displayPath: "seeds/item.csv")
    try Self.limit(connection, margin: margin)
    let before = try DatabaseFingerprint.of(database)
    let error = try #require(throws: SeedError.self) {
      try Seeder(connection: connection).seed([seed])
    }
    #expect(error.message.contains("database or disk is full (SQLite error 13)"), "\(error)")
    #expect(error.message.hasPrefix("seeds/item.csv") || error.message.contains(database.path))
    #expect(error.message.hasSuffix("nothing was seeded; the database is unchanged"))
    #expect(error.help.contains("Free disk space"), "\(error.help)")
    #expect(try DatabaseFingerprint.of(database) == before)
    #expect(try Self.integrity(database) == [[.text("ok")]])

    try Self.lift(connection)
    let report = try Seeder(connection: connection).seed([seed])
    #expect(report.tables.first?.inserted == 20_000)
    #expect(try DatabaseFingerprint.of(database).rowCounts["item"] == 20_001)
  }
}
