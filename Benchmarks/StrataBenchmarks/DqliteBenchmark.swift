import Foundation
import Strata
import StrataDqlite
import StrataTestSupport

/// `strata-bench dqlite` (issue 33): a real three-node cluster of `dqlite-demo` on loopback,
/// against the `dqlite` shell in the same run.
///
/// - migrations: 1,000 (`STRATA_BENCH_DQLITE_MIGRATIONS`) small migrations applied by
///   strata's migrator (the copy first, then one transaction each on the leader with its
///   history row), against the same statements and a history row sent to the shell one line
///   each: one transaction each. Goal: strata ≤ 1.0× the shell.
/// - seed: 100,000 rows (`STRATA_BENCH_DQLITE_ROWS`) of a CSV file loaded by the seeder (one
///   transaction) against the shell inserting the same rows in multi-row INSERTs of 500 rows a
///   line (one transaction each). Goal: strata ≤ 0.5× the shell.
///
/// Each database is new; the sides take turns going first; medians of 3 runs
/// (`STRATA_BENCH_DQLITE_RUNS`). Where the time goes is said from the requests strata sent
/// (each a round trip to the leader) and the commits (each a Raft round to a majority).
enum DqliteBenchmark {
  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let count = environment["STRATA_BENCH_DQLITE_MIGRATIONS"].flatMap { Int($0) } ?? 1_000
    let rows = environment["STRATA_BENCH_DQLITE_ROWS"].flatMap { Int($0) } ?? 100_000
    let runs = environment["STRATA_BENCH_DQLITE_RUNS"].flatMap { Int($0) } ?? 3
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    guard DqliteCluster.isAvailable,
      let shell = path.split(separator: ":").map({ "\($0)/dqlite" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      Peers.reportMissing("dqlite-demo or the dqlite shell", install: "apt-get install go-dqlite")
      return
    }
    let folder = try Bench.scratch("dqlite")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cluster = try DqliteCluster.started(size: 3)
    defer { cluster.stop() }
    print(
      "dqlite: 3 dqlite-demo nodes on loopback, \(count) migrations and \(rows) seed rows; "
        + "median of \(runs) runs, sides in turn"
    )
    try migrations(count, runs, cluster, shell, folder)
    try seed(rows, runs, cluster, shell, folder)
  }

  private static func migrations(
    _ count: Int,
    _ runs: Int,
    _ cluster: DqliteCluster,
    _ shell: String,
    _ folder: URL
  ) throws {
    let bodies = try Bench.writeMigrations(count: count, to: folder.appendingPathComponent("m"))
    let set = try MigrationSet(directory: folder.appendingPathComponent("m"))
    var lines = ["CREATE TABLE history (version INTEGER PRIMARY KEY, applied_at TEXT);"]
    for (index, body) in bodies.enumerated() {
      lines.append("\(body) INSERT INTO history VALUES (\(index + 1), datetime('now'));")
    }
    let script = folder.appendingPathComponent("shell-migrations.sql")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: script)
    var requests = 0
    var copies: [Double] = []
    let (ours, theirs) = try Bench.pairedMedians(runs: runs) { run in
      let name = "migrate\(run)"
      let strata = {
        let database = try DqliteDatabase(nodes: cluster.addresses, name: name)
        let start = ContinuousClock.now
        let report = try DqliteMigrator(Migrator(set), on: database).migrate()
        let seconds = Bench.seconds(since: start)
        guard report.steps.count == count else { throw BenchError("applied \(report.steps.count)") }
        requests = database.requestsSent
        // Where the time goes: the copy alone, as the run makes it first (a new database).
        let fresh = try DqliteDatabase(nodes: cluster.addresses, name: "\(name)-copy")
        let copyStart = ContinuousClock.now
        try DqliteMigrator(Migrator(set), on: fresh).tryOnCopy()
        copies.append(Bench.seconds(since: copyStart))
        return seconds
      }
      let theirs = {
        try Bench.run(shell, ["-s", cluster.addresses[0], "shell\(run)"], input: script)
      }
      return try inTurns(run, strata, theirs)
    }
    copies.sort()
    let copy = copies[copies.count / 2]
    print(
      "  \(count) migrations: strata \(Bench.format(ours))   dqlite shell \(Bench.format(theirs))"
        + String(format: "   strata/shell %.2fx (goal ≤ 1.0x)", ours / theirs)
    )
    print(
      "    strata: \(requests) requests (\(requests / max(count, 1)) a migration), \(count + 1) "
        + "commits; the copy first \(Bench.format(copy)) (timed alone), "
        + String(format: "%.0f%% of the run", 100 * copy / ours)
    )
  }

  /// Both sides' times, the first going first on even runs and last on odd ones.
  private static func inTurns(
    _ run: Int,
    _ first: () throws -> Double,
    _ second: () throws -> Double
  ) throws -> (Double, Double) {
    if run.isMultiple(of: 2) {
      let a = try first()
      return (a, try second())
    }
    let b = try second()
    return (try first(), b)
  }

  private static func seed(
    _ count: Int,
    _ runs: Int,
    _ cluster: DqliteCluster,
    _ shell: String,
    _ folder: URL
  ) throws {
    let create =
      "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, age INTEGER)"
    var csv = "id,name,email,age\n"
    var lines = ["\(create);"]
    var values: [String] = []
    for id in 1...count {
      csv += "\(id),Person \(id),person\(id)@example.com,\(20 + id % 60)\n"
      values.append("(\(id), 'Person \(id)', 'person\(id)@example.com', \(20 + id % 60))")
      if values.count == 500 || id == count {
        lines.append("INSERT INTO person VALUES \(values.joined(separator: ", "));")
        values = []
      }
    }
    let seeds = folder.appendingPathComponent("seeds")
    try FileManager.default.createDirectory(at: seeds, withIntermediateDirectories: true)
    try Data(csv.utf8).write(to: seeds.appendingPathComponent("person.csv"))
    let script = folder.appendingPathComponent("shell-seed.sql")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: script)
    var requests = 0
    let (ours, theirs) = try Bench.pairedMedians(runs: runs) { run in
      let name = "seed\(run)"
      let strata = {
        let database = try DqliteDatabase(nodes: cluster.addresses, name: name)
        try database.execute(create)
        let before = database.requestsSent
        let start = ContinuousClock.now
        let report = try database.seed(directory: seeds)
        let seconds = Bench.seconds(since: start)
        guard report.inserted == count else { throw BenchError("inserted \(report.inserted)") }
        requests = database.requestsSent - before
        return seconds
      }
      let theirs = {
        try Bench.run(shell, ["-s", cluster.addresses[0], "shellseed\(run)"], input: script)
      }
      return try inTurns(run, strata, theirs)
    }
    print(
      "  \(count) seed rows: strata \(Bench.format(ours))   dqlite shell (500-row INSERTs) "
        + "\(Bench.format(theirs))"
        + String(format: "   strata/shell %.2fx (goal ≤ 0.5x)", ours / theirs)
    )
    print(
      "    strata: \(requests) requests in one transaction (one commit); the shell: "
        + "\(lines.count - 1) transactions"
    )
  }
}
