import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Many tasks reading a `DatabasePool` while one writes: each read sees one moment.
@Suite struct DatabasePoolConcurrencyTests {
  typealias Fixture = DatabasePoolTests.Fixture

  @Test func readsInManyTasksSeeTwoTablesAlwaysEqualWhileOneTaskWrites() async throws {
    let fixture = try Fixture()
    let pool = try fixture.pool(readers: 4)
    let writes = 200
    let seen = try await withThrowingTaskGroup(of: [Int].self) { group in
      group.addTask {
        for _ in 0..<writes {
          try await pool.write { db in
            try db.execute("UPDATE a SET n = n + 1")
            try db.execute("UPDATE b SET n = n + 1")
          }
        }
        return []
      }
      for _ in 0..<8 {
        group.addTask {
          var values: [Int] = []
          for _ in 0..<100 {
            let (a, b) = try await pool.read { db in
              (
                try db.fetchValue(Int.self, "SELECT n FROM a") ?? -1,
                try db.fetchValue(Int.self, "SELECT n FROM b") ?? -2
              )
            }
            // Two statements, one moment: a write never shows halfway.
            #expect(a == b)
            values.append(a)
          }
          return values
        }
      }
      var all: [Int] = []
      for try await values in group {
        // Within one task, time never runs backwards.
        #expect(values == values.sorted())
        all += values
      }
      return all
    }
    #expect(seen.count == 800)
    #expect(seen.allSatisfy { (0...writes).contains($0) })
    #expect(try await pool.read { db in try db.fetchValue(Int.self, "SELECT n FROM b") } == writes)
    pool.close()
  }

  @Test func readsDuringALongWriteSeeTheOldSnapshotAndDoNotWaitForIt() throws {
    let fixture = try Fixture()
    let pool = try fixture.pool()
    let writing = DispatchSemaphore(value: 0)
    let finish = DispatchSemaphore(value: 0)
    let write = OnItsOwnThread {
      try pool.write { db in
        try db.execute("UPDATE a SET n = 1")
        try db.execute("UPDATE b SET n = 1")
        writing.signal()
        finish.wait()
      }
    }
    writing.wait()
    // The write holds its transaction open: reads still answer, with what was committed.
    let reads = (0..<4).map { _ in
      OnItsOwnThread {
        try pool.read { db in
          [
            try db.fetchValue(Int.self, "SELECT n FROM a") ?? -1,
            try db.fetchValue(Int.self, "SELECT n FROM b") ?? -1,
          ]
        }
      }
    }
    for read in reads {
      #expect(try #require(read.result(within: 10)).get() == [0, 0])
    }
    finish.signal()
    _ = try #require(write.result(within: 10)).get()
    #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT n FROM a") } == 1)
    pool.close()
  }

  @Test func readsRunAtTheSameTimeUpToTheMaximumAndTheNextWaitsForAReader() throws {
    let fixture = try Fixture()
    let pool = try fixture.pool(readers: 3)
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let counter = Counter()
    let reads = (0..<4).map { _ in
      OnItsOwnThread {
        try pool.read { db in
          counter.add(1)
          inside.signal()
          release.wait()
          counter.add(-1)
          return try db.fetchValue(Int.self, "SELECT n FROM a") ?? -1
        }
      }
    }
    // Three reads are inside their closures at once; the fourth waits for a reader.
    for _ in 0..<3 { inside.wait() }
    #expect(counter.value == 3)
    #expect(inside.wait(timeout: .now() + 0.2) == .timedOut)
    #expect(counter.maximum == 3)
    for _ in 0..<4 { release.signal() }
    for read in reads { #expect(try #require(read.result(within: 10)).get() == 0) }
    #expect(counter.maximum == 3)
    pool.close()
  }
}

/// A count shared between threads, with the highest it reached.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  private var highest = 0

  func add(_ delta: Int) {
    lock.withLock {
      count += delta
      highest = max(highest, count)
    }
  }

  var value: Int { lock.withLock { count } }
  var maximum: Int { lock.withLock { highest } }
}
