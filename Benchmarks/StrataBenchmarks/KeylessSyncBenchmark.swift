import Foundation
import Strata

/// `sync` of a table without a key (the FMDB article's `person_info(name, age)`), 100,000
/// rows, by the built `strata seed --mode sync` process, median of 5 runs, each on a fresh
/// copy of the database seeded from the first version:
///
/// - the first load into an empty table (plain inserts, rowids recorded);
/// - the same file again (skipped by its checksum: what a launch does when nothing changed);
/// - a version with one line added (the file must be read, staged and compared);
/// - a version with 1% of the lines changed (1,000 rows deleted, 1,000 inserted).
///
/// Beside them, `sqlite3 .import` of the file into an empty table. `STRATA_BENCH_SYNC_ROWS`
/// changes the row count.
enum KeylessSyncBenchmark {
  static let runs = 5
  static let schema = "CREATE TABLE person_info (name TEXT NOT NULL, age INTEGER);"

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let rows = environment["STRATA_BENCH_SYNC_ROWS"].flatMap { Int($0) } ?? 100_000
    guard FileManager.default.isExecutableFile(atPath: Bench.strata) else {
      throw BenchError("no strata binary at \(Bench.strata); run 'swift build -c release' first")
    }
    let folder = try Bench.scratch("keyless-sync")
    defer { try? FileManager.default.removeItem(at: folder) }
    // The same file name in every version: the ledger knows a file by its name.
    let versions: [(String, (Int) -> String?)] = [
      ("v1", { "Person \($0),\($0 * 7 % 100)\n" }),
      ("added", { "Person \($0),\($0 * 7 % 100)\n" }),
      ("changed", { "Person \($0),\($0 * 7 % 100 + ($0 % 100 == 0 ? 1 : 0))\n" }),
    ]
    var bytes = 0
    for (name, line) in versions {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(name),
        withIntermediateDirectories: true
      )
      bytes = try SeedBenchmark.writeRows(
        rows + (name == "added" ? 1 : 0),
        header: "name,age\n",
        to: folder.appendingPathComponent("\(name)/person_info.csv")
      ) { index in line(index + 1) ?? "" }
    }
    let seeded = try SeedBenchmark.freshDatabase("seeded.sqlite3", in: folder, schema: schema)
    func seed(_ version: String, _ database: String) throws -> Double {
      try Bench.run(
        Bench.strata,
        [
          "seed", "\(version)/person_info.csv", "--mode", "sync", "--database", database, "--quiet",
        ],
        in: folder
      )
    }
    _ = try seed("v1", seeded)
    print(
      "seed-sync-keyless: \(rows) person_info(name, age) rows (\(bytes / 1_000_000) MB CSV), "
        + "no key, median of \(runs) runs"
    )
    let first = try Bench.median(runs: runs) { run in
      try seed("v1", SeedBenchmark.freshDatabase("first\(run).sqlite3", in: folder, schema: schema))
    }
    func onACopy(_ version: String) throws -> Double {
      try Bench.median(runs: runs) { run in
        let copy = "\(version)\(run).sqlite3"
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(copy))
        try FileManager.default.copyItem(
          at: folder.appendingPathComponent(seeded),
          to: folder.appendingPathComponent(copy)
        )
        return try seed(version, copy)
      }
    }
    let unchanged = try onACopy("v1")
    let added = try onACopy("added")
    let changed = try onACopy("changed")
    let sqlite = try Bench.median(runs: runs) { run in
      let database = try SeedBenchmark.freshDatabase(
        "sqlite\(run).sqlite3",
        in: folder,
        schema: schema
      )
      return try Bench.run(
        "/usr/bin/sqlite3",
        [database, ".import --csv --skip 1 v1/person_info.csv person_info"],
        in: folder
      )
    }
    try check(folder.appendingPathComponent("changed0.sqlite3"), rows: rows)
    for (label, seconds) in [
      ("first load (empty table)", first), ("same file again (skipped)", unchanged),
      ("one line added", added), ("1% of lines changed", changed),
      ("sqlite3 .import, empty table", sqlite),
    ] {
      print(
        "  \(label.padding(toLength: 30, withPad: " ", startingAt: 0)) \(Bench.format(seconds))"
          + String(format: "   %.2fx the first load", seconds / first)
      )
    }
  }

  /// The changed version's rows are all there once, each changed age among them.
  static func check(_ url: URL, rows: Int) throws {
    let connection = try Connection(path: url.path, mode: .readOnly)
    let count = try connection.scalar("SELECT count(*) FROM person_info")?.integerValue
    let changed = try connection.scalar(
      "SELECT count(*) FROM person_info WHERE age = (CAST(substr(name, 8) AS INTEGER) * 7 % 100) + 1"
    )?.integerValue
    guard count == Int64(rows), changed == Int64(rows / 100) else {
      throw BenchError("after the 1% sync: \(count ?? -1) rows, \(changed ?? -1) changed ages")
    }
  }
}
