import Foundation

/// 1,000 small migrations: strata against the same SQL piped into the sqlite3 CLI, per file
/// and in one transaction; then `strata status` on the migrated database.
enum MigrateBenchmark {
  static let count = 1_000
  static let runs = 9

  static func run() throws {
    let folder = try Bench.scratch("migrate")
    defer { try? FileManager.default.removeItem(at: folder) }
    let migrations = folder.appendingPathComponent("migrations")
    let bodies = try Bench.writeMigrations(count: count, to: migrations)
    let perFile = folder.appendingPathComponent("per-file.sql")
    try Data(bodies.map { "BEGIN;\n\($0)\nCOMMIT;\n" }.joined().utf8).write(to: perFile)
    let oneTransaction = folder.appendingPathComponent("one-transaction.sql")
    try Data(("BEGIN;\n" + bodies.joined(separator: "\n") + "\nCOMMIT;\n").utf8)
      .write(to: oneTransaction)

    print("migrate: \(count) migrations, median of \(runs) runs each, fresh database file each run")
    // strata and sqlite3 take turns, so a drift in the disk's speed during the run does not
    // favour either.
    let (strataEach, sqliteEach) = try Bench.pairedMedians(runs: runs) { run in
      (
        try Bench.run(
          Bench.strata,
          ["migrate", "--database", "each\(run).sqlite3", "--migrations", "migrations", "--quiet"],
          in: folder
        ),
        try Bench.run(
          "/usr/bin/sqlite3",
          ["sqlite-each\(run).sqlite3"],
          in: folder,
          input: perFile
        )
      )
    }
    let (strataOne, sqliteOne) = try Bench.pairedMedians(runs: runs) { run in
      (
        try Bench.run(
          Bench.strata,
          [
            "migrate", "--database", "one\(run).sqlite3", "--migrations", "migrations", "--quiet",
            "--single-transaction",
          ],
          in: folder
        ),
        try Bench.run(
          "/usr/bin/sqlite3",
          ["sqlite-one\(run).sqlite3"],
          in: folder,
          input: oneTransaction
        )
      )
    }
    let status = try Bench.median(runs: 11) { _ in
      try Bench.run(
        Bench.strata,
        ["status", "--database", "each0.sqlite3", "--migrations", "migrations", "--quiet"],
        in: folder
      )
    }
    print(
      "  strata migrate (one transaction per file)   \(Bench.format(strataEach))"
        + "   sqlite3 CLI, BEGIN/COMMIT per file   \(Bench.format(sqliteEach))"
        + String(format: "   ratio %.2fx", strataEach / sqliteEach)
    )
    print(
      "  strata migrate --single-transaction         \(Bench.format(strataOne))"
        + "   sqlite3 CLI, one BEGIN/COMMIT        \(Bench.format(sqliteOne))"
        + String(format: "   ratio %.2fx", strataOne / sqliteOne)
    )
    print("  strata status on the migrated database      \(Bench.format(status)) (whole process)")
  }
}
