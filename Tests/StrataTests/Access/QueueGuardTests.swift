import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// What a closure's SQL cannot take from the queue (its transaction, its connection's rules),
/// and a `Database` kept past its closure (found by review).
@Suite struct QueueGuardTests {
  @Test func aReadCannotTurnQueryOnlyOffSoLaterReadsStayReadOnly() throws {
    let fixture = try AccessFixture()
    #expect(throws: DatabaseAccessError.self) {
      try fixture.queue.read { db in try db.execute("PRAGMA query_only = OFF") }
    }
    #expect(
      throws: DatabaseAccessError.writeInsideRead(sql: "INSERT INTO student VALUES ('Q', 'Q', 1)")
    ) {
      try fixture.queue.read { db in try db.execute("INSERT INTO student VALUES ('Q', 'Q', 1)") }
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
  }

  @Test func aWriteCannotEndItsOwnTransactionSoAThrownErrorRollsEverythingBack() throws {
    let fixture = try AccessFixture()
    struct Boom: Error {}
    let error = #expect(throws: DatabaseAccessError.self) {
      try fixture.queue.write { db in
        try db.execute("INSERT INTO student VALUES ('C1', 'Ann', 1)")
        try db.execute("COMMIT")
        try db.execute("INSERT INTO student VALUES ('C2', 'Bob', 2)")
        throw Boom()
      }
    }
    #expect(
      error?.message
        == "`COMMIT` was refused: the statement begins or ends a transaction, which the queue's "
        + "write owns (use a SAVEPOINT to nest one); nothing was run"
    )
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
    // A script that would switch foreign keys off between two transactions is refused whole.
    #expect(throws: DatabaseAccessError.self) {
      try fixture.queue.write { db in try db.execute("COMMIT; PRAGMA foreign_keys = OFF; BEGIN") }
    }
    #expect(
      try fixture.queue.read { db in try db.fetchValue(Int.self, "PRAGMA foreign_keys") } == 1
    )
    // Savepoints nest inside the write.
    try fixture.queue.write { db in
      try db.execute("SAVEPOINT inner; INSERT INTO student VALUES ('S1', 'Ann', 1); RELEASE inner")
    }
    #expect(try fixture.stored("SELECT stuID FROM student") == [["S1"]])
  }

  @Test func aScriptWithParametersAndNoArgumentsIsUndone() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      let script =
        "INSERT INTO student VALUES ('S7', 'Q', 1); INSERT INTO student VALUES ('S8', 'R', ?)"
      #expect(throws: DatabaseAccessError.parametersInScript(sql: script)) {
        try db.execute(script)
      }
      try db.execute("INSERT INTO student VALUES ('S9', 'T', 3)")
    }
    #expect(try fixture.stored("SELECT stuID FROM student") == [["S9"]])
  }

  @Test func aDatabaseKeptPastItsClosureRefuses() throws {
    let fixture = try AccessFixture()
    final class Holder: @unchecked Sendable { var db: Database? }
    let holder = Holder()
    try fixture.queue.write { db in holder.db = db }
    let kept = try #require(holder.db)
    #expect(throws: DatabaseAccessError.outsideAccess(path: fixture.url.path)) {
      _ = try kept.fetchRows("SELECT * FROM student")
    }
    #expect(throws: DatabaseAccessError.outsideAccess(path: fixture.url.path)) {
      try kept.execute("DELETE FROM student; DELETE FROM item")
    }
    #expect(throws: DatabaseAccessError.outsideAccess(path: fixture.url.path)) {
      try kept.registerFunction("f", argumentCount: 0, deterministic: true) { _ in .null }
    }
    fixture.queue.close()
    #expect(throws: DatabaseAccessError.outsideAccess(path: fixture.url.path)) {
      _ = try kept.fetchValue(Int.self, "SELECT count(*) FROM student")
    }
  }

  @Test func valueTypesFetchFromTheFirstColumn() throws {
    let fixture = try AccessFixture()
    let dates = try fixture.queue.read { db in
      try db.fetchAll(
        Date.self,
        "SELECT '2026-12-01T01:30:00Z' UNION ALL SELECT '2026-12-02 10:00:00'"
      )
    }
    #expect(dates.count == 2)
    #expect(dates.first == Date(timeIntervalSince1970: 1_796_088_600))
    #expect(
      try fixture.queue.read { db in try db.fetchOne(Data.self, "SELECT x'0102'") } == Data([1, 2])
    )
    #expect(
      try fixture.queue.read { db in
        try db.fetchAll(String?.self, "SELECT NULL UNION ALL SELECT 'a'")
      }
        == [nil, "a"]
    )
    #expect(throws: RowDecodingError.self) {
      try fixture.queue.read { db in try db.fetchOne(Date.self, "SELECT 'garbage'") }
    }
  }

  @Test func aTaskCancelledBeforeItsTurnDoesNotWrite() async throws {
    let fixture = try AccessFixture()
    let queue = fixture.queue
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await queue.write { db in try db.execute("INSERT INTO student VALUES ('X', 'X', 1)") }
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
  }

  @Test func theFenceHoldsFromReadToReadAndTheQueuesOwnStatementsStillRun() throws {
    let fixture = try AccessFixture()
    for _ in 0..<3 {
      #expect(try fixture.queue.read { db in try db.fetchValue(Int.self, "SELECT 1") } == 1)
      #expect(throws: DatabaseAccessError.self) {
        try fixture.queue.read { db in try db.execute("PRAGMA query_only = OFF") }
      }
    }
    // A write after reads begins and commits; after a change of schema SQLite compiles the
    // queue's BEGIN and COMMIT again, which the closures' fence must not refuse.
    try fixture.queue.write { db in try db.execute("CREATE TABLE extra (x)") }
    #expect(try fixture.queue.read { db in try db.fetchRows("SELECT * FROM extra") } == [])
    try fixture.queue.write { db in try db.execute("INSERT INTO extra VALUES (1)") }
    #expect(throws: DatabaseAccessError.self) {
      try fixture.queue.write { db in try db.execute("COMMIT") }
    }
    #expect(throws: DatabaseAccessError.self) {
      try fixture.queue.read { db in try db.execute("BEGIN") }
    }
    #expect(try fixture.stored("SELECT x FROM extra") == [[1]])
  }
}
