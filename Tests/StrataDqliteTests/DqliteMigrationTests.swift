import Foundation
import Strata
import StrataDqlite
import StrataTestSupport
import Testing

/// The migrator, the seeder and the inspector over a real three-node cluster, through the seam
/// alone: what a file gets, a cluster gets. Truth is the same folder applied to a local file.
@Suite(
  .serialized,
  .enabled(if: DqliteCluster.isAvailable, Comment(rawValue: DqliteCluster.skipReason))
)
struct DqliteMigrationTests {
  let cluster: DqliteCluster

  init() throws { cluster = try DqliteCluster.shared.get() }

  static let migrations = [
    "0001_create_country.sql": """
    -- migrate:up
    CREATE TABLE country (
      code TEXT PRIMARY KEY,
      name TEXT NOT NULL
    );
    -- migrate:down
    DROP TABLE country;
    """,
    "0002_create_city.sql": """
    -- migrate:up
    CREATE TABLE city (
      id      INTEGER PRIMARY KEY,
      name    TEXT NOT NULL,
      country TEXT NOT NULL REFERENCES country (code)
    );
    CREATE INDEX city_country ON city (country);
    CREATE TRIGGER city_name AFTER INSERT ON city BEGIN
      UPDATE city SET name = trim(new.name) WHERE id = new.id;
    END;
    -- migrate:down
    DROP TABLE city;
    """,
  ]

  func project(
    _ extra: [String: String] = [:]
  ) throws -> (folder: TemporaryDirectory, set: MigrationSet) {
    let folder = try TemporaryDirectory()
    for (name, text) in Self.migrations.merging(extra, uniquingKeysWith: { $1 }) {
      try folder.write("migrations/\(name)", text)
    }
    return (folder, try MigrationSet(directory: folder.path("migrations")))
  }

  func database(_ name: String) throws -> DqliteDatabase {
    try DqliteDatabase(nodes: cluster.addresses, name: name)
  }

  /// The schema as `sqlite_schema` holds it, strata's own tables left out.
  func schema(_ database: any SQLDatabase) throws -> [[SQLValue]] {
    try database.rows(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'strata%' "
        + "AND name NOT LIKE 'sqlite%' ORDER BY name",
      []
    )
  }

  @Test func aFolderAppliesToTheClusterAsToAFile() throws {
    let (folder, set) = try project()
    let cluster = try database("migrated")
    let file = try Connection(path: folder.path("truth.sqlite3").path)

    let report = try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
    _ = try Migrator(set).migrate(file, options: MigrateOptions())
    #expect(report.toVersion == MigrationVersion(integer: 2))
    #expect(report.steps.map(\.version) == [1, 2].map { MigrationVersion(integer: $0) })
    #expect(try schema(cluster) == schema(file))
    #expect(try Migrator(set).plan(cluster).isUpToDate)
    // Read through another node: replicated, history and all.
    let follower = try DqliteDatabase(nodes: [self.cluster.addresses[2]], name: "migrated")
    #expect(try schema(follower) == schema(file))
    #expect(
      try follower.rows("SELECT version FROM strata_migrations ORDER BY version", [])
        == [[.text("1")], [.text("2")]]
        || follower.rows("SELECT version FROM strata_migrations ORDER BY version", [])
          == [[.integer(1)], [.integer(2)]]
    )
    // A second run applies nothing.
    let again = try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
    #expect(again.steps.isEmpty)
  }

  @Test func seedInspectAndRollbackRunOverTheWire() throws {
    let (folder, set) = try project()
    let cluster = try database("seeded")
    try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
    try folder.write("seeds/country.csv", "code,name\nFR,France\nIT,Italia\n")
    try folder.write("seeds/city.csv", "id,name,country\n1, Paris ,FR\n2,Lyon,FR\n3,Roma,IT\n")
    let seeded = try Seeder(database: cluster).seed(
      directory: folder.path("seeds"),
      options: SeedOptions(mode: .upsert)
    )
    #expect(seeded.inserted == 5)
    #expect(try cluster.scalar("SELECT name FROM city WHERE id = 1", []) == .text("Paris"))

    let file = try Connection(path: folder.path("truth.sqlite3").path)
    _ = try Migrator(set).migrate(file, options: MigrateOptions())
    _ = try Seeder(database: file).seed(
      directory: folder.path("seeds"),
      options: SeedOptions(mode: .upsert)
    )
    #expect(
      try cluster.rows("SELECT * FROM city ORDER BY id", [])
        == file.rows("SELECT * FROM city ORDER BY id", [])
    )
    let overTheWire = try SchemaInspector(database: cluster).inspect(migrations: set)
    let onAFile = try SchemaInspector(file).inspect(migrations: set)
    #expect(overTheWire.tables == onAFile.tables)

    let rolledBack = try Migrator(set).rollback(
      cluster,
      .steps(1),
      dryRun: false,
      allowChanged: false,
      willRun: nil
    )
    #expect(rolledBack.toVersion == MigrationVersion(integer: 1))
    #expect(
      try cluster.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'city'", [])
        == .integer(0)
    )
  }

  @Test func aFailingMigrationLeavesTheClusterAtTheVersionBefore() throws {
    let (_, set) = try project([
      "0003_broken.sql": """
      -- migrate:up
      CREATE TABLE street (id INTEGER PRIMARY KEY);
      INSERT INTO nowhere VALUES (1);
      -- migrate:down
      DROP TABLE street;
      """
    ])
    let cluster = try database("broken")
    do {
      try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
      Issue.record("the broken migration ran")
    } catch let error as MigrationError {
      #expect(error.message.contains("0003_broken.sql:3 failed"))
      #expect(error.message.contains("no such table: nowhere"))
      #expect(error.message.contains("version 2"), "\(error.message)")
    }
    #expect(try Migrator(set).plan(cluster).currentVersion == MigrationVersion(integer: 2))
    #expect(
      try cluster.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'street'", [])
        == .integer(0)
    )
  }

  @Test func aMigrationThatLeavesAnOrphanIsRolledBack() throws {
    let (_, set) = try project([
      "0003_orphan.sql": """
      -- migrate:up
      INSERT INTO city (id, name, country) VALUES (1, 'Nowhere', 'XX');
      -- migrate:down
      DELETE FROM city WHERE id = 1;
      """
    ])
    let cluster = try database("orphan")
    var caught: MigrationError?
    do {
      try Migrator(set).migrate(cluster, options: MigrateOptions(), willRun: nil)
    } catch let error as MigrationError {
      caught = error
    }
    guard case .foreignKeyViolation(let version, _, _, _, _)? = caught?.underlyingFailure else {
      Issue.record("expected a foreign key violation, got \(String(describing: caught))")
      return
    }
    #expect(version == MigrationVersion(integer: 3))
    #expect(try Migrator(set).plan(cluster).currentVersion == MigrationVersion(integer: 2))
    #expect(try cluster.scalar("SELECT count(*) FROM city", []) == .integer(0))
  }

  @Test func whatOnlyAFileCanFenceIsRefusedOnACopyBeforeTheClusterIsTouched() throws {
    let (folder, _) = try project()
    let cluster = try database("fenced")
    try DqliteMigrator(
      Migrator(try MigrationSet(directory: folder.path("migrations"))),
      on: cluster
    )
    .migrate()
    try folder.write(
      "migrations/0003_forget.sql",
      "-- migrate:up\nCREATE TABLE street (id INTEGER PRIMARY KEY);\n"
        + "DELETE FROM strata_migrations;\n-- migrate:down\nDROP TABLE street;\n"
    )
    let set = try MigrationSet(directory: folder.path("migrations"))
    var caught: DqliteRunError?
    do {
      try DqliteMigrator(Migrator(set), on: cluster).migrate()
    } catch let error as DqliteRunError {
      caught = error
    }
    guard case .refusedOnCopy(_, _, let version)? = caught else {
      Issue.record("expected a refusal on the copy, got \(String(describing: caught))")
      return
    }
    let message = try #require(caught?.message)
    #expect(message.contains("0003_forget.sql:3"), "\(message)")
    #expect(message.contains("strata_migrations"), "\(message)")
    #expect(message.contains("the cluster was not changed; it is at version 2"), "\(message)")
    #expect(version == MigrationVersion(integer: 2))
    #expect(try cluster.scalar("SELECT count(*) FROM strata_migrations", []) == .integer(2))
    #expect(
      try cluster.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'street'", [])
        == .integer(0)
    )
  }

  @Test func aDryRunTriesTheRowsOnTheCopyAndChangesNothing() throws {
    let (_, set) = try project()
    let cluster = try database("dry")
    var options = MigrateOptions()
    options.dryRun = true
    options.triesRows = true
    let report = try DqliteMigrator(Migrator(set), on: cluster).migrate(options: options)
    #expect(report.dryRun)
    #expect(report.trial?.ranOnTheDatabase == true)
    #expect(report.toVersion == MigrationVersion(integer: 2))
    #expect(try cluster.scalar("SELECT count(*) FROM sqlite_schema", []) == .integer(0))
  }

  @Test func aBackupIsOneSQLiteFileWithTheClustersRows() throws {
    let (folder, set) = try project()
    let cluster = try database("backed")
    try DqliteMigrator(Migrator(set), on: cluster).migrate()
    try cluster.run("INSERT INTO country VALUES (?, ?)", [.text("FR"), .text("France")])
    let backup = folder.path("backup.sqlite3")
    try cluster.backup(to: backup)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names == ["backup.sqlite3", "migrations"])
    let file = try Connection(path: backup.path, mode: .readOnly)
    #expect(try file.rows("SELECT * FROM country", []) == [[.text("FR"), .text("France")]])
    #expect(try Migrator(set).plan(file).currentVersion == MigrationVersion(integer: 2))
    #expect(throws: WholeNewFileError.exists(path: backup.path)) {
      try cluster.backup(to: backup)
    }
  }

  /// dqlite opens any name, so a mistyped one reads as an empty database: seeding it or
  /// backing it up is refused, naming it, and writes nothing anywhere.
  @Test func aDatabaseThatHoldsNothingIsMissingForSeedAndBackup() throws {
    let folder = try TemporaryDirectory()
    try folder.write("seeds/country.csv", "code,name\nFR,France\n")
    let typo = try database("nevre-migrated")
    let missing = DqliteRunError.missingDatabase(path: typo.path)
    #expect(missing.message.hasPrefix("\(typo.path) holds no table yet"))
    let seedFailure = #expect(throws: DqliteRunError.self) {
      try typo.seed(directory: folder.path("seeds"))
    }
    #expect(seedFailure?.message == missing.message)
    let backup = folder.path("backup.sqlite3")
    let backupFailure = #expect(throws: DqliteRunError.self) { try typo.backup(to: backup) }
    #expect(backupFailure?.message == missing.message)
    #expect(!FileManager.default.fileExists(atPath: backup.path))
    #expect(try typo.scalar("SELECT count(*) FROM sqlite_schema", []) == .integer(0))
  }

  @Test func twoMigratorsAtOnceApplyEachMigrationOnce() throws {
    var many: [String: String] = [:]
    for number in 3...30 {
      many[String(format: "%04d_table_%d.sql", number, number)] =
        "-- migrate:up\nCREATE TABLE t\(number) (id INTEGER PRIMARY KEY);\n"
        + "-- migrate:down\nDROP TABLE t\(number);\n"
    }
    let (_, set) = try project(many)
    let addresses = cluster.addresses
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      do {
        let database = try DqliteDatabase(nodes: addresses, name: "raced")
        let report = try Migrator(set).migrate(database, options: MigrateOptions(), willRun: nil)
        results.add(.success(report.steps.count))
      } catch {
        results.add(.failure(error))
      }
    }
    let counts = try results.all.map { try $0.get() }
    #expect(counts.reduce(0, +) == 30, "\(counts)")
    let cluster = try database("raced")
    #expect(try cluster.scalar("SELECT count(*) FROM strata_migrations", []) == .integer(30))
  }
}

/// Results gathered from threads.
private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Result<Int, any Error>] = []
  func add(_ value: Result<Int, any Error>) { lock.withLock { values.append(value) } }
  var all: [Result<Int, any Error>] { lock.withLock { values } }
}
