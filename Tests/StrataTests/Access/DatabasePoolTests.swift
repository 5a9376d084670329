import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `DatabasePool`: the queue's API on one writer and several readers, in WAL mode.
@Suite struct DatabasePoolTests {
  /// A database file with `student` and a pair of tables updated together (`a`, `b`), in a
  /// fresh folder, in rollback-journal mode until a pool opens it.
  struct Fixture {
    let dir: TemporaryDirectory
    var url: URL { dir.path("app.sqlite3") }

    init() throws {
      dir = try TemporaryDirectory()
      try Connection(path: dir.path("app.sqlite3").path).execute(
        """
        CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL, age INTEGER);
        CREATE TABLE a (n INTEGER NOT NULL);
        CREATE TABLE b (n INTEGER NOT NULL);
        INSERT INTO a VALUES (0);
        INSERT INTO b VALUES (0);
        """
      )
    }

    func pool(readers: Int = 4) throws -> DatabasePool {
      try DatabasePool(url: url, maximumReaderCount: readers)
    }

    /// The rows of `sql` read through a separate connection, as SQLite stores them.
    func stored(_ sql: String) throws -> [[SQLValue]] {
      try Connection(path: url.path, mode: .readOnly).rows(sql)
    }

    func exists(_ suffix: String) -> Bool {
      FileManager.default.fileExists(atPath: url.path + suffix)
    }
  }

  struct Student: Decodable, Equatable {
    var stuID: String
    var stuName: String
    var age: Int?
  }

  @Test func writesAndReadsAsTheQueueDoesAndPutsTheFileInWALMode() async throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    #expect(pool.path == fixture.url.path)
    #expect(pool.setupReport == nil)
    #expect(!pool.isReadOnly)
    #expect(pool.maximumReaderCount == 4)
    try synchronously {
      try pool.write { db in
        try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", 20])
      }
    }
    try await pool.write { db in
      try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S2", "Bob", nil])
    }
    let sync = try synchronously {
      try pool.read { db in try db.fetchAll(Student.self, "SELECT * FROM student ORDER BY stuID") }
    }
    let async = try await pool.read { db in
      try db.fetchAll(Student.self, "SELECT * FROM student ORDER BY stuID")
    }
    let expected = [
      Student(stuID: "S1", stuName: "Ann", age: 20), Student(stuID: "S2", stuName: "Bob", age: nil),
    ]
    #expect(sync == expected)
    #expect(async == expected)
    #expect(isWALDatabase(at: fixture.url.path))
    pool.close()
    // The last connection folded the -wal back and removed it; the mode stays in the file.
    #expect(!fixture.exists("-wal"))
    #expect(isWALDatabase(at: fixture.url.path))
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[.integer(2)]])
  }

  @Test func aWriteThatThrowsRollsBackAndTheErrorComesOutAsItWas() throws {
    struct Stop: Error, Equatable {}
    let fixture = try Fixture()
    let pool = try fixture.pool()
    #expect(throws: Stop()) {
      try pool.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        throw Stop()
      }
    }
    #expect(
      try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM student") } == 0
    )
  }

  @Test func aWriteInsideAReadIsRefusedAndWritesNothing() async throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    let insert = "INSERT INTO student VALUES ('S1', 'Ann', 1)"
    #expect(throws: DatabaseAccessError.writeInsideRead(sql: insert)) {
      try pool.read { db in try db.execute(insert) }
    }
    await #expect(throws: DatabaseAccessError.writeInsideRead(sql: insert)) {
      try await pool.read { db in try db.execute(insert) }
    }
    // The reader is fine afterwards, and still refuses.
    #expect(
      try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM a") } == 1
    )
    #expect(throws: DatabaseAccessError.self) {
      try pool.read { db in try db.execute("COMMIT") }
    }
    #expect(throws: DatabaseAccessError.self) {
      try pool.read { db in try db.execute("PRAGMA query_only = OFF") }
    }
    #expect(throws: DatabaseAccessError.writeInsideRead(sql: insert)) {
      try pool.read { db in try db.execute(insert) }
    }
    pool.close()
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[.integer(0)]])
  }

  @Test func everyNestedAccessThrowsInsteadOfRunning() throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    let nested = DatabaseAccessError.nestedAccess(path: fixture.url.path)
    #expect(throws: nested) { try pool.read { _ in try pool.read { _ in 1 } } }
    #expect(throws: nested) { try pool.read { _ in try pool.write { _ in 1 } } }
    #expect(throws: nested) { try pool.write { _ in try pool.read { _ in 1 } } }
    #expect(throws: nested) { try pool.write { _ in try pool.write { _ in 1 } } }
    // The outer write rolled back: the nested error came out of it.
    #expect(throws: nested) {
      try pool.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        _ = try pool.read { _ in 1 }
      }
    }
    // Another pool's access is not nested.
    let other = try fixture.pool()
    #expect(try pool.read { _ in try other.read { _ in 1 } } == 1)
    #expect(
      try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM student") } == 0
    )
  }

  @Test func aNestedAccessInsideAnAsyncClosureThrowsToo() async throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    let nested = DatabaseAccessError.nestedAccess(path: fixture.url.path)
    await #expect(throws: nested) { try await pool.write { _ in try pool.read { _ in 1 } } }
    await #expect(throws: nested) { try await pool.write { _ in try pool.write { _ in 1 } } }
    await #expect(throws: nested) { try await pool.read { _ in try pool.write { _ in 1 } } }
    await #expect(throws: nested) { try await pool.read { _ in try pool.read { _ in 1 } } }
    #expect(try await pool.read { _ in 1 } == 1)
  }

  @Test func aReadSeesOneMomentWhileAWriteCommitsBetweenItsStatements() throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    let (first, second) = try pool.read { db in
      let first = try db.fetchValue(Int.self, "SELECT n FROM a")
      // The write commits in the middle of the read: the pool's writer, on another thread.
      let write = OnItsOwnThread {
        try pool.write { db in
          try db.execute("UPDATE a SET n = n + 1")
          try db.execute("UPDATE b SET n = n + 1")
        }
      }
      _ = try #require(write.result(within: 10)).get()
      let second = try db.fetchValue(Int.self, "SELECT n FROM b")
      return (first, second)
    }
    #expect(first == 0)
    #expect(second == 0)
    #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT n FROM b") } == 1)
  }

  @Test func closingWithReadsInFlightLetsThemFinishThenClosesEveryConnection() throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    try pool.write { db in try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)") }
    let reading = DispatchSemaphore(value: 0)
    let carryOn = DispatchSemaphore(value: 0)
    let read = OnItsOwnThread {
      try pool.read { db in
        let before = try db.fetchValue(Int.self, "SELECT count(*) FROM student")
        reading.signal()
        carryOn.wait()
        let after = try db.fetchValue(Int.self, "SELECT count(*) FROM student")
        return [before, after]
      }
    }
    reading.wait()
    pool.close()
    let closed = DatabaseAccessError.closed(path: fixture.url.path)
    #expect(throws: closed) { try pool.read { _ in 1 } }
    #expect(throws: closed) { try pool.write { _ in 1 } }
    // The read in flight still holds its connection, so the -wal is still there.
    #expect(fixture.exists("-wal"))
    carryOn.signal()
    #expect(try #require(read.result(within: 10)).get() == [1, 1])
    // Its reader closed as it came back: no connection is left.
    #expect(!fixture.exists("-wal"))
    #expect(throws: closed) { try pool.read { _ in 1 } }
    pool.close()
  }

  @Test func anInMemoryDatabaseIsRefusedWithTheQueueToUseInstead() throws {
    let url = try #require(URL(string: ":memory:"))
    let error = DatabaseOpenError.walUnavailable(path: ":memory:", journalMode: "memory")
    #expect(throws: error) { try DatabasePool(url: url) }
    #expect(
      error.message
        == "cannot open :memory: as a pool of connections: it must be in WAL mode, and SQLite "
        + "kept the journal mode memory (an in-memory database has no file its connections "
        + "could share); nothing was changed"
    )
    #expect(error.help.contains("DatabaseQueue.inMemory()"))
    #expect(!FileManager.default.fileExists(atPath: ":memory:"))
  }

  @Test func aMissingFileIsAnErrorNeverANewDatabase() throws {
    let dir = try TemporaryDirectory()
    let url = dir.path("ap.sqlite3")
    #expect(throws: DatabaseOpenError.missing(path: url.path)) { try DatabasePool(url: url) }
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test func suspendRefusesEveryAccessUntilResume() async throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    #expect(try synchronously { try pool.read { _ in 1 } } == 1)
    pool.suspend()
    #expect(pool.isSuspended)
    let suspended = DatabaseAccessError.suspended(path: fixture.url.path)
    #expect(throws: suspended) { try synchronously { try pool.read { _ in 1 } } }
    #expect(throws: suspended) { try synchronously { try pool.write { _ in 1 } } }
    await #expect(throws: suspended) { try await pool.read { _ in 1 } }
    await #expect(throws: suspended) { try await pool.write { _ in 1 } }
    pool.resume()
    #expect(!pool.isSuspended)
    #expect(try await pool.read { _ in 1 } == 1)
    #expect(try synchronously { try pool.write { _ in 2 } } == 2)
  }

  @Test func suspendStopsAReadRunningNow() throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    let started = DispatchSemaphore(value: 0)
    let read = OnItsOwnThread {
      try pool.read { db in
        started.signal()
        return try db.fetchValue(
          Int.self,
          """
          WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000000)
          SELECT count(*) FROM n
          """
        )
      }
    }
    started.wait()
    Thread.sleep(forTimeInterval: 0.05)
    pool.suspend()
    let result = try #require(read.result(within: 10))
    #expect(throws: DatabaseAccessError.suspended(path: fixture.url.path)) { try result.get() }
    pool.resume()
    #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT n FROM a") } == 0)
  }

  @Test func anAppHoldsEitherAsADatabaseWriter() async throws {
    let fixture = try Fixture()
    let handles: [any DatabaseWriter] = [try fixture.pool(), try DatabaseQueue.inMemory()]
    for handle in handles {
      try await handle.write { db in try db.execute("CREATE TABLE IF NOT EXISTS t (x)") }
      try await handle.write { db in try db.execute("INSERT INTO t VALUES (1)") }
      #expect(try await handle.read { db in try db.fetchValue(Int.self, "SELECT x FROM t") } == 1)
      handle.close()
    }
  }
}

/// Runs `body` as a synchronous closure, so that inside an `async` test the synchronous `read`
/// and `write` are the ones chosen.
func synchronously<T>(_ body: () throws -> T) rethrows -> T { try body() }
