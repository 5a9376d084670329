import Foundation

/// One 50 MB migration file of plain INSERTs: strata against the sqlite3 CLI reading the same
/// SQL in one transaction. Applying a file must cost time linear in its size (issue 10, item 7:
/// it was quadratic, 8 MB took 11 s).
enum LargeMigrationBenchmark {
  static let targetBytes = 50 * 1024 * 1024
  static let runs = 3

  static func run() throws {
    let folder = try Bench.scratch("large-migration")
    defer { try? FileManager.default.removeItem(at: folder) }
    let migrations = folder.appendingPathComponent("migrations")
    try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
    var up = "CREATE TABLE big (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value REAL);\n"
    up.reserveCapacity(targetBytes + 200)
    var rows = 0
    while up.utf8.count < targetBytes {
      rows += 1
      up +=
        "INSERT INTO big (id, name, value) VALUES (\(rows), 'row \(rows) of the large "
        + "migration benchmark', \(Double(rows) / 4));\n"
    }
    let file = "-- migrate:up\n" + up + "\n-- migrate:down\nDROP TABLE big;\n"
    try Data(file.utf8).write(to: migrations.appendingPathComponent("0001_large.sql"))
    let sqliteInput = folder.appendingPathComponent("one-transaction.sql")
    try Data(("BEGIN;\n" + up + "COMMIT;\n").utf8).write(to: sqliteInput)

    let megabytes = Double(file.utf8.count) / 1_048_576
    print(
      String(format: "large-migration: one %.1f MB file, %d INSERTs, ", megabytes, rows)
        + "median of \(runs) runs each, fresh database file each run"
    )
    let (strata, sqlite) = try Bench.pairedMedians(runs: runs) { run in
      (
        try Bench.run(
          Bench.strata,
          [
            "migrate", "--database", "large\(run).sqlite3", "--migrations", "migrations", "--quiet",
          ],
          in: folder
        ),
        try Bench.run(
          "/usr/bin/sqlite3",
          ["sqlite-large\(run).sqlite3"],
          in: folder,
          input: sqliteInput
        )
      )
    }
    print(
      "  strata migrate (one 50 MB file)   \(Bench.format(strata))"
        + "   sqlite3 CLI, one BEGIN/COMMIT   \(Bench.format(sqlite))"
        + String(format: "   ratio %.2fx", strata / sqlite)
    )
  }
}
