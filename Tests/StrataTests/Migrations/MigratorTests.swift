import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A migrations folder and a database file in a fresh temporary directory.
struct MigrationFixture {
  let dir: TemporaryDirectory
  var database: URL { dir.path("app.sqlite3") }

  init(_ files: [String: String]) throws {
    dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      at: dir.path("migrations"),
      withIntermediateDirectories: true
    )
    for (name, text) in files { try dir.write("migrations/\(name)", text) }
  }

  func write(_ name: String, _ text: String) throws {
    try dir.write("migrations/\(name)", text)
  }

  func remove(_ name: String) throws {
    try FileManager.default.removeItem(at: dir.path("migrations/\(name)"))
  }

  func migrator() throws -> Migrator {
    Migrator(try MigrationSet(directory: dir.path("migrations"), displayPath: "migrations"))
  }

  func open() throws -> Connection {
    try Connection.open(at: database, access: .create)
  }

  /// The database's own tables (not strata's), by name.
  static func tables(_ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'strata_%' "
        + "ORDER BY name"
    ).compactMap { $0[0].textValue }
  }
}

@Suite struct MigratorTests {
  static let three = [
    "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
    "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
    "0003_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
  ]

  func tables(_ db: Connection) throws -> [String] { try MigrationFixture.tables(db) }

  @Test func appliesInOrderAndRecordsHistory() throws {
    let fixture = try MigrationFixture(Self.three)
    let db = try fixture.open()
    let report = try fixture.migrator().migrate(db)
    #expect(report.steps.map(\.version) == [1, 2, 3])
    #expect(report.fromVersion == 0 && report.toVersion == 3)
    #expect(try tables(db) == ["a", "b", "c"])
    let history = try db.rows("SELECT version, name, checksum FROM strata_migrations")
    #expect(history.count == 3)
    #expect(history[0][2] == .text(SHA256.hex("CREATE TABLE a (x);".utf8)))
    // Again: nothing to do.
    #expect(try fixture.migrator().migrate(db).steps.isEmpty)
    #expect(try fixture.migrator().plan(db).isUpToDate)
  }

  @Test func failingThirdStatementAppliesNothingOfThatMigration() throws {
    var files = Self.three
    files["0004_bad.sql"] = """
      -- migrate:up
      CREATE TABLE d (x);
      INSERT INTO d VALUES (1);

      INSERT INTO nowhere VALUES (2);
      """
    let fixture = try MigrationFixture(files)
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    guard
      case .failed(let version, let file, let line, let sqlite) = error?.underlyingFailure,
      let state = error?.runState
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(version == 4)
    #expect(file == "migrations/0004_bad.sql")
    #expect(line == 5)
    #expect(sqlite.message == "no such table: nowhere")
    #expect(state.databaseVersion == 3)
    #expect(!state.completed.isEmpty)
    #expect(error?.message.contains("migrations/0004_bad.sql:5") == true)
    #expect(error?.message.contains("the database is at version 3") == true)
    #expect(try tables(db) == ["a", "b", "c"])
    let plan = try fixture.migrator().plan(db)
    #expect(plan.currentVersion == 3)
    #expect(plan.migrations(in: .pending).map(\.version) == [4])
  }

  @Test func singleTransactionAppliesNoneWhenOneFails() throws {
    var files = Self.three
    files["0004_bad.sql"] = "CREATE TABLE d (x);\nSELECT * FROM nowhere;"
    let fixture = try MigrationFixture(files)
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(db, options: MigrateOptions(singleTransaction: true))
    }
    #expect(error?.message.contains("version 0 (no migrations applied)") == true)
    #expect(try tables(db) == [])
    #expect(try fixture.migrator().plan(db).currentVersion == 0)
  }

  @Test func changedAppliedMigrationStopsMigrate() throws {
    let fixture = try MigrationFixture(Self.three)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    try fixture.write("0002_b.sql", "-- migrate:up\nCREATE TABLE b (x, y);\n")
    try fixture.write("0004_d.sql", "CREATE TABLE d (x);")
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    guard case .changedAfterApplied(let version, let file, _, _) = error else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(version == 2 && file == "migrations/0002_b.sql")
    #expect(try !tables(db).contains("d"))
    #expect(try fixture.migrator().plan(db).migrations(in: .changed).map(\.version) == [2])
    // Allowed explicitly, the pending one applies.
    try fixture.migrator().migrate(db, options: MigrateOptions(allowChanged: true))
    #expect(try tables(db).contains("d"))
  }

  @Test func appliedVersionWithoutFileMeansTheDatabaseIsNewer() throws {
    let fixture = try MigrationFixture(Self.three)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    try fixture.remove("0003_c.sql")
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    #expect(
      error == .unknownApplied(versions: [3], newestKnown: 2, directory: "migrations")
    )
    #expect(error?.message.contains("the database is newer than these migrations") == true)
    #expect(try fixture.migrator().plan(db).migrations(in: .unknown).map(\.version) == [3])
  }

  @Test func pendingBelowNewestAppliedIsOutOfOrder() throws {
    // Version 0 is refused as a file name, so the early file is 2, merged after 3 was applied.
    let fixture = try MigrationFixture(Self.three.filter { $0.key != "0002_b.sql" })
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    try fixture.write("0002_early.sql", "CREATE TABLE early (x);")
    #expect(throws: MigrationError.outOfOrder(versions: [2], newestApplied: 3)) {
      try fixture.migrator().migrate(db)
    }
    #expect(try !tables(db).contains("early"))
    try fixture.migrator().migrate(db, options: MigrateOptions(allowOutOfOrder: true))
    #expect(try tables(db).contains("early"))
  }

  @Test func migrateToATargetGoesUpThenDown() throws {
    let fixture = try MigrationFixture(Self.three)
    let db = try fixture.open()
    let up = try fixture.migrator().migrate(db, options: MigrateOptions(target: 2))
    #expect(up.toVersion == 2 && up.pendingCount == 1)
    #expect(try tables(db) == ["a", "b"])
    try fixture.migrator().migrate(db)
    let down = try fixture.migrator().migrate(db, options: MigrateOptions(target: 1))
    #expect(down.steps.map(\.version) == [3, 2])
    #expect(down.steps.allSatisfy { $0.direction == .down })
    #expect(try tables(db) == ["a"])
    #expect(throws: MigrationError.unknownTarget(version: 42)) {
      try fixture.migrator().migrate(db, options: MigrateOptions(target: 42))
    }
  }

  @Test func dryRunChangesNothing() throws {
    let fixture = try MigrationFixture(Self.three)
    let db = try fixture.open()
    let report = try fixture.migrator().migrate(db, options: MigrateOptions(dryRun: true))
    #expect(report.dryRun && report.steps.count == 3)
    #expect(report.steps[0].sql?.contains("CREATE TABLE a") == true)
    #expect(try tables(db) == [])
    #expect(try db.scalar("SELECT count(*) FROM sqlite_master") == .integer(0))
  }

  @Test func rollbackRevertsNewestAndRefusesIrreversible() throws {
    var files = Self.three
    files["0004_forever.sql"] = "CREATE TABLE forever (x);"
    let fixture = try MigrationFixture(files)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().rollback(db) }
    #expect(
      error == .irreversible(version: 4, file: "migrations/0004_forever.sql", format: .dbmate)
    )
    #expect(error?.message.contains("nothing was rolled back") == true)
    #expect(try tables(db).contains("forever"))
    #expect(try fixture.migrator().plan(db).currentVersion == 4)

    try fixture.write(
      "0004_forever.sql",
      "CREATE TABLE forever (x);\n-- migrate:down\nDROP TABLE forever;"
    )
    // The up part is unchanged ("CREATE TABLE forever (x);" after normalising), so this is not
    // an edit of an applied migration... but the file had no markers before; its up part now
    // starts after a marker. Put markers on it the way a user would.
    try fixture.write(
      "0004_forever.sql",
      "-- migrate:up\nCREATE TABLE forever (x);\n-- migrate:down\nDROP TABLE forever;"
    )
    let report = try fixture.migrator().rollback(db, .steps(2), allowChanged: true)
    #expect(report.steps.map(\.version) == [4, 3])
    #expect(try tables(db) == ["a", "b"])
    #expect(try fixture.migrator().plan(db).currentVersion == 2)
  }

  @Test func rollbackFailureNamesTheDownFileAndLine() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql":
        "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\nDROP TABLE zz;\n"
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().rollback(db) }
    #expect(error?.message.contains("migrations/0001_a.sql:5") == true)
    #expect(error?.message.contains("the database is at version 1") == true)
    #expect(try tables(db) == ["a"])
  }

  /// The bug Rails and Atlas shipped: a parent-table rebuild with foreign keys on cascades
  /// into the children.
  @Test func rebuildingAParentTableKeepsCascadingChildren() throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": """
      CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE child (id INTEGER PRIMARY KEY,
        parent_id INTEGER NOT NULL REFERENCES parent (id) ON DELETE CASCADE);
      INSERT INTO parent VALUES (1, 'a'), (2, 'b');
      INSERT INTO child VALUES (10, 1), (11, 1), (12, 2);
      """,
      "0002_rebuild_parent.sql": """
      CREATE TABLE parent_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
      INSERT INTO parent_new SELECT id, name FROM parent;
      DROP TABLE parent;
      ALTER TABLE parent_new RENAME TO parent;
      """,
    ])
    let db = try fixture.open()
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
    try fixture.migrator().migrate(db)
    #expect(try db.scalar("SELECT count(*) FROM child") == .integer(3))
    #expect(try db.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
  }

  @Test func migrationThatOrphansRowsFailsAndChangesNothing() throws {
    let fixture = try MigrationFixture([
      "0001_schema.sql": """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id REFERENCES parent (id));
      INSERT INTO parent VALUES (1);
      INSERT INTO child VALUES (10, 1);
      """,
      "0002_orphan.sql": "DELETE FROM parent;",
    ])
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    guard
      case .foreignKeyViolation(let version, _, let violations, _, _) = error?.underlyingFailure,
      let dbVersion = error?.runState?.databaseVersion
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(version == 2 && dbVersion == 1)
    #expect(violations == [ForeignKeyViolation(table: "child", rowid: 10, parent: "parent")])
    #expect(try db.scalar("SELECT count(*) FROM parent") == .integer(1))
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
  }

  @Test(arguments: ["VACUUM;", "PRAGMA journal_mode = WAL;", "PRAGMA synchronous=OFF;"])
  func statementsThatCannotRunInATransactionPointAtTransactionFalse(statement: String) throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_maintenance.sql": "-- migrate:up\nINSERT INTO a VALUES (1);\n\(statement)\n",
    ])
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    guard
      case .needsNoTransaction(let version, let file, let line, _) = error?.underlyingFailure,
      let dbVersion = error?.runState?.databaseVersion
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(version == 2 && file == "migrations/0002_maintenance.sql" && line == 3)
    #expect(dbVersion == 1)
    #expect(error?.message.contains("; the database is at version 1") == true)
    #expect(error?.message.contains("this run applied migrations/0001_a.sql (version 1)") == true)
    #expect(error?.help.contains("transaction:false") == true)
    #expect(try db.scalar("SELECT count(*) FROM a") == .integer(0))
    #expect(try fixture.migrator().plan(db).currentVersion == 1)
  }

  @Test func transactionFalseRunsOutsideATransaction() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_wal.sql": "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\nVACUUM;\n",
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
    #expect(try fixture.migrator().plan(db).currentVersion == 2)
    #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(
        try Connection.inMemory(),
        options: MigrateOptions(singleTransaction: true)
      )
    }
  }

  @Test func failingTransactionFalsePartSaysWhatStayed() throws {
    let fixture = try MigrationFixture([
      "0001_loose.sql": """
      -- migrate:up transaction:false
      CREATE TABLE a (x);
      INSERT INTO a VALUES (1);
      INSERT INTO nowhere VALUES (2);
      """
    ])
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    #expect(
      error
        == .stopped(
          .partiallyApplied(
            version: 1,
            file: "migrations/0001_loose.sql",
            line: 4,
            statementsRun: 2,
            error: SQLiteError(
              extendedCode: 1,
              message: "no such table: nowhere",
              sql: "INSERT INTO nowhere VALUES (2);"
            ),
            isRollback: false
          ),
          state: MigrationRunState(databaseVersion: 0, completed: [])
        )
    )
    #expect(error?.message.contains("the 2 statement(s) before line 4 stayed applied") == true)
    #expect(error?.message.contains("version 1 is not recorded") == true)
    // What the message says is what happened.
    #expect(try db.scalar("SELECT count(*) FROM a") == .integer(1))
    #expect(try fixture.migrator().plan(db).currentVersion == 0)
  }

  @Test func downPartMarkedTransactionFalseRunsOutsideATransaction() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;",
      "0002_wal.sql": """
      -- migrate:up transaction:false
      PRAGMA journal_mode = WAL;
      -- migrate:down transaction:false
      PRAGMA journal_mode = DELETE;
      VACUUM;
      """,
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
    let report = try fixture.migrator().rollback(db)
    #expect(report.steps.map(\.version) == [2])
    #expect(try db.scalar("PRAGMA journal_mode") == .text("delete"))
    #expect(try fixture.migrator().plan(db).currentVersion == 1)
  }

  @Test func baselineRecordsWithoutRunning() throws {
    let fixture = try MigrationFixture(Self.three)
    let db = try fixture.open()
    try db.execute("CREATE TABLE a (x); CREATE TABLE b (x);")
    let recorded = try fixture.migrator().baseline(db, version: 2)
    #expect(recorded.map(\.version) == [1, 2])
    let report = try fixture.migrator().migrate(db)
    #expect(report.steps.map(\.version) == [3])
    #expect(try tables(db) == ["a", "b", "c"])
    #expect(throws: MigrationError.baselineOnManagedDatabase(appliedCount: 3)) {
      try fixture.migrator().baseline(db, version: 2)
    }
  }

  /// A COMMIT or ROLLBACK in the file would commit half a migration, or record a migration
  /// whose statements were rolled back.
  @Test(arguments: [
    ("COMMIT;", "COMMIT"), ("END TRANSACTION;", "END"), ("ROLLBACK;", "ROLLBACK"),
    ("BEGIN;", "BEGIN"),
  ])
  func transactionControlInATransactionalMigrationIsRefused(
    statement: String,
    word: String
  )
    throws
  {
    let fixture = try MigrationFixture([
      "0001_a.sql": "CREATE TABLE a (x);",
      "0002_b.sql":
        "CREATE TABLE b (x);\nINSERT INTO a VALUES (1);\n\(statement)\nCREATE TABLE c (y);",
    ])
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(db) }
    #expect(
      error?.underlyingFailure
        == .needsNoTransaction(
          version: 2,
          file: "migrations/0002_b.sql",
          line: 3,
          statement: word
        )
    )
    #expect(error?.runState?.databaseVersion == 1)
    #expect(error?.help.contains("remove BEGIN/COMMIT/ROLLBACK") == true)
    #expect(try db.scalar("SELECT count(*) FROM a") == .integer(0))
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('b', 'c')") == .integer(0)
    )
    #expect(try fixture.migrator().plan(db).currentVersion == 1)
  }

  @Test func forbiddenStatementDetection() throws {
    #expect(try refusedInTransaction("vacuum") == "VACUUM")
    #expect(try refusedInTransaction("PRAGMA main.journal_mode=wal") == "PRAGMA journal_mode")
    #expect(try refusedInTransaction("PRAGMA journal_mode") == nil)
    #expect(try refusedInTransaction("PRAGMA foreign_keys = OFF") == nil)
    #expect(try refusedInTransaction("CREATE TABLE vacuum_log (x)") == nil)
    #expect(try refusedInTransaction("ROLLBACK TO before_cleanup") == nil)
    #expect(try refusedInTransaction("rollback transaction to sp") == nil)
    #expect(try refusedInTransaction("SAVEPOINT sp") == nil)
    #expect(try refusedInTransaction("commit") == "COMMIT")
  }

  /// How a migration's error names `sql` when it cannot run in strata's transaction, as the
  /// runner finds out: from what SQLite's authorizer saw when it prepared the statement.
  private func refusedInTransaction(_ sql: String) throws -> String? {
    struct Stop: Error {}
    let db = try Connection.inMemory()
    _ = db.raiseFence(.strataTables)
    var named: String?
    do {
      try db.executeScript(sql) { statement in
        named = TransactionBoundStatement.named(db.lastPreparedKind, sql: statement.sql)
        throw Stop()
      }
    } catch is Stop {}
    return named
  }
}

@Suite struct TimestampTests {
  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00.000Z"),
    (951_782_400.5, "2000-02-29T00:00:00.500Z"),
    (1_795_954_722.123, "2026-11-29T12:18:42.123Z"),
    (-1.0, "1969-12-31T23:59:59.000Z"),
    (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
  ])
  func matchesISO8601(seconds: Double, expected: String) {
    #expect(utcTimestamp(Date(timeIntervalSince1970: seconds)) == expected)
  }
}
