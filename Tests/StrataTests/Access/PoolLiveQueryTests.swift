import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Live queries on a pool, and through `any DatabaseWriter`: the pool's commits wake them,
/// a rolled-back write does not, and cancelling frees the registration.
@Suite struct PoolLiveQueryTests {
  @Test func aPoolsCommitsWakeItsLiveQueryAndARollbackDoesNot() async throws {
    let fixture = try DatabasePoolTests.Fixture()
    let pool = try fixture.pool()
    defer { pool.close() }
    var names = pool.observe { db in
      try db.fetchAll(LiveQueryTests.Student.self, "SELECT stuID, stuName FROM student")
        .map(\.stuName)
    }.makeAsyncIterator()
    #expect(try await names.next() == [])
    struct Refused: Error {}
    await #expect(throws: Refused.self) {
      try await pool.write { db in
        try db.execute("INSERT INTO student VALUES ('S9', 'Zed', 40)")
        throw Refused()
      }
    }
    try await pool.write { db in try db.execute("UPDATE a SET n = 1") }
    try await pool.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    // The rolled-back Zed and the write to another table woke nothing: the next value is Ann's.
    #expect(try await names.next() == ["Ann"])
  }

  @Test func anyDatabaseWriterObservesTheSameWayOnAQueueAndAPool() async throws {
    let fixture = try DatabasePoolTests.Fixture()
    let pool = try fixture.pool()
    defer { pool.close() }
    let queue = try DatabaseQueue.inMemory()
    try await queue.write { db in try db.execute("CREATE TABLE a (n INTEGER NOT NULL)") }
    try await queue.write { db in try db.execute("INSERT INTO a VALUES (0)") }
    for writer in [pool, queue] as [any DatabaseWriter] {
      var sums = writer.observe { db in
        try db.fetchValue(Int.self, "SELECT sum(n) FROM a") ?? -1
      }.makeAsyncIterator()
      #expect(try await sums.next() == 0)
      try await writer.write { db in try db.execute("INSERT INTO a VALUES (5)") }
      #expect(try await sums.next() == 5)
    }
  }

  @Test func theCallbackFormOnAPoolStopsWhenCancelled() async throws {
    let fixture = try DatabasePoolTests.Fixture()
    let pool = try fixture.pool()
    defer { pool.close() }
    let received = LiveQueryTests.Received()
    let observation = pool.observe(
      { db in try db.fetchValue(Int.self, "SELECT n FROM a") ?? -1 },
      onError: received.error,
      onChange: received.value
    )
    #expect(await LiveQueryTests.eventually { received.all.0 == [0] })
    try await pool.write { db in try db.execute("UPDATE a SET n = 7") }
    #expect(await LiveQueryTests.eventually { received.all.0 == [0, 7] })
    observation.cancel()
    #expect(await LiveQueryTests.eventually { pool.writer.observers.count == 0 })
    try await pool.write { db in try db.execute("UPDATE a SET n = 8") }
    try await Task.sleep(for: .milliseconds(100))
    #expect(received.all.0 == [0, 7])
  }
}
