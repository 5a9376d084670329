import Foundation
import Strata

/// `DatabaseQueue` against a raw `Connection` (issue 12): 100,000 single-row writes, each its
/// own transaction, then 100,000 single-row reads by key. Both sides use prepared statements
/// kept for the whole run (the queue's own cache; on the raw side, BEGIN, INSERT, COMMIT and
/// SELECT prepared once), the same file settings (WAL, `synchronous = NORMAL`), a fresh file
/// per run; median of 3 paired runs. Goal: the queue's overhead ≤ 10%.
///
/// `STRATA_BENCH_QUEUE_ROWS` changes the number of rows.
enum QueueBenchmark {
  struct Person: Decodable {
    var name: String
    var age: Int
  }

  static let insert = "INSERT INTO person (id, name, age) VALUES (?, ?, ?)"
  static let select = "SELECT name, age FROM person WHERE id = ?"

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let count = environment["STRATA_BENCH_QUEUE_ROWS"].flatMap { Int($0) } ?? 100_000
    let folder = try Bench.scratch("queue")
    defer { try? FileManager.default.removeItem(at: folder) }
    print(
      "queue: \(count) rows, median of 3 paired runs (each side first in turn), WAL with synchronous = NORMAL"
    )
    var rawReads: [Double] = []
    var queueReads: [Double] = []
    var decodedReads: [Double] = []
    let (rawWrite, queueWrite) = try Bench.pairedMedians(runs: 3) { run in
      let rawFile = try fresh(folder.appendingPathComponent("raw-\(run).sqlite3"))
      let queueFile = try fresh(folder.appendingPathComponent("queue-\(run).sqlite3"))
      let raw = try Connection(path: rawFile.path)
      try raw.execute("PRAGMA synchronous = NORMAL")
      let queue = try DatabaseQueue(
        url: queueFile,
        configuration: ConnectionConfiguration { try $0.execute("PRAGMA synchronous = NORMAL") }
      )
      // Each side goes first in turn: the one after meets the first one's writeback.
      var rawWrite = 0.0
      var queueWrite = 0.0
      if run.isMultiple(of: 2) {
        rawWrite = try time { try rawWrites(raw, count) }
        queueWrite = try time { try queueWrites(queue, count) }
        rawReads.append(try time { try rawLookups(raw, count) })
        queueReads.append(try time { try queueLookups(queue, count) })
      } else {
        queueWrite = try time { try queueWrites(queue, count) }
        rawWrite = try time { try rawWrites(raw, count) }
        queueReads.append(try time { try queueLookups(queue, count) })
        rawReads.append(try time { try rawLookups(raw, count) })
      }
      decodedReads.append(try time { try decodedLookups(queue, count) })
      return (rawWrite, queueWrite)
    }
    report("writes, one transaction each", raw: rawWrite, queue: queueWrite, label: "queue.write")
    let rawRead = median(rawReads)
    report("reads by key", raw: rawRead, queue: median(queueReads), label: "queue.read rows")
    report("reads by key", raw: rawRead, queue: median(decodedReads), label: "queue.read fetchOne")
  }

  static func fresh(_ url: URL) throws -> URL {
    let connection = try Connection(path: url.path)
    try connection.execute(
      "PRAGMA journal_mode = WAL; "
        + "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER)"
    )
    return url
  }

  static func rawWrites(_ connection: Connection, _ count: Int) throws {
    let begin = try connection.prepare("BEGIN IMMEDIATE")
    let commit = try connection.prepare("COMMIT")
    let insert = try connection.prepare(Self.insert)
    for id in 0..<count {
      try begin.step()
      begin.reset()
      try insert.bind([.integer(Int64(id)), .text("Person \(id)"), .integer(Int64(id % 100))])
      try insert.step()
      insert.reset()
      insert.clearBindings()
      try commit.step()
      commit.reset()
    }
  }

  static func queueWrites(_ queue: DatabaseQueue, _ count: Int) throws {
    for id in 0..<count {
      try queue.write { db in try db.execute(Self.insert, [id, "Person \(id)", id % 100]) }
    }
  }

  static func rawLookups(_ connection: Connection, _ count: Int) throws {
    let select = try connection.prepare(Self.select)
    var total = 0
    for id in 0..<count {
      try select.bind([.integer(Int64(id))])
      guard try select.step(), let name = select.string(at: 0) else {
        throw BenchError("no row \(id)")
      }
      total += name.utf8.count + Int(select.int64(at: 1))
      select.reset()
      select.clearBindings()
    }
    precondition(total > 0)
  }

  static func queueLookups(_ queue: DatabaseQueue, _ count: Int) throws {
    var total = 0
    for id in 0..<count {
      let row = try queue.read { db in try db.fetchRows(Self.select, [id]).first }
      guard let row, let name: String = row["name"], let age: Int = row["age"] else {
        throw BenchError("no row \(id)")
      }
      total += name.utf8.count + age
    }
    precondition(total > 0)
  }

  static func decodedLookups(_ queue: DatabaseQueue, _ count: Int) throws {
    var total = 0
    for id in 0..<count {
      guard let person = try queue.read({ db in try db.fetchOne(Person.self, Self.select, [id]) })
      else { throw BenchError("no row \(id)") }
      total += person.name.utf8.count + person.age
    }
    precondition(total > 0)
  }

  static func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

  static func report(_ what: String, raw: Double, queue: Double, label: String) {
    print(
      "  \(what): raw Connection \(Bench.format(raw))   \(label) \(Bench.format(queue))   "
        + String(format: "ratio %.2fx", queue / raw)
    )
  }
}
