import Foundation
import Strata

/// Writes from Swift values against the same rows through positional `execute` (issue 31):
/// 100,000 inserts of a five-property `Encodable` struct (`db.insert(person, into:)`) against
/// `db.execute("INSERT … VALUES (?, ?, ?, ?, ?)", [person.id, …])`, both in one `write` (so the
/// figure is the encoding's cost, not the disk's), then the same as `upsert` against a
/// hand-written `ON CONFLICT … DO UPDATE`. Same file settings (WAL, `synchronous = NORMAL`), a
/// fresh file per run, each side first in turn; the report is the median of each side and
/// their ratio. Goal: encoding costs at most 1.5× the positional path.
///
/// `STRATA_BENCH_ENCODE_ROWS` changes the number of rows, `STRATA_BENCH_ENCODE_RUNS` the number
/// of paired runs (5).
enum EncodeBenchmark {
  struct Person: Encodable {
    var id: Int64
    var name: String
    var age: Int?
    var email: String
    var joined: Date
  }

  static let insert = "INSERT INTO person (id, name, age, email, joined) VALUES (?, ?, ?, ?, ?)"
  static let upsert =
    insert
    + " ON CONFLICT (id) DO UPDATE SET name = excluded.name, age = excluded.age, "
    + "email = excluded.email, joined = excluded.joined"

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let count = environment["STRATA_BENCH_ENCODE_ROWS"].flatMap { Int($0) } ?? 100_000
    let runs = environment["STRATA_BENCH_ENCODE_RUNS"].flatMap { Int($0) } ?? 5
    let folder = try Bench.scratch("encode")
    defer { try? FileManager.default.removeItem(at: folder) }
    let start = Date(timeIntervalSince1970: 1_796_088_600)
    let people = (0..<count).map { index in
      Person(
        id: Int64(index),
        name: "Person \(index)",
        age: index % 7 == 0 ? nil : index % 90,
        email: "person\(index)@example.com",
        joined: start.addingTimeInterval(Double(index))
      )
    }
    print(
      "encode: \(count) rows of 5 columns in one write, median of \(runs) paired runs "
        + "(each side first in turn), WAL with synchronous = NORMAL"
    )
    var inserts: ([Double], [Double]) = ([], [])
    var upserts: ([Double], [Double]) = ([], [])
    for run in 0..<runs {
      let positional = try open(folder.appendingPathComponent("positional-\(run).sqlite3"))
      let encoded = try open(folder.appendingPathComponent("encoded-\(run).sqlite3"))
      let sides: [(DatabaseQueue, Bool)] =
        run.isMultiple(of: 2)
        ? [(positional, false), (encoded, true)] : [(encoded, true), (positional, false)]
      for (queue, encodes) in sides {
        let seconds = try time {
          try queue.write { db in
            for person in people {
              if encodes {
                try db.insert(person, into: "person")
              } else {
                try db.execute(
                  Self.insert,
                  [person.id, person.name, person.age, person.email, person.joined]
                )
              }
            }
          }
        }
        if encodes { inserts.1.append(seconds) } else { inserts.0.append(seconds) }
      }
      for (queue, encodes) in sides {
        let seconds = try time {
          try queue.write { db in
            for person in people {
              if encodes {
                try db.upsert(person, into: "person")
              } else {
                try db.execute(
                  Self.upsert,
                  [person.id, person.name, person.age, person.email, person.joined]
                )
              }
            }
          }
        }
        if encodes { upserts.1.append(seconds) } else { upserts.0.append(seconds) }
      }
      positional.close()
      encoded.close()
    }
    report("insert", "db.insert(person, into:)", inserts)
    report("upsert of existing rows", "db.upsert(person, into:)", upserts)
  }

  static func open(_ url: URL) throws -> DatabaseQueue {
    let connection = try Connection(path: url.path)
    try connection.execute(
      "PRAGMA journal_mode = WAL; CREATE TABLE person (id INTEGER PRIMARY KEY, "
        + "name TEXT NOT NULL, age INTEGER, email TEXT NOT NULL, joined TEXT NOT NULL)"
    )
    return try DatabaseQueue(
      url: url,
      configuration: ConnectionConfiguration { try $0.execute("PRAGMA synchronous = NORMAL") }
    )
  }

  static func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  static func report(_ what: String, _ label: String, _ sides: ([Double], [Double])) {
    let positional = QueueBenchmark.median(sides.0)
    let encoded = QueueBenchmark.median(sides.1)
    print(
      "  \(what): positional execute \(Bench.format(positional))   \(label) "
        + "\(Bench.format(encoded))   " + String(format: "ratio %.2fx", encoded / positional)
    )
  }
}
