import Foundation
import Strata
import StrataTestSupport
import Testing

/// `kill -9` at random moments during `migrate`, `seed` and `init`, many times over.
///
/// Each run starts from a fresh copy of the scenario's starting state, starts the real `strata`
/// process, and kills it after a delay drawn uniformly from zero to the length of an
/// uninterrupted run (measured once per scenario). Then: `strata status` reads the file,
/// `PRAGMA integrity_check` is `ok`, the file is at a state the command's guarantee allows
/// (compared by `DatabaseFingerprint`), the same command run again exits 0 and ends at the
/// state of an uninterrupted run, and nothing but the database is left in the folder.
///
/// Runs per scenario: `STRATA_FAULT_RUNS` (default 5). The full check is
/// `STRATA_FAULT_RUNS=100 swift test --filter FaultInjection`.
@Suite struct FaultInjectionTests {
  static let runs = max(
    1,
    Int(ProcessInfo.processInfo.environment["STRATA_FAULT_RUNS"] ?? "") ?? 5
  )

  // MARK: - Scenarios

  /// Default per-migration transactions: after a kill the file is at a migration boundary.
  @Test func killDuringMigrate() throws {
    try killDuringPerMigrationMigrate(wal: false)
  }

  /// The same in WAL mode: the kill leaves `-wal` and `-shm` files, which readers and the
  /// rerun recover from; the database stays in WAL mode.
  @Test func killDuringMigrateInWALMode() throws {
    try killDuringPerMigrationMigrate(wal: true)
  }

  private func killDuringPerMigrationMigrate(wal: Bool) throws {
    let (scenario, start) = try Self.fortyMigrationsAtVersion1(wal: wal)
    let boundaries = try scenario.boundaries(from: start, through: 40, migrations: "migrations")
    let outcome = try scenario.killRuns(
      name: wal ? "migrate (WAL)" : "migrate",
      start: start,
      arguments: [
        "migrate", "--database", "app.sqlite3", "--migrations", scenario.path("migrations"),
      ],
      journalMode: wal ? "wal" : "delete"
    ) { fingerprint in
      guard let fingerprint else { return "the database file is gone" }
      let version = fingerprint.versions.last ?? 0
      guard let boundary = boundaries[version] else { return "unknown version \(version)" }
      return fingerprint == boundary
        ? nil : "not the state of a clean migration to version \(version): \(fingerprint)"
    }
    #expect(outcome.final.versions == Array(1...40))
  }

  /// The migrate scenarios' start: 40 data-moving migrations, the database migrated to 1.
  private static func fortyMigrationsAtVersion1(wal: Bool) throws -> (Scenario, URL) {
    let scenario = try Scenario()
    try scenario.writeMigrations(dataMovingMigrations(count: 40), to: "migrations")
    let start = try scenario.prepare { dir in
      try strata(
        [
          "migrate", "--database", "app.sqlite3", "--to", "1", "-q",
          "--migrations", scenario.path("migrations"),
        ],
        dir,
        scenario
      )
      if wal {
        try Connection(path: dir.appendingPathComponent("app.sqlite3").path)
          .execute("PRAGMA journal_mode = WAL")
      }
    }
    return (scenario, start)
  }

  /// `--single-transaction`: after a kill the file is exactly at the old state or the new.
  @Test func killDuringSingleTransactionMigrate() throws {
    let (scenario, start) = try Self.fortyMigrationsAtVersion1(wal: false)
    let old = try DatabaseFingerprint.of(start.appendingPathComponent("app.sqlite3"))
    var new: DatabaseFingerprint?
    let outcome = try scenario.killRuns(
      name: "migrate --single-transaction",
      start: start,
      arguments: [
        "migrate", "--database", "app.sqlite3", "--single-transaction",
        "--migrations", scenario.path("migrations"),
      ],
      measured: { new = $0 }
    ) { fingerprint in
      fingerprint == old || fingerprint == new ? nil : "neither the old state nor the new one"
    }
    #expect(outcome.final.versions == Array(1...40))
  }

  /// `migrate` into a database that does not exist yet: after a kill there is no database, or
  /// the whole one (it is built beside its name and linked when done).
  @Test func killDuringMigrateOfANewDatabase() throws {
    let scenario = try Scenario()
    try scenario.writeMigrations(Self.dataMovingMigrations(count: 40), to: "migrations")
    let start = try scenario.prepare { _ in }
    var new: DatabaseFingerprint?
    let outcome = try scenario.killRuns(
      name: "migrate (new database)",
      start: start,
      arguments: [
        "migrate", "--database", "app.sqlite3", "--migrations", scenario.path("migrations"),
      ],
      allowsMissingFile: true,
      measured: { new = $0 }
    ) { fingerprint in
      guard let fingerprint else { return nil }
      return fingerprint == new ? nil : "a part-built database: \(fingerprint)"
    }
    #expect(outcome.final.versions == Array(1...40))
  }

  /// A seed of 100,000 rows: after a kill the table has none of the file's rows, or all.
  @Test func killDuringSeed() throws {
    let scenario = try Scenario()
    try scenario.writeMigrations(
      [
        "0001_item.sql": """
        CREATE TABLE item (
          id INTEGER PRIMARY KEY,
          code TEXT NOT NULL UNIQUE,
          qty INTEGER NOT NULL,
          price REAL,
          note TEXT
        );
        INSERT INTO item (code, qty, price, note) VALUES ('existing', 1, 1.5, 'kept');
        """
      ],
      to: "migrations"
    )
    try scenario.write("seeds/item.csv", Self.itemCSV(rows: 100_000))
    let start = try scenario.prepare { dir in
      try Self.strata(
        [
          "migrate", "--database", "app.sqlite3", "--migrations", scenario.path("migrations"), "-q",
        ],
        dir,
        scenario
      )
    }
    let old = try DatabaseFingerprint.of(start.appendingPathComponent("app.sqlite3"))
    var new: DatabaseFingerprint?
    let outcome = try scenario.killRuns(
      name: "seed",
      start: start,
      arguments: ["seed", "--database", "app.sqlite3", scenario.path("seeds/item.csv")],
      measured: { new = $0 }
    ) { fingerprint in
      fingerprint == old || fingerprint == new
        ? nil : "neither unseeded nor fully seeded: \(fingerprint.map(String.init) ?? "no file")"
    }
    #expect(outcome.final.rowCounts["item"] == 100_001)
  }

  /// `init` with a template, newer migrations and seeds: after a kill there is no file, or a
  /// file at a migration boundary (unseeded), or the finished database.
  @Test func killDuringInit() throws {
    let scenario = try Scenario()
    var migrations = Self.dataMovingMigrations(count: 30)
    try scenario.writeMigrations(migrations.filter { $0.key < "0011" }, to: "template-migrations")
    migrations["0031_item_seed.sql"] = """
      CREATE TABLE item_seed (code TEXT PRIMARY KEY, qty INTEGER NOT NULL, price REAL, note TEXT);
      """
    try scenario.writeMigrations(migrations, to: "migrations")
    try scenario.write("seeds/item_seed.csv", Self.itemCSV(rows: 30_000))
    let built = try Self.strata(
      [
        "template", "--migrations", scenario.path("template-migrations"),
        "--output", scenario.path("template.sqlite3"),
      ],
      scenario.root.url,
      scenario
    )
    try #require(built.exitCode == 0, "\(built.standardError)")
    let start = try scenario.prepare { _ in }
    // The checkpoints: the template copied, then each newer migration applied, no seeds yet.
    var checkpoints: [DatabaseFingerprint] = []
    let reference = try TemporaryDirectory()
    try FileManager.default.copyItem(
      at: scenario.root.path("template.sqlite3"),
      to: reference.path("app.sqlite3")
    )
    checkpoints.append(try DatabaseFingerprint.of(reference.path("app.sqlite3")))
    for version in 11...31 {
      let result = try Self.strata(
        [
          "migrate", "--database", "app.sqlite3", "--to", "\(version)", "-q",
          "--migrations", scenario.path("migrations"),
        ],
        reference.url,
        scenario
      )
      try #require(result.exitCode == 0, "\(result.standardError)")
      checkpoints.append(try DatabaseFingerprint.of(reference.path("app.sqlite3")))
    }
    var new: DatabaseFingerprint?
    let outcome = try scenario.killRuns(
      name: "init",
      start: start,
      arguments: [
        "init", "--database", "app.sqlite3", "--migrations", scenario.path("migrations"),
        "--seeds", scenario.path("seeds"), "--template", scenario.path("template.sqlite3"),
      ],
      allowsMissingFile: true,
      measured: { new = $0 }
    ) { fingerprint in
      guard let fingerprint else { return nil }
      return fingerprint == new || checkpoints.contains(fingerprint)
        ? nil : "not a checkpoint of init: \(fingerprint)"
    }
    #expect(outcome.final.versions == Array(1...31))
    #expect(outcome.final.rowCounts["item_seed"] == 30_000)
  }

  // MARK: - Workloads

  /// `count` migrations over a table of 30,000 rows: copies, updates, a column added and
  /// filled, indexes, deletes and a 12-step table rebuild, all deterministic so that two clean
  /// runs give the same file contents.
  static func dataMovingMigrations(count: Int) -> [String: String] {
    var files: [String: String] = [
      "0001_base.sql": """
      CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT NOT NULL, qty INTEGER, note TEXT);
      WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 30000)
      INSERT INTO item (id, code, qty, note) SELECT n, printf('C%06d', n), n % 1000,
        printf('note %d %s', n, hex(n * 7919)) FROM c;
      """
    ]
    for version in 2...count {
      let sql: String
      switch version % 6 {
      case 0:
        sql = """
          CREATE TABLE copy_\(version) AS SELECT id, code, qty * \(version) AS qty FROM item
            WHERE id % 3 = \(version % 3);
          """
      case 1:
        sql = """
          UPDATE item SET qty = qty + \(version), note = printf('%s-%d', code, \(version))
            WHERE id % 2 = \(version % 2);
          """
      case 2:
        sql = """
          ALTER TABLE item ADD COLUMN c\(version) INTEGER DEFAULT \(version);
          UPDATE item SET c\(version) = (id * \(version)) % 97;
          """
      case 3:
        sql = "CREATE INDEX item_\(version) ON item (qty, code);"
      case 4:
        sql = """
          CREATE TABLE item_new AS SELECT * FROM item WHERE id % 50 != \(version % 50);
          DROP TABLE item;
          ALTER TABLE item_new RENAME TO item;
          CREATE INDEX item_code_\(version) ON item (code);
          """
      default:
        sql = """
          CREATE TABLE log_\(version) (id INTEGER PRIMARY KEY, what TEXT NOT NULL);
          INSERT INTO log_\(version) (what) SELECT printf('%s:%d', code, qty) FROM item
            WHERE id % 4 = 1;
          DELETE FROM item WHERE id % 997 = \(version);
          """
      }
      files[String(format: "%04d_step%d.sql", version, version)] = sql
    }
    return files
  }

  /// A CSV for `item_seed`/`item`: `code,qty,price,note`.
  static func itemCSV(rows: Int) -> String {
    var text = "code,qty,price,note\n"
    text.reserveCapacity(rows * 40)
    for row in 1...rows {
      text += "S\(row),\(row % 500),\(row % 100).25,\"seed row \(row), quoted\"\n"
    }
    return text
  }

  @discardableResult
  static func strata(
    _ arguments: [String],
    _ dir: URL,
    _ scenario: Scenario
  ) throws
    -> ProcessResult
  {
    let result = try StrataProcess.run(arguments, in: dir)
    if result.exitCode != 0 {
      Issue.record("strata \(arguments.joined(separator: " ")): \(result.standardError)")
    }
    return result
  }
}

/// The folders of one scenario: its inputs (migrations, seeds, template) and its starting state.
struct Scenario {
  let root: TemporaryDirectory

  init() throws {
    root = try TemporaryDirectory()
  }

  func path(_ relative: String) -> String { root.path(relative).path }

  func write(_ relative: String, _ text: String) throws {
    try root.write(relative, text)
  }

  func writeMigrations(_ files: [String: String], to folder: String) throws {
    try FileManager.default.createDirectory(
      at: root.path(folder),
      withIntermediateDirectories: true
    )
    for (name, sql) in files { try root.write("\(folder)/\(name)", sql) }
  }

  /// The starting state: a folder `start` that `make` fills (with `app.sqlite3`, or nothing).
  func prepare(_ make: (URL) throws -> Void) throws -> URL {
    let start = root.path("start")
    try FileManager.default.createDirectory(at: start, withIntermediateDirectories: true)
    try make(start)
    return start
  }

  /// The fingerprint after a clean `migrate --to V`, for every V from the start's version.
  func boundaries(
    from start: URL,
    through last: Int64,
    migrations: String
  ) throws -> [Int64: DatabaseFingerprint] {
    let reference = try copy(start)
    let database = reference.path("app.sqlite3")
    let first = try DatabaseFingerprint.of(database)
    var result = [first.versions.last ?? 0: first]
    for version in (first.versions.last ?? 0) + 1...last {
      let migrate = try StrataProcess.run(
        [
          "migrate", "--database", "app.sqlite3", "--to", "\(version)", "-q",
          "--migrations", path(migrations),
        ],
        in: reference.url
      )
      try #require(migrate.exitCode == 0, "\(migrate.standardError)")
      result[version] = try DatabaseFingerprint.of(database)
    }
    return result
  }

  /// A fresh folder holding a copy of `start`'s files.
  func copy(_ start: URL) throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory()
    for name in try FileManager.default.contentsOfDirectory(atPath: start.path) {
      try FileManager.default.copyItem(
        at: start.appendingPathComponent(name),
        to: dir.path(name)
      )
    }
    return dir
  }

  struct Outcome {
    /// The state of an uninterrupted run.
    let final: DatabaseFingerprint
  }

  /// Measures one uninterrupted run, then kills `runs` more at random moments and checks each.
  ///
  /// - Parameter check: nil when the fingerprint (nil: no file) after a kill is allowed, else
  ///   why not.
  func killRuns(
    name: String,
    start: URL,
    arguments: [String],
    allowsMissingFile: Bool = false,
    journalMode: String = "delete",
    measured: (DatabaseFingerprint) -> Void = { _ in },
    check: (DatabaseFingerprint?) -> String?
  ) throws -> Outcome {
    // One uninterrupted run: its length bounds the kill delays, its result is the goal.
    let clean = try copy(start)
    let began = Date()
    let cleanRun = try StrataProcess.run(arguments, in: clean.url)
    let duration = Date().timeIntervalSince(began)
    try #require(cleanRun.exitCode == 0, "\(cleanRun.standardError)")
    let final = try DatabaseFingerprint.of(clean.path("app.sqlite3"))
    measured(final)
    // Run again on the finished state: what a rerun gives when the kill came after the work was
    // committed (migrate and init change nothing; seed records a second ledger row).
    let second = try StrataProcess.run(arguments, in: clean.url)
    try #require(second.exitCode == 0, "\(second.standardError)")
    let again = try DatabaseFingerprint.of(clean.path("app.sqlite3"))

    var killed = 0
    var hotJournals = 0
    var intermediate = 0
    var leftovers = 0
    for run in 1...FaultInjectionTests.runs {
      let dir = try copy(start)
      let database = dir.path("app.sqlite3")
      let before = try DatabaseFingerprint.of(database)
      let delay = Double.random(in: 0...duration)
      let label =
        "\(name) run \(run), killed after \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
      let process = try StrataProcess.start(arguments, in: dir.url)
      usleep(UInt32(delay * 1_000_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal {
        killed += 1
      } else {
        #expect(process.terminationStatus == 0, "\(label): finished with an error")
      }
      if FileManager.default.fileExists(atPath: dir.path("app.sqlite3-journal").path)
        || FileManager.default.fileExists(atPath: dir.path("app.sqlite3-wal").path)
      {
        hotJournals += 1
      }

      // What a user runs first after a crash.
      let status = try StrataProcess.run(
        ["status", "--database", "app.sqlite3", "--migrations", path("migrations")],
        in: dir.url
      )
      #expect(status.exitCode == 0, "\(label): status: \(status.standardError)")

      let exists = FileManager.default.fileExists(atPath: database.path)
      if exists {
        let integrity = try DatabaseProbe.rows(database, "PRAGMA integrity_check")
        #expect(integrity == [[.text("ok")]], "\(label): integrity_check \(integrity)")
      } else {
        #expect(allowsMissingFile, "\(label): the database file is gone")
      }
      let after = exists ? try DatabaseFingerprint.of(database) : nil
      if let problem = check(after) {
        Issue.record("\(label): \(problem)")
      }
      if let after, after != before, after != final { intermediate += 1 }

      // Run it again: it finishes the job.
      let rerun = try StrataProcess.run(arguments, in: dir.url)
      #expect(rerun.exitCode == 0, "\(label): rerun: \(rerun.standardError)")
      let expected = after == final ? again : final
      #expect(try DatabaseFingerprint.of(database) == expected, "\(label): rerun state")
      let mode = try DatabaseProbe.rows(database, "PRAGMA journal_mode").first?.first
      #expect(mode == .text(journalMode), "\(label): journal mode \(String(describing: mode))")

      // Nothing else left behind, except what an interrupted template copy left (the copy, and
      // the journal of its history stamp): init sweeps those once they are ten minutes old, so
      // that an install in progress is never touched. Aged, the next init removes them.
      let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
      // A WAL database's -wal and -shm are part of it (a read-only reader leaves them).
      let own = journalMode == "wal" ? ["app.sqlite3-wal", "app.sqlite3-shm"] : []
      let stray = names.filter { $0 != "app.sqlite3" && !own.contains($0) }
      let copies = stray.filter { $0.hasPrefix(".app.sqlite3.strata-") }
      #expect(stray == copies, "\(label): left \(stray)")
      if !copies.isEmpty {
        leftovers += 1
        for name in copies {
          try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)],
            ofItemAtPath: dir.path(name).path
          )
        }
        let sweep = try StrataProcess.run(arguments, in: dir.url)
        #expect(sweep.exitCode == 0, "\(label): sweep: \(sweep.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
          .filter { !own.contains($0) }
        #expect(left == ["app.sqlite3"], "\(label): \(copies) not swept: \(left)")
      }
    }
    print(
      "FaultInjection \(name): \(FaultInjectionTests.runs) runs, uninterrupted run "
        + "\(Int(duration * 1000)) ms; \(killed) killed before finishing, \(hotJournals) left a "
        + "hot journal or WAL, \(intermediate) stopped between the start and the end state, "
        + "\(leftovers) left an interrupted template copy"
    )
    return Outcome(final: final)
  }
}
