import Foundation
import Strata
import StrataDqlite
import StrataTestSupport
import Testing

/// An ordinary migration goes to the leader as one script (its statements, the foreign-key
/// check and its history row in one transaction): one request and one Raft commit instead of
/// six requests. What a user sees must not change: the schema, the history rows and every
/// failure's message are a file's.
@Suite(
  .serialized,
  .enabled(if: DqliteCluster.isAvailable, Comment(rawValue: DqliteCluster.skipReason))
)
struct DqliteOneRequestMigrationTests {
  let cluster: DqliteCluster

  init() throws { cluster = try DqliteCluster.shared.get() }

  func project(_ migrations: [String: String]) throws -> (TemporaryDirectory, MigrationSet) {
    let folder = try TemporaryDirectory()
    for (name, text) in migrations { try folder.write("migrations/\(name)", text) }
    return (folder, try MigrationSet(directory: folder.path("migrations")))
  }

  /// The history as a user reads it: everything but the time it took and when.
  func history(_ database: any SQLDatabase) throws -> [[SQLValue]] {
    try database.rows(
      "SELECT version, name, checksum, kind FROM strata_migrations ORDER BY version",
      []
    )
  }

  func schema(_ database: any SQLDatabase) throws -> [[SQLValue]] {
    try database.rows(
      "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'strata%' ORDER BY name",
      []
    )
  }

  @Test func eachOrdinaryMigrationIsOneRequestAndItsHistoryIsAFiles() throws {
    var migrations: [String: String] = [:]
    for number in 1...21 {
      let name = String(format: "%04d_table_%d.sql", number, number)
      migrations[name] = """
        -- migrate:up
        CREATE TABLE t\(number) (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES t1 (id));
        INSERT INTO t\(number) (id) VALUES (\(number));
        -- migrate:down
        DROP TABLE t\(number);
        """
    }
    let (folder, set) = try project(migrations)
    let cluster = try DqliteDatabase(nodes: self.cluster.addresses, name: "onerequest-count")
    let file = try Connection(path: folder.path("truth.sqlite3").path)
    let migrator = Migrator(set)
    // The first migration makes the history table, the part-by-part way.
    var first = MigrateOptions()
    first.target = MigrationVersion(integer: 1)
    try migrator.migrate(cluster, options: first, willRun: nil)
    let before = cluster.requestsSent
    let report = try migrator.migrate(cluster, options: MigrateOptions(), willRun: nil)
    let sent = cluster.requestsSent - before
    _ = try migrator.migrate(file, options: MigrateOptions())

    #expect(report.steps.count == 20)
    // One request a migration, and the run's own fifteen or so (the plan's reads, the
    // foreign-key setting); part by part, the same run sent 159 (six a migration).
    #expect(sent < 2 * 20, "\(sent) requests for 20 migrations")
    #expect(try history(cluster) == history(file))
    #expect(try schema(cluster) == schema(file))
    let durations = try cluster.rows("SELECT duration_ms FROM strata_migrations", [])
    #expect(durations.allSatisfy { ($0[0].integerValue ?? -1) >= 0 }, "\(durations)")
    #expect(try migrator.plan(cluster).isUpToDate)
  }

  @Test func aMigrationWhoseTextEndsOpenIsStillAppliedWhole() throws {
    let (folder, set) = try project([
      "0001_first.sql": "-- migrate:up\nCREATE TABLE first (id INTEGER PRIMARY KEY);\n",
      // No `;` and a line comment with no newline after it.
      "0002_comment.sql": "-- migrate:up\nCREATE TABLE second (id INTEGER) -- the end",
      // A block comment never closed: SQLite reads it to the end of the text.
      "0003_block.sql": "-- migrate:up\nCREATE TABLE third (id INTEGER);\n/* left open",
      // A trigger body whose `;` do not end the statement.
      "0004_trigger.sql": """
      -- migrate:up
      CREATE TRIGGER second_id AFTER INSERT ON second BEGIN
        INSERT INTO third (id) VALUES (new.id);
      END;
      """,
    ])
    let cluster = try DqliteDatabase(nodes: self.cluster.addresses, name: "onerequest-open")
    let file = try Connection(path: folder.path("truth.sqlite3").path)
    try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
    try Migrator(set).migrate(file, options: MigrateOptions())
    #expect(try history(cluster) == history(file))
    #expect(try history(cluster).count == 4)
    #expect(try schema(cluster) == schema(file))
    #expect(cluster.isAutocommit)
    try cluster.execute("INSERT INTO second (id) VALUES (7)")
    #expect(try cluster.scalar("SELECT id FROM third", []) == .integer(7))
  }

  @Test func aMigrationReadingTheHistorySeesTheRowsBeforeItsOwn() throws {
    let (folder, set) = try project([
      "0001_first.sql": "-- migrate:up\nCREATE TABLE first (id INTEGER PRIMARY KEY);\n",
      "0002_second.sql": "-- migrate:up\nCREATE TABLE second (id INTEGER PRIMARY KEY);\n",
      "0003_count.sql": """
      -- migrate:up
      CREATE TABLE seen AS SELECT count(*) AS applied FROM strata_migrations;
      """,
    ])
    let cluster = try DqliteDatabase(nodes: self.cluster.addresses, name: "onerequest-seen")
    let file = try Connection(path: folder.path("truth.sqlite3").path)
    try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
    try Migrator(set).migrate(file, options: MigrateOptions())
    #expect(try cluster.scalar("SELECT applied FROM seen", []) == .integer(2))
    #expect(try file.scalar("SELECT applied FROM seen") == .integer(2))
  }

  @Test func aFailureInTheOneScriptLeavesNothingAndIsNamedAtItsLine() throws {
    let (_, set) = try project([
      "0001_first.sql": "-- migrate:up\nCREATE TABLE first (id INTEGER PRIMARY KEY);\n",
      "0002_second.sql": "-- migrate:up\nCREATE TABLE second (id INTEGER PRIMARY KEY);\n",
      "0003_unique.sql": """
      -- migrate:up
      CREATE TABLE third (id INTEGER PRIMARY KEY);
      INSERT INTO third VALUES (1);

      INSERT INTO third VALUES (1);
      """,
    ])
    let cluster = try DqliteDatabase(nodes: self.cluster.addresses, name: "onerequest-fails")
    do {
      try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
      Issue.record("the failing migration ran")
    } catch let error as MigrationError {
      #expect(error.message.contains("0003_unique.sql:5 failed"), "\(error.message)")
      #expect(error.message.contains("UNIQUE constraint failed: third.id"), "\(error.message)")
    }
    #expect(cluster.isAutocommit)
    #expect(try Migrator(set).plan(cluster).currentVersion == MigrationVersion(integer: 2))
    #expect(
      try cluster.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'third'", [])
        == .integer(0)
    )
  }

  @Test func partsThatCannotRunInOneTransactionStillGoThroughTheCopy() throws {
    // The copy runs a folder in one transaction unless a part cannot: one outside any
    // transaction (dbmate's transaction:false), one managing its own (a golang-migrate pair).
    let (dbmateFolder, dbmate) = try project([
      "0001_first.sql": "-- migrate:up\nCREATE TABLE first (id INTEGER PRIMARY KEY);\n",
      "0002_loose.sql": "-- migrate:up transaction:false\nCREATE TABLE loose (id INTEGER);\n",
    ])
    let golang = try TemporaryDirectory()
    try golang.write("migrations/1_first.up.sql", "CREATE TABLE first (id INTEGER PRIMARY KEY);\n")
    try golang.write("migrations/1_first.down.sql", "DROP TABLE first;\n")
    try golang.write(
      "migrations/2_own.up.sql",
      "BEGIN;\nCREATE TABLE own (id INTEGER);\nCOMMIT;\n"
    )
    try golang.write("migrations/2_own.down.sql", "DROP TABLE own;\n")
    let golangSet = try MigrationSet(directory: golang.path("migrations"))
    for (name, set, table) in [
      ("onerequest-loose", dbmate, "loose"), ("onerequest-own", golangSet, "own"),
    ] {
      let cluster = try DqliteDatabase(nodes: self.cluster.addresses, name: name)
      let report = try DqliteMigrator(Migrator(set), on: cluster).migrate()
      #expect(report.steps.count == 2, "\(name)")
      #expect(
        try cluster.scalar("SELECT count(*) FROM sqlite_schema WHERE name = ?", [.text(table)])
          == .integer(1),
        "\(name)"
      )
    }
    _ = dbmateFolder
  }
}
