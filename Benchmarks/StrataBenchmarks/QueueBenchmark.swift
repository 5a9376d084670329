import Foundation
import Strata

/// `DatabaseQueue` against a raw `Connection` (issue 12): 100,000 single-row writes, each its
/// own transaction, then 100,000 single-row reads by key five ways (a `Row` from `fetchRows`
/// and from `fetchRow`, a `Decodable` struct and a `RowDecodable` one from `fetchOne`, one
/// value). Both sides use prepared statements kept for the whole run (the
/// queue's own cache; on the raw side, BEGIN, INSERT, COMMIT and each SELECT prepared once, bound
/// and read as an app would), the same file settings (WAL, `synchronous = NORMAL`), a fresh file
/// per run. Each pair is timed in turn with the other side first every other run; the report is
/// the median of each side over the runs and their ratio. Goal: the queue's overhead ≤ 10%.
///
/// `STRATA_BENCH_QUEUE_ROWS` changes the number of rows, `STRATA_BENCH_QUEUE_RUNS` the number
/// of paired runs (5).
enum QueueBenchmark {
  struct Person: Decodable {
    var name: String
    var age: Int
  }

  /// `Person` read by hand, as an app writes `init(row:)`.
  struct PersonRow: RowDecodable {
    var name: String
    var age: Int

    init(row: borrowing LiveRow) throws {
      name = try row.decode(column: "name")
      age = try row.decode(column: "age")
    }
  }

  static let insert = "INSERT INTO person (id, name, age) VALUES (?, ?, ?)"
  static let select = "SELECT name, age FROM person WHERE id = ?"
  static let selectAge = "SELECT age FROM person WHERE id = ?"

  /// One measured pair: what the raw side and the queue each took in every run.
  struct Pair {
    let what: String
    let label: String
    var raw: [Double] = []
    var queue: [Double] = []

    /// Times both sides, the raw one first when `rawFirst`.
    mutating func time(rawFirst: Bool, raw: () throws -> Void, queue: () throws -> Void) rethrows {
      if rawFirst {
        self.raw.append(try QueueBenchmark.time(raw))
        self.queue.append(try QueueBenchmark.time(queue))
      } else {
        self.queue.append(try QueueBenchmark.time(queue))
        self.raw.append(try QueueBenchmark.time(raw))
      }
    }
  }

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let count = environment["STRATA_BENCH_QUEUE_ROWS"].flatMap { Int($0) } ?? 100_000
    let runs = environment["STRATA_BENCH_QUEUE_RUNS"].flatMap { Int($0) } ?? 5
    let folder = try Bench.scratch("queue")
    defer { try? FileManager.default.removeItem(at: folder) }
    print(
      "queue: \(count) rows, median of \(runs) paired runs (each side first in turn), "
        + "WAL with synchronous = NORMAL"
    )
    var pairs = [
      Pair(what: "writes, one transaction each", label: "queue.write"),
      Pair(what: "reads by key, a Row", label: "queue.read fetchRows"),
      Pair(what: "reads by key, a Row", label: "queue.read fetchRow"),
      Pair(what: "reads by key, a Decodable struct", label: "queue.read fetchOne"),
      Pair(what: "reads by key, a RowDecodable struct", label: "queue.read fetchOne"),
      Pair(what: "reads by key, one value", label: "queue.read fetchValue"),
    ]
    // Each pair's raw side and queue side, in the order of `pairs`.
    let sides: [((Connection, Int) throws -> Void, (DatabaseQueue, Int) throws -> Void)] = [
      (rawWrites, queueWrites), (rawLookups, queueLookups), (rawLookups, rowLookups),
      (rawDecoded, decodedLookups), (rawDecoded, rowDecodedLookups), (rawValues, queueValues),
    ]
    for run in 0..<runs {
      let rawFile = try fresh(folder.appendingPathComponent("raw-\(run).sqlite3"))
      let queueFile = try fresh(folder.appendingPathComponent("queue-\(run).sqlite3"))
      let raw = try Connection(path: rawFile.path)
      try raw.execute("PRAGMA synchronous = NORMAL")
      let queue = try DatabaseQueue(
        url: queueFile,
        configuration: ConnectionConfiguration { try $0.execute("PRAGMA synchronous = NORMAL") }
      )
      // Each side goes first in turn: the one after meets the first one's writeback.
      for (index, (rawSide, queueSide)) in sides.enumerated() {
        try pairs[index].time(rawFirst: run.isMultiple(of: 2)) {
          try rawSide(raw, count)
        } queue: {
          try queueSide(queue, count)
        }
      }
    }
    for pair in pairs { report(pair) }
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

  static func rawDecoded(_ connection: Connection, _ count: Int) throws {
    let select = try connection.prepare(Self.select)
    var total = 0
    for id in 0..<count {
      try select.bind([.integer(Int64(id))])
      guard try select.step(), let name = select.string(at: 0) else {
        throw BenchError("no row \(id)")
      }
      let person = Person(name: name, age: Int(select.int64(at: 1)))
      select.reset()
      select.clearBindings()
      total += person.name.utf8.count + person.age
    }
    precondition(total > 0)
  }

  static func rawValues(_ connection: Connection, _ count: Int) throws {
    let select = try connection.prepare(Self.selectAge)
    var total = 0
    for id in 0..<count {
      try select.bind([.integer(Int64(id))])
      guard try select.step() else { throw BenchError("no row \(id)") }
      total += Int(select.int64(at: 0)) + 1
      select.reset()
      select.clearBindings()
    }
    precondition(total > 0)
  }

  static func queueValues(_ queue: DatabaseQueue, _ count: Int) throws {
    var total = 0
    for id in 0..<count {
      guard let age = try queue.read({ db in try db.fetchValue(Int.self, Self.selectAge, [id]) })
      else { throw BenchError("no row \(id)") }
      total += age + 1
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

  static func rowLookups(_ queue: DatabaseQueue, _ count: Int) throws {
    var total = 0
    for id in 0..<count {
      let row = try queue.read { db in try db.fetchRow(Self.select, [id]) }
      guard let row, let name: String = row["name"], let age: Int = row["age"] else {
        throw BenchError("no row \(id)")
      }
      total += name.utf8.count + age
    }
    precondition(total > 0)
  }

  static func rowDecodedLookups(_ queue: DatabaseQueue, _ count: Int) throws {
    var total = 0
    for id in 0..<count {
      guard
        let person = try queue.read({ db in try db.fetchOne(PersonRow.self, Self.select, [id]) })
      else { throw BenchError("no row \(id)") }
      total += person.name.utf8.count + person.age
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

  static func report(_ pair: Pair) {
    let raw = median(pair.raw)
    let queue = median(pair.queue)
    print(
      "  \(pair.what): raw Connection \(Bench.format(raw))   \(pair.label) \(Bench.format(queue))   "
        + String(format: "ratio %.2fx", queue / raw)
    )
  }
}
