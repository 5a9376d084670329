import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `strata_migrations` as strata made it before versions had a type (`version INTEGER PRIMARY
/// KEY`) is rebuilt in place by the first run that writes, rows byte for byte; read-only calls
/// read it as it is; an older strata's queries keep working on the new layout.
@Suite struct HistoryUpgradeTests {
  static let files = [
    "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
    "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
    "0003_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
  ]

  static let rowsSQL =
    "SELECT version, typeof(version), name, checksum, applied_at, duration_ms "
    + "FROM strata_migrations ORDER BY version"

  /// A database today's strata left after applying 1 and 2: its table, rows and schema.
  func oldDatabase(_ fixture: MigrationFixture) throws -> Connection {
    let db = try fixture.open()
    let set = try fixture.migrator().migrations
    try db.execute(historyFirstLayoutSQL)
    try db.execute("CREATE TABLE a (x); CREATE TABLE b (x);")
    for (migration, at) in zip(
      set.migrations.prefix(2),
      ["2024-01-02T03:04:05Z", "2024-01-03T00:00:00Z"]
    ) {
      _ = try db.scalar(
        "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms) "
          + "VALUES (?, ?, ?, ?, ?)",
        [
          .integer(migration.version.integerValue ?? 0), .text(migration.name),
          .text(migration.checksum), .text(at), .integer(7),
        ]
      )
    }
    return db
  }

  func tableSQL(_ db: Connection) throws -> String {
    try db.scalar("SELECT sql FROM sqlite_master WHERE name = 'strata_migrations'")?.textValue
      ?? ""
  }

  @Test func readingLeavesTheOldTableAsItIs() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try oldDatabase(fixture)
    let before = try tableSQL(db)
    let plan = try fixture.migrator().plan(db)
    #expect(plan.migrations.map(\.state) == [.applied, .applied, .pending])
    #expect(plan.currentVersion == 2)
    #expect(try History.currentVersion(db) == 2)
    #expect(
      try fixture.migrator().migrate(db, options: MigrateOptions(dryRun: true)).steps.count == 1
    )
    #expect(try tableSQL(db) == before)
    #expect(try History.layout(db) == .integerOnly)
  }

  @Test func migrateUpgradesInPlaceKeepingEveryRowByteForByte() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try oldDatabase(fixture)
    let oldRows = try db.rows(Self.rowsSQL)
    let statusBefore = try fixture.migrator().plan(db).migrations.prefix(2)
    let report = try fixture.migrator().migrate(db)
    #expect(report.steps.map(\.version) == [3])
    #expect(try History.layout(db) == .current)
    #expect(try tableSQL(db).contains("kind"))
    let newRows = try db.rows(Self.rowsSQL)
    #expect(Array(newRows.prefix(2)) == oldRows)
    let plan = try fixture.migrator().plan(db)
    #expect(Array(plan.migrations.prefix(2)) == Array(statusBefore))
    #expect(plan.migrations.map(\.state) == [.applied, .applied, .applied])
    // Nothing else was left behind by the rebuild.
    #expect(
      try db.rows("SELECT name FROM sqlite_master WHERE name LIKE 'strata_migrations%'")
        .map { $0[0] } == [.text("strata_migrations")]
    )
    #expect(try fixture.migrator().rollback(db, .version(0)).steps.map(\.version) == [3, 2, 1])
    #expect(try fixture.migrator().migrate(db).steps.count == 3)
  }

  /// Dropping the old table drops what hangs on it: a user's index and trigger on it are made
  /// again on the new table, and the trigger keeps firing.
  @Test func theUsersIndexesAndTriggersOnTheTableSurviveTheUpgrade() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try oldDatabase(fixture)
    try db.execute(
      """
      CREATE TABLE mlog (v);
      CREATE TRIGGER mt AFTER INSERT ON strata_migrations BEGIN
        INSERT INTO mlog VALUES (new.version);
      END;
      CREATE INDEX sm_name ON strata_migrations (name);
      """
    )
    try fixture.migrator().migrate(db)
    #expect(try History.layout(db) == .current)
    #expect(
      try db.rows(
        "SELECT type, name FROM sqlite_master WHERE tbl_name = 'strata_migrations' "
          + "AND sql IS NOT NULL AND type <> 'table' ORDER BY name"
      ) == [[.text("trigger"), .text("mt")], [.text("index"), .text("sm_name")]]
    )
    #expect(try db.rows("SELECT v FROM mlog") == [[.integer(3)]])
  }

  @Test func anOlderStrataQueriesStillWorkOnTheNewLayout() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try oldDatabase(fixture)
    try fixture.migrator().migrate(db)
    #expect(
      try db.rows("SELECT version FROM strata_migrations ORDER BY version").map { $0[0] }
        == [.integer(1), .integer(2), .integer(3)]
    )
    #expect(try db.scalar("SELECT max(version) FROM strata_migrations") == .integer(3))
    // The old insert names five columns; `kind` takes its default.
    _ = try db.scalar(
      "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms) "
        + "VALUES (4, 'd', 'x', '2024-01-04T00:00:00Z', 0)"
    )
    #expect(try History.read(db).map(\.version) == [1, 2, 3, 4])
    #expect(throws: SQLiteError.self) {
      try db.scalar(
        "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms) "
          + "VALUES (4, 'again', 'x', '2024-01-04T00:00:00Z', 0)"
      )
    }
  }

  @Test func aTextVersionAndARepeatableCanBeRecordedAfterTheUpgrade() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try oldDatabase(fixture)
    let writer = try HistoryWriter(db)
    let script = MigrationScript(
      sql: "SELECT 1;",
      file: "V1_1__x.sql",
      firstLine: 1,
      isTransactional: true
    )
    let dotted = Migration(
      version: try MigrationVersion(flyway: "1_1"),
      name: "x",
      up: script,
      down: nil,
      checksum: "c"
    )
    try db.transaction(.immediate) {
      try writer.record(dotted, appliedAt: Date(timeIntervalSince1970: 0), durationMs: 1)
      try writer.recordRepeatable(name: "views", checksum: "r1", appliedAt: Date(), durationMs: 2)
      try writer.recordRepeatable(name: "views", checksum: "r2", appliedAt: Date(), durationMs: 3)
    }
    #expect(
      try db.rows("SELECT version, typeof(version), kind FROM strata_migrations WHERE name = 'x'")
        == [[.text("1.1"), .text("text"), .text("dotted")]]
    )
    let read = try History.read(db)
    #expect(read.map(\.version.text) == ["1", "2", "1.1"])
    #expect(read.last?.version == (try MigrationVersion(flyway: "1.1")))
    #expect(try History.readRepeatables(db).map { [$0.name, $0.checksum] } == [["views", "r2"]])
    #expect(try writer.isApplied(MigrationVersion(flyway: "1.1")))
  }

  @Test func rollbackOnTheOldLayoutDoesNotRebuildIt() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try oldDatabase(fixture)
    #expect(try fixture.migrator().rollback(db).steps.map(\.version) == [2])
    #expect(try History.layout(db) == .integerOnly)
    #expect(try History.read(db).map(\.version) == [1])
  }

  /// Two runs that both saw the old table: the second finds it rebuilt inside its own
  /// transaction and leaves it (and the rows the first wrote) alone.
  @Test func aSecondWriterDoesNotRebuildTheTableAgain() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try oldDatabase(fixture)
    let first = try HistoryWriter(db)
    let second = try HistoryWriter(db)
    let script = MigrationScript(sql: "SELECT 1;", file: "x", firstLine: 1, isTransactional: true)
    let dotted = Migration(
      version: try MigrationVersion(flyway: "2.5"),
      name: "x",
      up: script,
      down: nil,
      checksum: "c"
    )
    try db.transaction(.immediate) {
      try first.record(dotted, appliedAt: Date(), durationMs: 0)
    }
    let sql = try tableSQL(db)
    try db.transaction(.immediate) { try second.createTableIfNeeded() }
    #expect(try tableSQL(db) == sql)
    #expect(try History.read(db).map(\.version.text) == ["1", "2", "2.5"])
  }
}
