import Foundation
import Strata

/// `sync` seeding of a new version of a 100,000-row file in which 1% of the rows changed, on a
/// database seeded (in sync mode) from the previous version: the built
/// `strata seed --mode sync` process, median of 5 runs (a fresh copy of the seeded database
/// each run), beside `sqlite3 db ".import --csv --skip 1"` of the same file into an empty
/// table in the same run. Then the rows are checked: every changed age is in the database.
///
/// `STRATA_BENCH_SYNC_ROWS` changes the row count.
enum SeedSyncBenchmark {
  static let runs = 5

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let rows = environment["STRATA_BENCH_SYNC_ROWS"].flatMap { Int($0) } ?? 100_000
    guard FileManager.default.isExecutableFile(atPath: Bench.strata) else {
      throw BenchError("no strata binary at \(Bench.strata); run 'swift build -c release' first")
    }
    let folder = try Bench.scratch("seed-sync")
    defer { try? FileManager.default.removeItem(at: folder) }
    // The same file name in both versions: the ledger knows a file by its name.
    for version in ["v1", "v2"] {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(version),
        withIntermediateDirectories: true
      )
    }
    let bytes = try write(rows: rows, changed: false, to: "v1/person_info.csv", in: folder)
    _ = try write(rows: rows, changed: true, to: "v2/person_info.csv", in: folder)
    let seeded = try SeedBenchmark.freshDatabase("seeded.sqlite3", in: folder)
    try Bench.run(
      Bench.strata,
      ["seed", "v1/person_info.csv", "--mode", "sync", "--database", seeded, "--quiet"],
      in: folder
    )
    let ledgerBytes = try ledgerSize(folder.appendingPathComponent(seeded))
    print(
      "seed-sync: \(rows) person_info rows (\(bytes / 1_000_000) MB CSV), \(rows / 100) changed, "
        + "median of \(runs) runs, on a copy of the database seeded from the previous version"
    )
    let strata = try Bench.median(runs: runs) { run in
      let copy = "sync\(run).sqlite3"
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(copy))
      try FileManager.default.copyItem(
        at: folder.appendingPathComponent(seeded),
        to: folder.appendingPathComponent(copy)
      )
      return try Bench.run(
        Bench.strata,
        ["seed", "v2/person_info.csv", "--mode", "sync", "--database", copy, "--quiet"],
        in: folder
      )
    }
    let sqlite = try Bench.median(runs: runs) { run in
      let database = try SeedBenchmark.freshDatabase("sqlite\(run).sqlite3", in: folder)
      return try Bench.run(
        "/usr/bin/sqlite3",
        [database, ".import --csv --skip 1 v2/person_info.csv person_info"],
        in: folder
      )
    }
    let synced = try SeedBenchmark.summary(folder.appendingPathComponent("sync0.sqlite3"))
    let imported = try SeedBenchmark.summary(folder.appendingPathComponent("sqlite0.sqlite3"))
    guard synced == imported else {
      throw BenchError("the two databases differ: sync \(synced), sqlite3 \(imported)")
    }
    print(
      "  strata seed --mode sync (1% changed)   \(Bench.format(strata))"
        + "   sqlite3 .import of the same file into an empty table   \(Bench.format(sqlite))"
        + String(format: "   ratio %.2fx", strata / sqlite)
    )
    print(
      "  same rows stored: \(synced.count) rows, checksum of (id, name, age) equal; "
        + "row ledger \(ledgerBytes / 1024) KiB (strata_seed_rows)"
    )
  }

  /// The sample's rows; in the changed version every hundredth row has another age.
  static func write(rows: Int, changed: Bool, to name: String, in folder: URL) throws -> Int {
    try SeedBenchmark.writeRows(
      rows,
      header: "id,name,age\n",
      to: folder.appendingPathComponent(name)
    ) { index in
      let id = index + 1
      let age = (id * 7 % 100) + (changed && id % 100 == 0 ? 1 : 0)
      return "\(id),Person \(id),\(age)\n"
    }
  }

  /// The bytes of the row ledger, from `dbstat` when the library has it (0 otherwise).
  static func ledgerSize(_ url: URL) throws -> Int {
    let connection = try Connection(path: url.path, mode: .readOnly)
    let size = try? connection.scalar(
      "SELECT sum(pgsize) FROM dbstat WHERE name = 'strata_seed_rows'"
    )
    return Int(size?.integerValue ?? 0)
  }
}
