import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// The fence (SQLite's authorizer): what it refuses, that it nests, and that it leaves a
/// connection as it found it.
@Suite struct AuthorizerTests {
  @Test func fencesNestAndLiftCompletely() throws {
    let folder = try TemporaryDirectory()
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE strata_migrations (version INTEGER PRIMARY KEY)")
    let outer = db.raiseFence(.noOutsideFiles)
    let inner = db.raiseFence(.strataTables)
    let refused = #expect(throws: SQLiteError.self) {
      try db.execute("DELETE FROM strata_migrations")
    }
    #expect(refused?.isRefusedByFence == true)
    #expect(refused?.changesStrataTable == true)
    #expect(refused?.message.hasPrefix("the statement deletes from strata_migrations") == true)
    db.restoreFence(inner)
    try db.execute("DELETE FROM strata_migrations")
    let attach = folder.path("other.db").path
    let outside = #expect(throws: SQLiteError.self) {
      try db.execute("ATTACH \(quoteLiteral(attach)) AS o")
    }
    #expect(outside?.isRefusedByFence == true)
    #expect(outside?.changesStrataTable == false)
    #expect(!FileManager.default.fileExists(atPath: attach))
    try db.execute("ATTACH ':memory:' AS m; CREATE TABLE m.t (x); DETACH m")
    db.restoreFence(outer)
    try db.execute("ATTACH \(quoteLiteral(attach)) AS o; DETACH o")
    #expect(FileManager.default.fileExists(atPath: attach))
  }

  @Test(arguments: strataOwnTables.sorted() + ["STRATA_SEEDS"])
  func everyOwnTableIsFenced(table: String) throws {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE \(table) (x); CREATE TABLE strata_other (x)")
    let state = db.raiseFence(.strataTables)
    defer { db.restoreFence(state) }
    #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO \(table) VALUES (1)") }
    try db.execute("INSERT INTO strata_other VALUES (1)")
    #expect(try db.scalar("SELECT count(*) FROM \(table)")?.integerValue == 0)
  }

  /// The fence knows no table of its own: it protects the tables its caller names, ends their
  /// refusals with the caller's rule, and probes a new trigger with the caller's `CREATE`.
  @Test func theFenceProtectsTheTablesItsCallerNames() throws {
    let ledger = ProtectedTables(
      [("app_ledger", "CREATE TABLE IF NOT EXISTS main.app_ledger (entry)")],
      rule: "which the app's ledger keeps"
    )
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE App_Ledger (entry); CREATE TABLE strata_migrations (x)")
    let state = db.raiseFence(.protecting(ledger))
    defer { db.restoreFence(state) }
    let refused = #expect(throws: SQLiteError.self) {
      try db.execute("DELETE FROM APP_LEDGER")
    }
    #expect(
      refused?.message == "the statement deletes from App_Ledger, which the app's ledger keeps"
    )
    #expect(refused?.changesStrataTable == false)
    try db.execute("INSERT INTO strata_migrations VALUES (1)")
    try db.execute("CREATE TABLE t (x)")
    // A trigger's body is audited once the script's statement has run.
    let trigger = #expect(throws: ScriptError.self) {
      try db.executeScript(
        "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN DELETE FROM app_ledger; END"
      )
    }
    #expect(
      trigger?.underlying.message
        == "the trigger it creates, when it fires, deletes from App_Ledger (through trigger "
        + "t_log), which the app's ledger keeps"
    )
    let writable = #expect(throws: SQLiteError.self) {
      try db.execute("PRAGMA writable_schema = ON")
    }
    #expect(
      writable?.message.contains("including app_ledger, which the app's ledger keeps") == true
    )
  }

  @Test func aRefusedFunctionIsExplained() throws {
    let db = try Connection.inMemory()
    let state = db.raiseFence(.noOutsideFiles)
    defer { db.restoreFence(state) }
    let error = #expect(throws: SQLiteError.self) {
      _ = try db.scalar("SELECT load_extension('nosuch')")
    }
    #expect(error?.isRefusedByFence == true)
    #expect(error?.message == "calls load_extension(), which loads code from a file")
  }

  @Test func seedingInACallersTransactionLiftsTheFenceAfterwards() throws {
    let fixture = try SeedFixture()
    try fixture.connection.execute(
      "CREATE TRIGGER wipe AFTER INSERT ON person_info BEGIN DELETE FROM strata_seeds; END"
    )
    let file = try fixture.csv("person_info.csv", "id,name,age\n1,Ann,30\n")
    try fixture.connection.execute("BEGIN")
    let error = #expect(throws: SeedError.self) {
      try Seeder(connection: fixture.connection).seed([file])
    }
    #expect(error?.message.contains("deletes from strata_seeds (through trigger wipe)") == true)
    // The caller's connection is unfenced again: the app may change any table it likes.
    try fixture.connection.execute("CREATE TABLE strata_seeds (x); DROP TABLE strata_seeds")
    try fixture.connection.execute("ROLLBACK")
  }

  /// What the authorizer reports of a statement while SQLite prepares it: the runner's check for
  /// statements that cannot run in a transaction relies on it (TransactionBoundStatement.swift),
  /// and on VACUUM being reported as nothing at all.
  @Test(arguments: [
    ("BEGIN IMMEDIATE", PreparedStatementKind.transaction(verb: "BEGIN")),
    ("END TRANSACTION", .transaction(verb: "COMMIT")),
    ("ROLLBACK", .transaction(verb: "ROLLBACK")),
    ("ROLLBACK TO sp", .savepoint(verb: "ROLLBACK")),
    ("SAVEPOINT sp", .savepoint(verb: "BEGIN")),
    ("RELEASE sp", .savepoint(verb: "RELEASE")),
    ("ATTACH ':memory:' AS m", .attach),
    ("DETACH m", .detach),
    ("PRAGMA MAIN.Journal_Mode = wal", .pragma(name: "journal_mode", setsValue: true)),
    ("PRAGMA synchronous(1)", .pragma(name: "synchronous", setsValue: true)),
    ("PRAGMA journal_mode", .pragma(name: "journal_mode", setsValue: false)),
    ("VACUUM", .unreported),
    ("VACUUM INTO ':memory:'", .unreported),
    ("CREATE TABLE t (x)", .other),
  ])
  func preparedStatementsAreClassified(sql: String, kind: PreparedStatementKind) throws {
    struct Prepared: Error {}
    let db = try Connection.inMemory()
    _ = db.raiseFence(.strataTables)
    var seen: PreparedStatementKind?
    #expect(throws: Prepared.self) {
      try db.executeScript(sql) { _ in
        seen = db.lastPreparedKind
        throw Prepared()
      }
    }
    #expect(seen == kind)
  }
}
