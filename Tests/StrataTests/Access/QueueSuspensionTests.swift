import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `DatabaseQueue.suspend()` and `resume()`: a suspended app holds no lock on its database
/// (iOS kills one that does, 0xdead10cc).
@Suite struct QueueSuspensionTests {
  /// Ten million rows: seconds of work, unless something stops it.
  static let longInsert = """
    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10000000)
    INSERT INTO big SELECT x FROM n
    """

  /// `AccessFixture` with a table `big` for long writes.
  static func fixture() throws -> AccessFixture {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in try db.execute("CREATE TABLE big (x INTEGER)") }
    return fixture
  }

  /// Whether another connection can take the write lock now, without waiting.
  static func writeLockIsFree(_ url: URL) throws -> Bool {
    let other = try Connection(path: url.path, mode: .readWrite, busyTimeout: 0)
    do {
      try other.execute("BEGIN IMMEDIATE")
    } catch let error as SQLiteError where error.isBusy {
      return false
    }
    try other.execute("ROLLBACK")
    return true
  }

  /// Waits for `started`, then a little longer, so that the statement after it runs.
  static func waitThenPause(_ started: DispatchSemaphore) {
    started.wait()
    Thread.sleep(forTimeInterval: 0.05)
  }

  @Test func suspendStopsALongWriteWhichRollsBackAndLetsGoOfTheLock() throws {
    let fixture = try Self.fixture()
    let queue = fixture.queue
    let started = DispatchSemaphore(value: 0)
    let write = OnItsOwnThread {
      try queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        started.signal()
        try db.execute(Self.longInsert)
      }
    }
    started.wait()
    Thread.sleep(forTimeInterval: 0.1)
    #expect(try !Self.writeLockIsFree(fixture.url))
    let clock = ContinuousClock()
    let suspendedAt = clock.now
    queue.suspend()
    let result = try #require(write.result(within: 30))
    #expect(clock.now - suspendedAt < .seconds(2))
    #expect(throws: DatabaseAccessError.suspended(path: fixture.url.path)) { try result.get() }
    // Rolled back, lock released: another connection writes at once.
    #expect(try Self.writeLockIsFree(fixture.url))
    #expect(try fixture.stored("SELECT count(*) FROM big") == [[0]])
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
    #expect(!FileManager.default.fileExists(atPath: fixture.url.path + "-journal"))
  }

  @Test func suspendStopsALongReadAndAnAsyncWrite() async throws {
    let fixture = try Self.fixture()
    let queue = fixture.queue
    let started = DispatchSemaphore(value: 0)
    let read = OnItsOwnThread {
      try queue.read { db in
        started.signal()
        return try db.fetchValue(
          Int.self,
          "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000000) "
            + "SELECT count(*) FROM n"
        )
      }
    }
    Self.waitThenPause(started)
    queue.suspend()
    let readResult = try #require(read.result(within: 30))
    #expect(throws: DatabaseAccessError.suspended(path: fixture.url.path)) {
      try readResult.get()
    }
    queue.resume()

    let write = Task {
      try await queue.write { db in
        started.signal()
        try db.execute(Self.longInsert)
      }
    }
    Self.waitThenPause(started)
    queue.suspend()
    await #expect(throws: DatabaseAccessError.suspended(path: fixture.url.path)) {
      try await write.value
    }
    #expect(try Self.writeLockIsFree(fixture.url))
    #expect(try fixture.stored("SELECT count(*) FROM big") == [[0]])
  }

  @Test func accessesWhileSuspendedThrowAtOnceWithoutTouchingTheFile() async throws {
    let fixture = try Self.fixture()
    let queue = fixture.queue
    try await queue.write { db in try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)") }
    let bytes = try Data(contentsOf: fixture.url)
    let modified = try FileManager.default.attributesOfItem(atPath: fixture.url.path)[
      .modificationDate
    ]
    queue.suspend()
    #expect(queue.isSuspended)
    let suspended = DatabaseAccessError.suspended(path: fixture.url.path)
    #expect(throws: suspended) {
      try queue.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 2)") }
    }
    #expect(throws: suspended) {
      try queue.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM student") }
    }
    await #expect(throws: suspended) {
      try await queue.write { db in try db.execute("DELETE FROM student") }
    }
    await #expect(throws: suspended) {
      try await queue.read { db in try db.fetchRows("SELECT * FROM student") }
    }
    #expect(try Data(contentsOf: fixture.url) == bytes)
    #expect(
      try FileManager.default.attributesOfItem(atPath: fixture.url.path)[.modificationDate]
        as? Date == modified as? Date
    )
    #expect(!FileManager.default.fileExists(atPath: fixture.url.path + "-journal"))

    queue.resume()
    #expect(!queue.isSuspended)
    try await queue.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 2)") }
    let count = try await queue.read { db in
      try db.fetchValue(Int.self, "SELECT count(*) FROM student")
    }
    #expect(count == 2)
  }

  @Test func anAccessWaitingForTheRunningOneIsRefusedAtOnceAndTheRunningWriteNeverCommits()
    throws
  {
    let fixture = try Self.fixture()
    let queue = fixture.queue
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let write = OnItsOwnThread {
      try queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        started.signal()
        // Swift code between statements: suspend() cannot stop it, only refuse its commit.
        _ = release.wait(timeout: .now() + 10)
      }
    }
    started.wait()
    queue.suspend()
    let clock = ContinuousClock()
    let before = clock.now
    // Refused without waiting for the write, which still runs.
    #expect(throws: DatabaseAccessError.suspended(path: fixture.url.path)) {
      try queue.read { _ in }
    }
    #expect(clock.now - before < .seconds(2))
    #expect(write.result(within: 0) == nil)
    release.signal()
    let result = try #require(write.result(within: 30))
    #expect(throws: DatabaseAccessError.suspended(path: fixture.url.path)) { try result.get() }
    #expect(try Self.writeLockIsFree(fixture.url))
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
  }

  @Test func aWriteThatSuspendsItselfRollsBackAndAStatementItStartsAfterIsStopped() throws {
    let fixture = try Self.fixture()
    let queue = fixture.queue
    let suspended = DatabaseAccessError.suspended(path: fixture.url.path)
    // suspend() from inside: no statement runs, so nothing is interrupted; the closure returns
    // and the write rolls back instead of committing (its ROLLBACK is not interrupted).
    #expect(throws: suspended) {
      try queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        queue.suspend()
      }
    }
    #expect(try Self.writeLockIsFree(fixture.url))
    #expect(try fixture.stored("SELECT count(*) FROM student") == [[0]])
    queue.resume()
    // A long statement the closure starts after suspend() is stopped by the queue's progress
    // check, and the write throws .suspended rather than SQLite's interrupt.
    let clock = ContinuousClock()
    let before = clock.now
    #expect(throws: suspended) {
      try queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        queue.suspend()
        try db.execute(Self.longInsert)
      }
    }
    #expect(clock.now - before < .seconds(2))
    #expect(try Self.writeLockIsFree(fixture.url))
    #expect(try fixture.stored("SELECT count(*) FROM big") == [[0]])
    queue.resume()
    // suspend() then resume() during a write: it still never commits.
    #expect(throws: suspended) {
      try queue.write { db in
        try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
        queue.suspend()
        queue.resume()
      }
    }
    #expect(!queue.isSuspended)
    try queue.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 2)") }
    #expect(try fixture.stored("SELECT stuID FROM student") == [["S2"]])
  }

  @Test func suspendWithNothingRunningOnlyRefusesUntilResume() throws {
    let queue = try DatabaseQueue.inMemory(
      configuration: ConnectionConfiguration { try $0.execute("CREATE TABLE t (x)") }
    )
    #expect(!queue.isSuspended)
    queue.resume()
    // The interrupt of an idle connection does not reach the next access: here its first call
    // into SQLite compiles a statement (a read after a read runs no statement of the queue's).
    #expect(try queue.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } == 0)
    queue.suspend()
    queue.resume()
    #expect(try queue.read { db in try db.fetchValue(Int.self, "SELECT 41 + 1") } == 42)
    queue.suspend()
    queue.suspend()
    #expect(queue.isSuspended)
    #expect(throws: DatabaseAccessError.suspended(path: ":memory:")) {
      try queue.write { db in try db.execute("INSERT INTO t VALUES (1)") }
    }
    queue.resume()
    #expect(!queue.isSuspended)
    try queue.write { db in try db.execute("INSERT INTO t VALUES (1)") }
    #expect(try queue.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } == 1)
    // A suspended queue still closes; suspend() after close() does nothing.
    queue.suspend()
    queue.close()
    queue.suspend()
    queue.resume()
    #expect(throws: DatabaseAccessError.closed(path: ":memory:")) { try queue.read { _ in } }
  }

  @Test func suspendAndResumeFromManyThreadsWhileAccessesRun() throws {
    let fixture = try Self.fixture()
    let queue = fixture.queue
    // Each write commits or throws .suspended (rolled back): nothing else, and never both.
    let accesses = OnItsOwnThread {
      var (written, refused) = (0, 0)
      for n in 0..<200 {
        do {
          try queue.write { db in
            try db.execute("INSERT INTO big VALUES (?)", [n])
            try db.execute("UPDATE big SET x = x + 1 WHERE x = ?", [n])
          }
          written += 1
        } catch DatabaseAccessError.suspended {
          refused += 1
        }
        do {
          _ = try queue.read { db in try db.fetchValue(Int.self, "SELECT max(x) FROM big") }
        } catch DatabaseAccessError.suspended {}
        usleep(200)
      }
      return (written, refused)
    }
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      var n = thread
      while accesses.result(within: 0) == nil {
        if n.isMultiple(of: 2) { queue.suspend() } else { queue.resume() }
        _ = queue.isSuspended
        n += 1
        usleep(1000)
      }
    }
    let (written, refused) = try #require(accesses.result(within: 60)).get()
    #expect(written + refused == 200)
    queue.resume()
    try queue.write { db in try db.execute("INSERT INTO big VALUES (-1)") }
    #expect(try fixture.stored("SELECT count(*) FROM big") == [[.integer(Int64(written + 1))]])
    #expect(try Self.writeLockIsFree(fixture.url))
  }

  @Test func theErrorSaysWhatHappenedAndWhatToDo() {
    let error = DatabaseAccessError.suspended(path: "/data/app.sqlite3")
    #expect(error.message.contains("/data/app.sqlite3"))
    #expect(error.message.contains("is suspended"))
    #expect(error.message.contains("nothing was written"))
    #expect(error.message.contains("rolled back"))
    #expect(error.help.contains("resume()"))
    #expect(error.help.contains("try the access again"))
    #expect((error as any Error).localizedDescription == error.message)
  }
}

/// A closure run on a thread of its own; `result(within:)` waits for what it returned or
/// threw.
final class OnItsOwnThread<T: Sendable>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var outcome: Result<T, any Error>?

  init(_ body: @escaping @Sendable () throws -> T) {
    let thread = Thread { [self] in
      let outcome = Result { try body() }
      lock.withLock { self.outcome = outcome }
      done.signal()
    }
    thread.start()
  }

  /// What the closure returned or threw, or nil when it did not end within `seconds`.
  func result(within seconds: Double) -> Result<T, any Error>? {
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    done.signal()
    return lock.withLock { outcome }
  }
}
