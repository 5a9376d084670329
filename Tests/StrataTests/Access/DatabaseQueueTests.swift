import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct DatabaseQueueTests {
  @Test func aWriteInsideAReadIsATypedErrorAndWritesNothing() throws {
    let fixture = try AccessFixture()
    let error = #expect(throws: DatabaseAccessError.self) {
      try fixture.queue.read { db in
        try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", 1])
      }
    }
    #expect(
      error?.message
        == "a statement that writes ran inside a read (`INSERT INTO student VALUES (?, ?, ?)`); "
        + "nothing was written"
    )
    #expect(
      throws: DatabaseAccessError.writeInsideRead(sql: "DELETE FROM student; DROP TABLE item")
    ) {
      try fixture.queue.read { db in try db.execute("DELETE FROM student; DROP TABLE item") }
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
    #expect(try fixture.stored("SELECT count(*) FROM sqlite_master WHERE name = 'item'") == [[1]])
    // The next write is not read-only.
    try fixture.queue.write { db in try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)") }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[1]])
  }

  @Test func aNestedAccessThrowsInsteadOfWaitingForever() throws {
    let fixture = try AccessFixture()
    let queue = fixture.queue
    let error = #expect(throws: DatabaseAccessError.self) {
      try queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        try queue.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 2)") }
      }
    }
    #expect(error == .nestedAccess(path: fixture.url.path))
    #expect(throws: DatabaseAccessError.nestedAccess(path: fixture.url.path)) {
      try queue.read { _ in try queue.read { _ in } }
    }
    // The outer write rolled back on the nested error.
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
  }

  struct Refused: Error, Equatable {}

  @Test func aThrownErrorRollsBackTheWriteAndIsRethrownUnchanged() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)") }
    #expect(throws: Refused()) {
      try fixture.queue.write { db in
        try db.execute("UPDATE student SET age = 99")
        try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 2)")
        throw Refused()
      }
    }
    #expect(try fixture.stored("SELECT * FROM student") == [["S1", "Ann", 1]])
    // A failing statement rolls back the statements before it too.
    #expect(throws: SQLiteError.self) {
      try fixture.queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S3', 'Cy', 3)")
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann again', 1)")
      }
    }
    #expect(try fixture.stored("SELECT * FROM student") == [["S1", "Ann", 1]])
  }

  /// The synchronous `write` (in an async context, `write` without `await` would not compile:
  /// the async one is chosen).
  static func insertSynchronously(_ queue: DatabaseQueue, _ id: String, _ n: Int) throws {
    try queue.write { db in
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", [id, "sync", n])
    }
  }

  @Test func eightTasksWriteThroughOneQueue() async throws {
    // WAL without a sync per commit: this test is about the queue, not the disk.
    let fixture = try AccessFixture(
      configuration: ConnectionConfiguration { connection in
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF")
      }
    )
    let queue = fixture.queue
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for n in 0..<50 {
            if n.isMultiple(of: 2) {
              try await queue.write { db in
                try db.execute(
                  "INSERT INTO student VALUES (?, ?, ?)",
                  ["T\(task)-\(n)", "async", n]
                )
              }
            } else {
              try Self.insertSynchronously(queue, "T\(task)-\(n)", n)
            }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(
      try fixture.stored("SELECT count(*), count(DISTINCT stuID) FROM student") == [[400, 400]]
    )
    let count = try await queue.read { db in
      try db.fetchValue(Int.self, "SELECT count(*) FROM student")
    }
    #expect(count == 400)
  }

  @Test func asyncReadAndWrite() async throws {
    let fixture = try AccessFixture()
    let id = try await fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
      return db.lastInsertRowID
    }
    #expect(id == 1)
    let name = try await fixture.queue.read { db in
      try db.fetchValue(String.self, "SELECT stuName FROM student WHERE rowid = ?", [id])
    }
    #expect(name == "Ann")
    await #expect(throws: DatabaseAccessError.self) {
      try await fixture.queue.read { db in try db.execute("DELETE FROM student") }
    }
    await #expect(throws: Refused()) {
      try await fixture.queue.write { db in
        try db.execute("DELETE FROM student")
        throw Refused()
      }
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[1]])
  }

  @Test func aMissingFileIsAnErrorNamingItAndIsNotCreated() throws {
    let dir = try TemporaryDirectory()
    let typo = dir.path("ap.sqlite3")
    let error = #expect(throws: DatabaseOpenError.self) { try DatabaseQueue(url: typo) }
    #expect(error == .missing(path: typo.path))
    #expect(error?.message.contains(typo.path) == true)
    #expect(!FileManager.default.fileExists(atPath: typo.path))
  }

  @Test func aLockHeldByAnotherQueueInThisProcessSaysSo() throws {
    let fixture = try AccessFixture()
    let other = try DatabaseQueue(url: fixture.url, busyTimeout: 100)
    let error = try fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
      return #expect(throws: DatabaseAccessError.self) {
        try other.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 2)") }
      }
    }
    let message = try #require(error?.message)
    #expect(message.contains("is locked by another connection (in this app or another process)"))
    #expect(message.contains("busy timeout (100 ms)"))
    #expect(message.hasSuffix("nothing was written"))
    #expect(!message.contains("another process, which"))
    #expect(try fixture.stored("SELECT stuID FROM student") == [["S1"]])
  }

  @Test func foreignKeysAreOnAndAWALFileStaysWAL() throws {
    let dir = try TemporaryDirectory()
    let url = dir.path("wal.sqlite3")
    try Connection(path: url.path).execute(
      "PRAGMA journal_mode = WAL; CREATE TABLE p (id INTEGER PRIMARY KEY);"
        + "CREATE TABLE c (p REFERENCES p(id));"
    )
    let queue = try DatabaseQueue(url: url)
    let (journal, foreignKeys) = try queue.read { db in
      (
        try db.fetchValue(String.self, "PRAGMA journal_mode"),
        try db.fetchValue(Bool.self, "PRAGMA foreign_keys")
      )
    }
    #expect(journal == "wal")
    #expect(foreignKeys == true)
    #expect(throws: SQLiteError.self) {
      try queue.write { db in try db.execute("INSERT INTO c VALUES (?)", [5]) }
    }
  }

  @Test func closeIsIdempotentAndLaterCallsThrow() throws {
    let fixture = try AccessFixture()
    fixture.queue.close()
    fixture.queue.close()
    #expect(throws: DatabaseAccessError.closed(path: fixture.url.path)) {
      try fixture.queue.read { _ in }
    }
    let queue = try DatabaseQueue.inMemory()
    try queue.write { db in
      try db.execute("CREATE TABLE t (x)")
      queue.close()
    }
    #expect(throws: DatabaseAccessError.closed(path: ":memory:")) { try queue.write { _ in } }
  }

  @Test func statementsAreCachedAndRunAgainWithFreshArguments() throws {
    let queue = try DatabaseQueue.inMemory(
      configuration: ConnectionConfiguration { connection in
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
      }
    )
    try queue.write { db in
      try db.registerFunction("twice", argumentCount: 1, deterministic: true) { arguments in
        .integer((arguments[0].integerValue ?? 0) * 2)
      }
      for n in 1...100 { try db.execute("INSERT INTO t (v) VALUES (twice(?))", [n]) }
      // A statement that stopped after one row is reset for its next use.
      #expect(try db.fetchOne(Int.self, "SELECT v FROM t ORDER BY id") == 2)
      #expect(try db.fetchOne(Int.self, "SELECT v FROM t ORDER BY id") == 2)
      #expect(try db.fetchValue(Int.self, "SELECT sum(v) FROM t") == 10_100)
    }
  }

  @Test func setupOpenReturnsAQueueOnTheSetUpDatabase() throws {
    let fixture = try SetupFixture()
    var setup = fixture.setup(template: fixture.template)
    setup.busyTimeout = 1234
    let queue = try setup.open()
    #expect(queue.setupReport?.created == true)
    #expect(queue.path == fixture.database.path)
    try queue.write { db in try db.execute("INSERT INTO b (a_x) VALUES (?)", ["x"]) }
    #expect(try queue.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM b") } == 1)
    let again = try setup.open()
    #expect(again.setupReport?.changedAnything == false)
    #expect(try DatabaseQueue(url: fixture.database).setupReport == nil)
  }

  @Test func aNestedAccessInsideAnAsyncClosureThrowsAndAnotherQueueMayBeUsed() async throws {
    let fixture = try AccessFixture()
    let queue = fixture.queue
    let other = try DatabaseQueue.inMemory(
      configuration: ConnectionConfiguration { try $0.execute("CREATE TABLE t (x)") }
    )
    await #expect(throws: DatabaseAccessError.nestedAccess(path: fixture.url.path)) {
      try await queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        // Another queue is not nested: it runs.
        try other.write { db in try db.execute("INSERT INTO t VALUES (1)") }
        try queue.read { _ in }
      }
    }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
    let count = try await other.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
    #expect(count == 1)
    // The queue is free again after the refused nested access.
    try await queue.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 2)") }
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[1]])
  }

  @Test func aStatementDroppedFromTheCacheIsCompiledAgain() throws {
    let queue = try DatabaseQueue.inMemory()
    try queue.write { db in
      try db.execute("CREATE TABLE t (x)")
      try db.execute("INSERT INTO t VALUES (?)", [7])
      let first = "SELECT x + 0 FROM t"
      #expect(try db.fetchValue(Int.self, first) == 7)
      // 70 other statements push the first one (and the last used) out of the 64 kept.
      for n in 1...70 { #expect(try db.fetchValue(Int.self, "SELECT x + \(n) FROM t") == 7 + n) }
      #expect(try db.fetchValue(Int.self, first) == 7)
      #expect(try db.fetchValue(Int.self, "SELECT x + 70 FROM t") == 77)
      #expect(try db.fetchValue(Int.self, "SELECT x + 1 FROM t") == 8)
    }
  }
}
