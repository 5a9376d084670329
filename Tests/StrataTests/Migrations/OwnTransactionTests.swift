import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Files that manage their own transaction (`BEGIN` … `COMMIT` in the file), as golang-migrate
/// folders run with `x-no-tx-wrap` hold: run as written, the history row and the foreign key
/// check inside the file's last transaction.
@Suite struct OwnTransactionTests {
  func fixture(_ up: String, down: String? = nil) throws -> MigrationFixture {
    var files = OwnTransactionSQL.create
    files["0002_rebuild.up.sql"] = up
    if let down { files["0002_rebuild.down.sql"] = down }
    return try MigrationFixture(files)
  }

  func versions(_ db: Connection) throws -> [MigrationVersion] {
    try History.read(db).map(\.version)
  }

  func columnSQL(_ db: Connection) throws -> String? {
    try db.scalar("SELECT sql FROM sqlite_master WHERE name = 'parent'")?.textValue
  }

  func failure(_ body: () throws -> Void) -> MigrationError? {
    do {
      try body()
      return nil
    } catch let error as MigrationError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  @Test func aGolangMigrateRebuildRunsAsWrittenRollsBackAndReapplies() throws {
    let fixture = try fixture(OwnTransactionSQL.rebuild, down: OwnTransactionSQL.rebuildBack)
    let migrator = try fixture.migrator()
    #expect(migrator.migrations.format == .golangMigrate)
    let db = try fixture.open()
    try db.execute("PRAGMA foreign_keys = ON")
    let report = try migrator.migrate(db)
    #expect(report.steps.map(\.version) == [1, 2])
    #expect(try versions(db) == [1, 2])
    #expect(try columnSQL(db)?.contains("NOT NULL DEFAULT ''") == true)
    #expect(try db.scalar("SELECT group_concat(name) FROM parent") == .text("a,"))
    // The child row kept its parent: the rebuild did not cascade, and foreign keys are on again.
    #expect(try db.scalar("SELECT count(*) FROM child") == .integer(1))
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
    #expect(db.isAutocommit)

    let back = try migrator.rollback(db)
    #expect(back.steps.map(\.version) == [2])
    #expect(try versions(db) == [1])
    #expect(try columnSQL(db)?.contains("NOT NULL") == false)
    #expect(try db.scalar("SELECT count(*) FROM parent") == .integer(2))

    try migrator.migrate(db)
    #expect(try versions(db) == [1, 2])
    #expect(try columnSQL(db)?.contains("NOT NULL DEFAULT ''") == true)
  }

  @Test func aFailureInsideTheFilesTransactionLeavesTheDatabaseAsItWas() throws {
    let broken = OwnTransactionSQL.rebuild.replacingOccurrences(
      of: "DROP TABLE parent;",
      with: "DROP TABLE parent;\nINSERT INTO missing VALUES (1);"
    )
    let fixture = try fixture(broken)
    let db = try fixture.open()
    let error = failure { try fixture.migrator().migrate(db) }
    guard
      case .ownTransactionFailed(2, _, 6, let reason, let outcome, false)? =
        error?.underlyingFailure
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(reason.contains("no such table: missing"))
    #expect(!outcome.kept && !outcome.recorded)
    #expect(error?.runState?.databaseVersion == 1)
    #expect(try versions(db) == [1])
    #expect(try columnSQL(db)?.contains("NOT NULL") == false)
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'new_parent'") == .integer(0)
    )
    let message = error?.message ?? ""
    #expect(message.contains("migrations/0002_rebuild.up.sql:6 failed"))
    #expect(message.contains("the file's transaction begun on line 2 was rolled back"))
    #expect(message.contains("nothing of the file was committed"))
    #expect(message.contains("version 2 is not recorded as applied"))
    #expect(message.contains("not recorded as applied; the database is at version 1"))
    #expect(error?.help.hasPrefix("Fix the file") == true)
  }

  @Test func theForeignKeyCheckInsideTheFilesTransactionRollsTheFileBack() throws {
    let orphaning = """
      PRAGMA foreign_keys=OFF;
      BEGIN;
      DELETE FROM parent WHERE id = 1;
      COMMIT;
      PRAGMA foreign_keys=ON;
      """
    let fixture = try fixture(orphaning)
    let db = try fixture.open()
    let error = failure { try fixture.migrator().migrate(db) }
    guard
      case .ownTransactionFailed(2, _, 4, let reason, let outcome, false)? =
        error?.underlyingFailure
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(reason.contains("1 new foreign key violation"))
    #expect(!outcome.recorded)
    #expect(try db.scalar("SELECT count(*) FROM parent") == .integer(2))
    #expect(try versions(db) == [1])
  }

  @Test func theHistoryRowGoesBeforeTheLastCommitAndAnEarlierTransactionStays() throws {
    let two = """
      BEGIN;
      CREATE TABLE audit (x);
      COMMIT;
      BEGIN;
      INSERT INTO audit VALUES (1);
      INSERT INTO missing VALUES (1);
      COMMIT;
      """
    let fixture = try fixture(two)
    let db = try fixture.open()
    let error = failure { try fixture.migrator().migrate(db) }
    guard case .ownTransactionFailed(2, _, 6, _, let outcome, false)? = error?.underlyingFailure
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(outcome.kept && !outcome.recorded)
    #expect(
      outcome.description
        == "the file's transaction begun on line 4 was rolled back; committed before it and "
        + "not undone: the transaction on lines 1–3; version 2 is not recorded as applied"
    )
    #expect(try db.scalar("SELECT count(*) FROM audit") == .integer(0))
    #expect(try versions(db) == [1])
    #expect(error?.help.hasPrefix("Undo by hand what stays committed") == true)

    let fixed =
      "BEGIN;\nCREATE TABLE IF NOT EXISTS audit (x);\nCOMMIT;\nBEGIN;\n"
      + "INSERT INTO audit VALUES (1);\nCOMMIT;\n"
    try fixture.write("0002_rebuild.up.sql", fixed)
    try fixture.migrator().migrate(db)
    #expect(try versions(db) == [1, 2])
    #expect(try db.scalar("SELECT count(*) FROM audit") == .integer(1))
  }

  @Test func aStatementAfterTheFinalCommitFailsWithTheMigrationRecorded() throws {
    let trailing = """
      BEGIN;
      CREATE TABLE audit (x);
      COMMIT;
      PRAGMA foreign_keys=ON;
      INSERT INTO missing VALUES (1);
      CREATE TABLE never (x);
      """
    let fixture = try fixture(trailing)
    let db = try fixture.open()
    let error = failure { try fixture.migrator().migrate(db) }
    guard case .ownTransactionFailed(2, _, 5, _, let outcome, false)? = error?.underlyingFailure
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(outcome.recorded)
    #expect(
      outcome.description
        == "the file's last transaction committed on line 3 with version 2 recorded as "
        + "applied; the statement on line 5 after it failed, and the 1 statement(s) after that "
        + "did not run"
    )
    #expect(error?.runState?.databaseVersion == 2)
    #expect(try versions(db) == [1, 2])
    #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'audit'") == .integer(1))
    #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'never'") == .integer(0))
    #expect(
      error?.help
        == "Run the statements from line 5 on by hand: the migration itself is committed and recorded."
    )
  }

  @Test(arguments: [
    ("CREATE TABLE a (x);\nBEGIN;\nCREATE TABLE b (x);\n", 2, "has no COMMIT or END"),
    ("BEGIN;\nCREATE TABLE b (x);\nROLLBACK;\n", 3, "ROLLBACK would undo"),
    ("CREATE TABLE b (x);\nCOMMIT;\n", 2, "COMMIT ends no transaction"),
    ("BEGIN;\nBEGIN;\nCOMMIT;\n", 2, "inside the one begun on line 1"),
  ])
  func transactionsThatCannotWorkAreRefusedBeforeAnythingRuns(
    sql: String,
    line: Int,
    reason: String
  ) throws {
    let fixture = try fixture(sql)
    let db = try fixture.open()
    let error = failure { try fixture.migrator().migrate(db) }
    guard case .ownTransactionRefused(2, let file, line, let said)? = error?.underlyingFailure
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(file == "migrations/0002_rebuild.up.sql")
    #expect(said.contains(reason))
    #expect(error?.message.contains("nothing from 2 was run; the database is at version 1") == true)
    #expect(try versions(db) == [1])
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('a', 'b')") == .integer(0)
    )
    // A dry run refuses it the same way, and a savepoint's ROLLBACK TO is not a ROLLBACK.
    #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(db, options: MigrateOptions(dryRun: true))
    }
  }

  @Test func aRunInOneTransactionRefusesAFileWithItsOwnAndAppliesNothing() throws {
    let fixture = try fixture(OwnTransactionSQL.rebuild)
    let db = try fixture.open()
    let options = MigrateOptions(singleTransaction: true)
    let error = failure { try fixture.migrator().migrate(db, options: options) }
    #expect(
      error?.underlyingFailure
        == .ownTransactionInSingleTransaction(
          version: 2,
          file: "migrations/0002_rebuild.up.sql",
          line: 2
        )
    )
    #expect(error?.message.contains("the database is at version 0") == true)
    #expect(error?.help.hasPrefix("Run the migrations each in its own transaction") == true)
    #expect(try versions(db) == [])
    #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(
        db,
        options: MigrateOptions(singleTransaction: true, dryRun: true)
      )
    }
    let dry = try fixture.migrator().migrate(db, options: MigrateOptions(dryRun: true))
    #expect(dry.steps.map(\.version) == [1, 2])
    #expect(try versions(db) == [])
  }

  @Test func aDownFileWithItsOwnTransactionRemovesTheHistoryRowInsideIt() throws {
    let orphaningDown = "BEGIN;\nDELETE FROM parent;\nCOMMIT;\n"
    let fixture = try fixture(OwnTransactionSQL.rebuild, down: orphaningDown)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let error = failure { try fixture.migrator().rollback(db) }
    guard case .ownTransactionFailed(2, _, 3, _, let outcome, true)? = error?.underlyingFailure
    else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(outcome.description.contains("version 2 was not rolled back and is still recorded"))
    #expect(try versions(db) == [1, 2])
    #expect(try db.scalar("SELECT count(*) FROM parent") == .integer(2))
  }

  /// dbmate, goose and sql-migrate mark a part that runs outside a transaction; such a part
  /// with BEGIN … COMMIT gets its history row inside; sqlx and bundle files need no mark.
  @Test(arguments: [
    ("-- migrate:up transaction:false\n", "0002_b.sql", "-- migrate:up\n"),
    ("-- +goose NO TRANSACTION\n-- +goose Up\n", "0002_b.sql", "-- +goose Up\n"),
    ("-- +migrate Up notransaction\n", "0002_b.sql", "-- +migrate Up\n"),
    ("-- no-transaction\n", "0002_b.sql", ""),
    ("", "2.sql", ""),
  ])
  func everyFormatRunsAFileWithItsOwnTransaction(
    mark: String,
    name: String,
    firstMark: String
  ) throws {
    let first = name == "2.sql" ? "1.sql" : "0001_a.sql"
    let sql = mark + "BEGIN;\nCREATE TABLE b (x);\nCOMMIT;\n"
    let fixture = try MigrationFixture([first: firstMark + "CREATE TABLE a (x);\n", name: sql])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(try versions(db) == [1, 2])
    #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'b'") == .integer(1))
  }

  /// A transactional dbmate part is still refused: dbmate fails on it too, and its marker can
  /// say `transaction:false`.
  @Test func aTransactionalDbmatePartWithBeginIsStillRefused() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nBEGIN;\nCREATE TABLE b (x);\nCOMMIT;\n"
    ])
    let db = try fixture.open()
    let error = failure { try fixture.migrator().migrate(db) }
    guard case .needsNoTransaction(1, _, 2, "BEGIN")? = error?.underlyingFailure else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(try versions(db) == [])
  }

  /// strata holds no lock between its check of the history and the file's own BEGIN: another
  /// process may apply the migration meanwhile. The file's transaction is then rolled back, so
  /// the migration runs once.
  @Test func anotherProcessApplyingItMeanwhileLeavesItAppliedOnce() throws {
    let fixture = try MigrationFixture([
      "0001_a.up.sql": "CREATE TABLE a (x);\n",
      "0002_b.up.sql": "BEGIN;\nSELECT meanwhile();\nINSERT INTO a VALUES (1);\nCOMMIT;\n",
    ])
    let db = try fixture.open()
    let path = fixture.database.path
    try db.registerFunction("meanwhile", argumentCount: 0, deterministic: false) { _ in
      let other = try Connection(path: path)
      try other.execute(
        "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms) "
          + "VALUES (2, 'b', 'elsewhere', '2026-01-01T00:00:00Z', 0)"
      )
      return .null
    }
    let report = try fixture.migrator().migrate(db)
    #expect(report.steps.map(\.version) == [1])
    #expect(try db.scalar("SELECT count(*) FROM a") == .integer(0))
    #expect(try History.read(db).map(\.checksum).last == "elsewhere")
    #expect(db.isAutocommit)
  }

  @Test func theScannerSeesOnlyTopLevelTransactions() {
    let sql = """
      CREATE TRIGGER t AFTER INSERT ON a BEGIN
        INSERT INTO b VALUES ('COMMIT; BEGIN;'); -- END; ROLLBACK;
      END;
      SAVEPOINT s; ROLLBACK TRANSACTION TO s; RELEASE s;
      /* BEGIN; */ begin deferred transaction ;; end;
      create temporary trigger u after delete on a begin delete from b; end;
      Rollback Transaction To Savepoint s
      """
    let found = SQLStatementScanner.statements(sql)
    #expect(found.map(\.line) == [1, 4, 4, 4, 5, 5, 6, 7])
    #expect(
      found.map { $0.words.first ?? "" } == [
        "CREATE", "SAVEPOINT", "ROLLBACK", "RELEASE", "BEGIN", "END", "CREATE", "ROLLBACK",
      ]
    )
    #expect(found.last?.words == ["ROLLBACK", "TRANSACTION", "TO"])
    let db = try? Connection.inMemory()
    let ran = try? db?.executeScript(
      "CREATE TABLE a (x); CREATE TABLE b (x);\n"
        + sql.replacingOccurrences(of: "Rollback Transaction To Savepoint s", with: "SELECT 1")
    )
    #expect(
      ran.map { $0.dropFirst(2).map(\.byteRange.lowerBound) }
        == found.map { $0.start + "CREATE TABLE a (x); CREATE TABLE b (x);\n".utf8.count }
    )
  }
}
