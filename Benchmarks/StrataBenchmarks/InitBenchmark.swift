import Foundation

/// `strata init` of a fresh database from a template built from 1,000 migrations, against
/// migrating a fresh database from empty.
enum InitBenchmark {
  static let count = 1_000
  static let runs = 5

  static func run() throws {
    let folder = try Bench.scratch("init")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try Bench.writeMigrations(count: count, to: folder.appendingPathComponent("migrations"))
    try Bench.run(Bench.strata, ["template", "--quiet"], in: folder)
    print("init: \(count) migrations, median of \(runs) runs each")
    let fromTemplate = try Bench.median(runs: runs) { run in
      try Bench.run(
        Bench.strata,
        ["init", "--database", "template\(run).sqlite3", "--quiet"],
        in: folder
      )
    }
    let fromEmpty = try Bench.median(runs: runs) { run in
      try Bench.run(
        Bench.strata,
        ["migrate", "--database", "empty\(run).sqlite3", "--quiet"],
        in: folder
      )
    }
    print(
      "  strata init from the template   \(Bench.format(fromTemplate))"
        + "   strata migrate from empty   \(Bench.format(fromEmpty))"
        + String(format: "   template takes %.1f%% of the time", fromTemplate / fromEmpty * 100)
    )
  }
}
