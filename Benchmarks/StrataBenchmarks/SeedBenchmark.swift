import Foundation
import Strata

/// 1,000,000 `person_info` rows (id, name, age; one name in ten quoted with a comma, one in
/// ten with doubled quotes) into an empty table: the built `strata seed --mode append` process
/// against `sqlite3 db ".import --csv --skip 1 people.csv person_info"`, median of 3 runs each,
/// fresh database per run, then the same rows compared in both. Then peak memory (RSS, from
/// `/usr/bin/time -f %M`) of `strata seed` on a ~1 GB file of the same shape.
///
/// `STRATA_BENCH_SEED_ROWS` changes the row count; `STRATA_BENCH_SEED_LARGE_MB` the large
/// file's size (0 skips it).
enum SeedBenchmark {
  static let runs = 3

  /// The table of the sample project after migration 0005.
  static let schema = """
    CREATE TABLE person_info (
      id   INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      age  INTEGER CHECK (age IS NULL OR age >= 0)
    );
    """

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let rows = environment["STRATA_BENCH_SEED_ROWS"].flatMap { Int($0) } ?? 1_000_000
    let largeMB = environment["STRATA_BENCH_SEED_LARGE_MB"].flatMap { Int($0) } ?? 1024
    guard FileManager.default.isExecutableFile(atPath: Bench.strata) else {
      throw BenchError("no strata binary at \(Bench.strata); run 'swift build -c release' first")
    }
    let folder = try Bench.scratch("seed")
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = folder.appendingPathComponent("people.csv")
    let bytes = try writePeople(rows: rows, to: csv)
    print(
      "seed: \(rows) person_info rows (\(bytes / 1_000_000) MB CSV), median of \(runs) runs, "
        + "empty table in a fresh database each run"
    )

    let strata = try Bench.median(runs: runs) { run in
      let database = try freshDatabase("strata\(run).sqlite3", in: folder)
      return try Bench.run(
        Bench.strata,
        [
          "seed", "people.csv", "--table", "person_info", "--mode", "append", "--database",
          database, "--quiet",
        ],
        in: folder
      )
    }
    let sqlite = try Bench.median(runs: runs) { run in
      let database = try freshDatabase("sqlite\(run).sqlite3", in: folder)
      return try Bench.run(
        "/usr/bin/sqlite3",
        [database, ".import --csv --skip 1 people.csv person_info"],
        in: folder
      )
    }
    let strataRows = try summary(folder.appendingPathComponent("strata0.sqlite3"))
    let sqliteRows = try summary(folder.appendingPathComponent("sqlite0.sqlite3"))
    guard strataRows == sqliteRows, strataRows.count == rows else {
      throw BenchError("the two databases differ: strata \(strataRows), sqlite3 \(sqliteRows)")
    }
    print(
      "  strata seed --mode append   \(Bench.format(strata))"
        + "   sqlite3 .import --csv --skip 1   \(Bench.format(sqlite))"
        + String(format: "   ratio %.2fx", strata / sqlite)
        + String(format: "   (%.2f M rows/s)", Double(rows) / strata / 1e6)
    )
    print("  same rows stored: \(strataRows.count) rows, checksum of (id, name, age) equal")

    guard largeMB > 0 else { return }
    let large = folder.appendingPathComponent("large.csv")
    let largeRows = largeMB * 1_000_000 / 30
    let largeBytes = try writePeople(rows: largeRows, to: large)
    let database = try freshDatabase("large.sqlite3", in: folder)
    let (seconds, peakKiB) = try peakMemory(
      Bench.strata,
      [
        "seed", "large.csv", "--table", "person_info", "--mode", "append", "--database", database,
        "--quiet",
      ],
      in: folder
    )
    try? FileManager.default.removeItem(at: large)
    print(
      "  peak memory, strata seed of a \(largeBytes / 1_000_000) MB file (\(largeRows) rows): "
        + String(format: "%.1f MiB", Double(peakKiB) / 1024) + " RSS in \(Bench.format(seconds))"
    )
  }

  /// Writes the CSV in 1 MB pieces; returns its size.
  static func writePeople(rows: Int, to url: URL) throws -> Int {
    try writeRows(rows, header: "id,name,age\n", to: url) { index in
      let id = index + 1
      let age = id * 7 % 100
      switch id % 10 {
      case 3: return "\(id),\"Smith, John \(id)\",\(age)\n"
      case 7: return "\(id),\"Peter \"\"The Rock\"\" \(id)\",\(age)\n"
      default: return "\(id),Person \(id),\(age)\n"
      }
    }
  }

  /// Writes `header`, then `line(0)…line(rows - 1)`, in 1 MB pieces; returns the size.
  static func writeRows(
    _ rows: Int,
    header: String,
    to url: URL,
    line: (Int) -> String
  ) throws -> Int {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var chunk = header
    var total = 0
    for index in 0..<rows {
      chunk += line(index)
      if chunk.utf8.count >= 1 << 20 {
        total += chunk.utf8.count
        try handle.write(contentsOf: Data(chunk.utf8))
        chunk = ""
      }
    }
    total += chunk.utf8.count
    try handle.write(contentsOf: Data(chunk.utf8))
    return total
  }

  static func freshDatabase(
    _ name: String,
    in folder: URL,
    schema: String = schema
  ) throws
    -> String
  {
    let url = folder.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: url)
    try Connection(path: url.path).execute(schema)
    return name
  }

  struct Summary: Equatable, CustomStringConvertible {
    let count: Int64
    let digest: String
    var description: String { "\(count) rows, \(digest.prefix(12))" }
  }

  /// Row count and a digest of every row, in id order.
  static func summary(_ url: URL) throws -> Summary {
    let connection = try Connection(path: url.path, mode: .readOnly)
    let statement = try connection.prepare(
      "SELECT id, name, age, typeof(age) FROM person_info ORDER BY id"
    )
    var hasher = SHA256()
    var count: Int64 = 0
    while try statement.step() {
      count += 1
      let row =
        "\(statement.int64(at: 0))\u{1F}\(statement.string(at: 1) ?? "")"
        + "\u{1F}\(statement.int64(at: 2))\u{1F}\(statement.string(at: 3) ?? "")\n"
      hasher.update(Array(row.utf8))
    }
    return Summary(count: count, digest: hasher.finalizeHex())
  }

  /// Wall time and peak RSS (KiB) of a run, measured by `/usr/bin/time -f %M`.
  static func peakMemory(
    _ executable: String,
    _ arguments: [String],
    in directory: URL
  ) throws -> (Double, Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%M"] + [executable] + arguments
    process.currentDirectoryURL = directory
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard process.terminationStatus == 0,
      let kib = message.split(separator: "\n").last.flatMap({ Int($0) })
    else {
      throw BenchError("\(executable) failed under /usr/bin/time: \(message)")
    }
    return (seconds, kib)
  }
}
