import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Live queries as an app uses them: concurrent writers, a slow consumer, cancellation, a
/// query that fails, the callback form.
@Suite struct LiveQueryTests {
  struct Student: Decodable, Equatable, Sendable {
    let stuID: String
    let stuName: String
  }

  /// Waits (up to ten seconds) until `condition` holds.
  static func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }

  @Test func theFirstValueIsTheCurrentOneThenEachCommitYieldsTheFreshOne() async throws {
    let fixture = try AccessFixture()
    try await fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 20)")
    }
    var students = fixture.queue.observe { db in
      try db.fetchAll(Student.self, "SELECT stuID, stuName FROM student WHERE age > ?", [18])
    }.makeAsyncIterator()
    #expect(try await students.next() == [Student(stuID: "S1", stuName: "Ann")])
    try await fixture.queue.write { db in
      try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 30)")
    }
    #expect(try await students.next()?.map(\.stuName) == ["Ann", "Bob"])
  }

  @Test func concurrentWritersEndOnTheFinalStateAndNeverShowARolledBackRow() async throws {
    let fixture = try AccessFixture()
    let queue = fixture.queue
    let (writers, each) = (8, 25)
    struct Refused: Error {}
    let observer = Task {
      var seen: [[Student]] = []
      let values = queue.observe { db in
        try db.fetchAll(Student.self, "SELECT stuID, stuName FROM student ORDER BY stuID")
      }
      for try await students in values {
        seen.append(students)
        if students.count == writers * each { break }
      }
      return seen
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          for n in 0..<each {
            try await queue.write { db in
              try db.execute("INSERT INTO student VALUES (?, 'ok', 1)", ["\(writer)-\(n)"])
            }
            // Every other write of a row marked 'undone' rolls back.
            try? await queue.write { db in
              try db.execute("INSERT INTO student VALUES (?, 'undone', 1)", ["x\(writer)-\(n)"])
              throw Refused()
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let seen = try await observer.value
    let final = try await queue.read { db in
      try db.fetchAll(Student.self, "SELECT stuID, stuName FROM student ORDER BY stuID")
    }
    #expect(seen.last == final)
    #expect(final.count == writers * each)
    #expect(!seen.joined().contains { $0.stuName == "undone" })
    // Each value is a state some commit left: the counts never go down.
    #expect(seen.map(\.count) == seen.map(\.count).sorted())
    #expect(await Self.eventually { queue.observers.count == 0 })
  }

  @Test func aSlowConsumerGetsTheLatestValueNotOnePerCommit() async throws {
    let fixture = try AccessFixture()
    let queue = fixture.queue
    let commits = 100
    var values = queue.observe { db in
      try db.fetchValue(Int.self, "SELECT count(*) FROM student") ?? -1
    }.makeAsyncIterator()
    #expect(try await values.next() == 0)
    let writer = Task {
      for n in 0..<commits {
        try await queue.write { db in
          try db.execute("INSERT INTO student VALUES (?, 'x', 1)", ["S\(n)"])
        }
      }
    }
    var yields: [Int] = []
    while yields.last != commits {
      guard let count = try await values.next() else { break }
      yields.append(count)
      try await Task.sleep(for: .milliseconds(20))  // a slow consumer
    }
    try await writer.value
    #expect(yields.last == commits)
    #expect(yields.count < commits, "\(yields.count) values for \(commits) commits")
    #expect(yields == yields.sorted())
  }

  @Test func cancellingTheTaskEndsTheSequenceAndFreesTheRegistration() async throws {
    weak var weakQueue: DatabaseQueue?
    let dir = try TemporaryDirectory()
    let url = dir.path("app.sqlite3")
    try Connection(path: url.path).execute("CREATE TABLE t (x)")
    do {
      let queue = try DatabaseQueue(url: url)
      weakQueue = queue
      let started = AsyncStream<Void>.makeStream()
      let consumer = Task {
        var count = 0
        for try await _ in queue.observe({ db in try db.fetchRows("SELECT x FROM t") }) {
          count += 1
          started.continuation.yield()
        }
        return count
      }
      for await _ in started.stream { break }
      #expect(queue.observers.count == 1)
      consumer.cancel()
      #expect(try await consumer.value == 1)
      #expect(await Self.eventually { queue.observers.count == 0 })
      // Commits after it wake nothing.
      try await queue.write { db in try db.execute("INSERT INTO t VALUES (1)") }
      #expect(queue.observers.wakeCount == 0)
    }
    // Nothing of the live query keeps the queue alive.
    #expect(await Self.eventually { weakQueue == nil })
  }

  @Test func aSequenceReleasedWithoutIterationNeverRegisters() async throws {
    let fixture = try AccessFixture()
    var values: AsyncThrowingStream<Int, any Error>? = fixture.queue.observe { _ in 1 }
    #expect(values != nil)
    values = nil
    #expect(fixture.queue.observers.count == 0)
    // Breaking out of the loop releases it too.
    for try await _ in fixture.queue.observe({ db in try db.fetchRows("SELECT * FROM student") }) {
      #expect(fixture.queue.observers.count == 1)
      break
    }
    #expect(await Self.eventually { fixture.queue.observers.count == 0 })
  }

  @Test func aQueryThatFailsThrowsItsErrorAndEnds() async throws {
    let fixture = try AccessFixture()
    var bad = fixture.queue.observe { db in try db.fetchRows("SELECT nope FROM student") }
      .makeAsyncIterator()
    let error = await #expect(throws: SQLiteError.self) { try await bad.next() }
    #expect(error?.message == "no such column: nope")
    #expect(error?.sql == "SELECT nope FROM student")
    #expect(try await bad.next() == nil)

    // A table a migration drops later.
    var rows = fixture.queue.observe { db in
      try db.fetchValue(Int.self, "SELECT count(*) FROM item") ?? 0
    }.makeAsyncIterator()
    #expect(try await rows.next() == 0)
    try await fixture.queue.write { db in try db.execute("DROP TABLE item") }
    let dropped = await #expect(throws: SQLiteError.self) { try await rows.next() }
    #expect(dropped?.message == "no such table: item")
    #expect(try await rows.next() == nil)
    #expect(fixture.queue.observers.count == 0)
    // The database is as the migration left it.
    #expect(try fixture.stored("SELECT count(*) FROM sqlite_master WHERE name = 'item'") == [[0]])
  }

  /// What the callback form's closures received.
  final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    private var errors: [String] = []
    func value(_ value: Int) { lock.withLock { values.append(value) } }
    func error(_ error: any Error) { lock.withLock { errors.append("\(error)") } }
    var all: ([Int], [String]) { lock.withLock { (values, errors) } }
  }

  @Test func theCallbackFormSeesChangesAndErrorsUntilCancelled() async throws {
    let fixture = try AccessFixture()
    let queue = fixture.queue
    let received = Received()
    let observation = queue.observe(
      { db in try db.fetchValue(Int.self, "SELECT count(*) FROM student") ?? 0 },
      onError: received.error,
      onChange: received.value
    )
    #expect(await Self.eventually { received.all.0 == [0] })
    try await queue.write { db in try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)") }
    #expect(await Self.eventually { received.all.0.last == 1 })
    observation.cancel()
    #expect(await Self.eventually { queue.observers.count == 0 })
    try await queue.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 1)") }
    #expect(received.all.0.last == 1)

    // Released: cancelled too. An error reaches onError.
    let failing = Received()
    var dropped: DatabaseObservation? = queue.observe(
      { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") ?? 0 },
      onError: failing.error,
      onChange: failing.value
    )
    #expect(await Self.eventually { failing.all.0 == [0] })
    try await queue.write { db in try db.execute("DROP TABLE item") }
    #expect(await Self.eventually { failing.all.1.count == 1 })
    #expect(failing.all.1.first?.contains("no such table: item") == true)
    #expect(dropped != nil)
    dropped = nil
    #expect(await Self.eventually { queue.observers.count == 0 })
  }

  @Test func closingTheQueueEndsTheSequence() async throws {
    let fixture = try AccessFixture()
    var values = fixture.queue.observe { db in try db.fetchRows("SELECT * FROM student") }
      .makeAsyncIterator()
    _ = try await values.next()
    fixture.queue.close()
    #expect(try await values.next() == nil)
    #expect(fixture.queue.observers.count == 0)
    // A live query of a closed queue fails as a read does.
    var closed = fixture.queue.observe { _ in 1 }.makeAsyncIterator()
    await #expect(throws: DatabaseAccessError.closed(path: fixture.url.path)) {
      try await closed.next()
    }
  }

  @Test func aLiveQueryWaitsOutASuspension() async throws {
    let fixture = try AccessFixture()
    let queue = fixture.queue
    var values = queue.observe { db in
      try db.fetchValue(Int.self, "SELECT count(*) FROM student") ?? 0
    }.makeAsyncIterator()
    #expect(try await values.next() == 0)
    try await queue.write { db in try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)") }
    queue.suspend()
    let resumer = Task {
      try await Task.sleep(for: .milliseconds(200))
      queue.resume()
    }
    #expect(try await values.next() == 1)
    try await resumer.value
    #expect(!queue.isSuspended)
  }
}
