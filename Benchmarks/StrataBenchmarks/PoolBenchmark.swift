import Foundation
import Strata

/// `DatabasePool` against `DatabaseQueue` (issue 31, item 4), on the same file settings (WAL,
/// `synchronous = NORMAL`) and a table of 10,000 rows:
///
/// - reads: 4 threads (then 4 tasks, through the `async` forms) each run a number of reads of
///   100 consecutive rows decoded into a `Decodable` struct; the queue runs them one at a time,
///   the pool on 4 readers at once. Reported in reads per second. Goal: the pool ≥ 1.6×.
/// - writes: single-row writes, each its own transaction, from one thread. Goal: the pool's
///   time ≤ 1.05× the queue's (its writes are its queue's, behind one check).
///
/// Each side goes first in turn; the report is the median of each side over the runs.
/// `STRATA_BENCH_POOL_READS` changes the reads per thread (2,000), `STRATA_BENCH_POOL_WRITES`
/// the writes (20,000), `STRATA_BENCH_POOL_RUNS` the runs (5), `STRATA_BENCH_POOL_READERS`
/// the reader threads and the pool's readers (4).
enum PoolBenchmark {
  struct Person: Decodable {
    var id: Int
    var name: String
    var email: String
    var age: Int
  }

  static let rows = 10_000
  /// Reader threads (and the pool's readers): `STRATA_BENCH_POOL_READERS`, 4 by default.
  static let readers =
    ProcessInfo.processInfo.environment["STRATA_BENCH_POOL_READERS"].flatMap { Int($0) } ?? 4
  static let select = "SELECT id, name, email, age FROM person WHERE id BETWEEN ? AND ?"

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let reads = environment["STRATA_BENCH_POOL_READS"].flatMap { Int($0) } ?? 2_000
    let writes = environment["STRATA_BENCH_POOL_WRITES"].flatMap { Int($0) } ?? 20_000
    let runs = environment["STRATA_BENCH_POOL_RUNS"].flatMap { Int($0) } ?? 5
    let folder = try Bench.scratch("pool")
    defer { try? FileManager.default.removeItem(at: folder) }
    print(
      "pool: \(readers) readers × \(reads) reads of 100 rows into a struct, \(writes) writes; "
        + "median of \(runs) runs (each side first in turn), "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores, WAL with synchronous = NORMAL"
    )
    var times: [String: [Double]] = [:]
    for run in 0..<runs {
      let queueFile = try fresh(folder.appendingPathComponent("queue-\(run).sqlite3"))
      let poolFile = try fresh(folder.appendingPathComponent("pool-\(run).sqlite3"))
      let normal = ConnectionConfiguration { try $0.execute("PRAGMA synchronous = NORMAL") }
      let queue = try DatabaseQueue(url: queueFile, configuration: normal)
      let pool = try DatabasePool(
        url: poolFile,
        configuration: normal,
        maximumReaderCount: readers
      )
      let sides: [(String, any DatabaseWriter)] =
        run.isMultiple(of: 2)
        ? [("queue", queue), ("pool", pool)] : [("pool", pool), ("queue", queue)]
      for (name, handle) in sides {
        times["\(name) threads", default: []].append(try time { try threadReads(handle, reads) })
      }
      times["raw threads", default: []].append(try time { try rawReads(poolFile, reads) })
      for (name, handle) in sides {
        times["\(name) tasks", default: []].append(try time { try taskReads(handle, reads) })
      }
      for (name, handle) in sides {
        times["\(name) writes", default: []].append(try time { try serialWrites(handle, writes) })
      }
      queue.close()
      pool.close()
    }
    let total = Double(readers * reads)
    print(
      "  raw Connections, one per thread: \(Int(total / median(times["raw threads"] ?? []))) reads/s"
    )
    for what in ["threads", "tasks"] {
      let queue = median(times["queue \(what)"] ?? [])
      let pool = median(times["pool \(what)"] ?? [])
      print(
        "  reads from \(readers) \(what): queue \(Int(total / queue)) reads/s   "
          + "pool \(Int(total / pool)) reads/s   "
          + String(format: "pool/queue %.2fx", queue / pool)
      )
    }
    let queue = median(times["queue writes"] ?? [])
    let pool = median(times["pool writes"] ?? [])
    print(
      "  writes, one transaction each: queue \(Bench.format(queue))   pool \(Bench.format(pool))   "
        + String(format: "pool/queue %.2fx", pool / queue)
    )
  }

  static func fresh(_ url: URL) throws -> URL {
    let connection = try Connection(path: url.path)
    try connection.execute(
      """
      PRAGMA journal_mode = WAL;
      CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL,
        age INTEGER NOT NULL);
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows))
      INSERT INTO person SELECT x, 'Person ' || x, 'person' || x || '@example.com', x % 90
      FROM n;
      """
    )
    return url
  }

  /// One read: 100 consecutive rows from `start`, decoded.
  static func read(_ db: Database, _ start: Int) throws -> Int {
    let people = try db.fetchAll(Person.self, select, [start, start + 99])
    guard people.count == 100 else { throw BenchError("\(people.count) rows from \(start)") }
    return people.reduce(0) { $0 + $1.age + $1.name.utf8.count }
  }

  /// `readers` threads, each running `count` reads through `handle`.
  static func threadReads(_ handle: any DatabaseWriter, _ count: Int) throws {
    let group = DispatchGroup()
    let failure = Failure()
    for reader in 0..<readers {
      group.enter()
      Thread {
        defer { group.leave() }
        do {
          for index in 0..<count {
            let start = (reader * 997 + index * 101) % (rows - 100) + 1
            _ = try handle.read { db in try read(db, start) }
          }
        } catch {
          failure.record(error)
        }
      }.start()
    }
    group.wait()
    try failure.check()
  }

  /// `readers` threads, each with a `Connection` of its own, reading the rows by hand.
  static func rawReads(_ url: URL, _ count: Int) throws {
    let group = DispatchGroup()
    let failure = Failure()
    for reader in 0..<readers {
      group.enter()
      Thread {
        defer { group.leave() }
        do {
          let connection = try Connection(path: url.path, mode: .readOnly)
          let statement = try connection.prepare(select)
          for index in 0..<count {
            let start = (reader * 997 + index * 101) % (rows - 100) + 1
            try statement.bind([.integer(Int64(start)), .integer(Int64(start + 99))])
            var people: [Person] = []
            while try statement.step() {
              people.append(
                Person(
                  id: Int(statement.int64(at: 0)),
                  name: statement.string(at: 1) ?? "",
                  email: statement.string(at: 2) ?? "",
                  age: Int(statement.int64(at: 3))
                )
              )
            }
            statement.reset()
            guard people.count == 100 else { throw BenchError("\(people.count) rows") }
          }
        } catch {
          failure.record(error)
        }
      }.start()
    }
    group.wait()
    try failure.check()
  }

  /// `readers` tasks, each running `count` reads through `handle`'s `async` form.
  static func taskReads(_ handle: any DatabaseWriter, _ count: Int) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Failure()
    Task.detached {
      do {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for reader in 0..<readers {
            group.addTask {
              for index in 0..<count {
                let start = (reader * 997 + index * 101) % (rows - 100) + 1
                _ = try await handle.read { db in try read(db, start) }
              }
            }
          }
          try await group.waitForAll()
        }
      } catch {
        failure.record(error)
      }
      done.signal()
    }
    done.wait()
    try failure.check()
  }

  static func serialWrites(_ handle: any DatabaseWriter, _ count: Int) throws {
    for id in 0..<count {
      try handle.write { db in
        try db.execute(
          "INSERT INTO person VALUES (?, ?, ?, ?)",
          [rows + 1 + id, "New \(id)", "new\(id)@example.com", id % 90]
        )
      }
    }
    try handle.write { db in try db.execute("DELETE FROM person WHERE id > ?", [rows]) }
  }

  static func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  static func median(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.sorted()[values.count / 2]
  }

  /// The first error of several threads.
  final class Failure: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?

    func record(_ error: any Error) { lock.withLock { self.error = self.error ?? error } }

    func check() throws { if let error = lock.withLock({ error }) { throw error } }
  }
}
