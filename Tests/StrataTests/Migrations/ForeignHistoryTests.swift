import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Databases migrated by other tools: each history table is made exactly as its tool makes it
/// (the statement is copied from the tool's source, cited per case), with the rows the tool
/// writes after applying migrations 1 and 2, and the schema those migrations built.
@Suite struct ForeignHistoryTests {
  static let files = [
    "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
    "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
    "0003_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
    "0004_d.sql": "-- migrate:up\nCREATE TABLE d (x);\n-- migrate:down\nDROP TABLE d;\n",
  ]
  /// The schema migrations 1 and 2 built.
  static let schema = "CREATE TABLE a (x); CREATE TABLE b (x);"
  /// What sqlx records for files 1 and 2, python3's `hashlib.sha384` of their bytes (Flyway's
  /// checksums below are python3's emulation of its ChecksumCalculator, ForeignChecksumTests):
  /// adopting compares them with the files.
  static let sqlxChecksums = [
    "4a812b657b0c7c603dd0edd373904a4397dfb35597772acf7f18a2798875a37de62b3e7945ffebf485e69e7af4c4501c",
    "7155de239a627f489afff2ca973a574843ab141926cb9342aee7ff0bceee63c219622f5e37aa6257e443be8c6ddd50f8",
  ]

  struct Case: CustomTestStringConvertible, Sendable {
    let tool: ForeignTool
    /// The tool's table and its rows after it applied 1 and 2.
    let history: String
    var testDescription: String { tool.rawValue }
  }

  static let cases: [Case] = [
    // amacneil/dbmate pkg/driver/sqlite/sqlite.go: CreateMigrationsTable (the name quoted by
    // quotedMigrationsTableName) and InsertMigration.
    Case(
      tool: .dbmate,
      history: """
        create table if not exists "schema_migrations" (version varchar(128) primary key);
        insert into "schema_migrations" (version) values ('0001'), ('0002');
        """
    ),
    // golang-migrate/migrate database/sqlite3/sqlite3.go: ensureVersionTable; SetVersion
    // deletes every row and inserts the newest version alone.
    Case(
      tool: .golangMigrate,
      history: """
        CREATE TABLE IF NOT EXISTS schema_migrations (version uint64,dirty bool);
        CREATE UNIQUE INDEX IF NOT EXISTS version_unique ON schema_migrations (version);
        DELETE FROM schema_migrations;
        INSERT INTO schema_migrations (version, dirty) VALUES (2, 0);
        """
    ),
    // pressly/goose internal/dialect/dialectquery/sqlite3.go: CreateTable, InsertVersion; goose
    // inserts version 0 when it creates the table, then a row per up and per down.
    Case(
      tool: .goose,
      history: """
        CREATE TABLE goose_db_version (
        		id INTEGER PRIMARY KEY AUTOINCREMENT,
        		version_id INTEGER NOT NULL,
        		is_applied INTEGER NOT NULL,
        		tstamp TIMESTAMP DEFAULT (datetime('now'))
        	);
        INSERT INTO goose_db_version (version_id, is_applied) VALUES (0, 1);
        INSERT INTO goose_db_version (version_id, is_applied) VALUES (1, 1);
        INSERT INTO goose_db_version (version_id, is_applied) VALUES (2, 1);
        INSERT INTO goose_db_version (version_id, is_applied) VALUES (3, 1);
        INSERT INTO goose_db_version (version_id, is_applied) VALUES (3, 0);
        """
    ),
    // launchbadge/sqlx sqlx-sqlite/src/migrate.rs: ensure_migrations_table, apply (which writes
    // success TRUE; dirty_version reads success = false).
    Case(
      tool: .sqlx,
      history: """
        CREATE TABLE IF NOT EXISTS _sqlx_migrations (
            version BIGINT PRIMARY KEY,
            description TEXT NOT NULL,
            installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
            success BOOLEAN NOT NULL,
            checksum BLOB NOT NULL,
            execution_time BIGINT NOT NULL
        );
        INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
        VALUES (1, 'a', TRUE, x'\(sqlxChecksums[0])', 10),
               (2, 'b', TRUE, x'\(sqlxChecksums[1])', 12);
        """
    ),
    // diesel-rs/diesel diesel_migrations/src/migration/setup_migration_table.sql; the version is
    // the folder name's part before '_' with its dashes removed (migrations_internals
    // version_from_string).
    Case(
      tool: .diesel,
      history: """
        CREATE TABLE IF NOT EXISTS __diesel_schema_migrations (
               version VARCHAR(50) PRIMARY KEY NOT NULL,
               run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
        );
        INSERT INTO __diesel_schema_migrations (version) VALUES ('00000000000000');
        INSERT INTO __diesel_schema_migrations (version) VALUES ('0001'), ('0002');
        """
    ),
    // flyway/flyway flyway-core/src/main/resources/org/flywaydb/core/internal/database/sqlite/
    // createMetaDataTable.sql; a repeatable script's row has no version.
    Case(
      tool: .flyway,
      history: """
        CREATE TABLE "flyway_schema_history"
        (
            "installed_rank" INT           NOT NULL PRIMARY KEY,
            "version"        VARCHAR(50),
            "description"    VARCHAR(200)  NOT NULL,
            "type"           VARCHAR(20)   NOT NULL,
            "script"         VARCHAR(1000) NOT NULL,
            "checksum"       INT,
            "installed_by"   VARCHAR(100)  NOT NULL,
            "installed_on"   TEXT          NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f','now')),
            "execution_time" INT           NOT NULL,
            "success"        BOOLEAN       NOT NULL
        );
        CREATE INDEX "flyway_schema_history_s_idx" ON "flyway_schema_history" ("success");
        INSERT INTO flyway_schema_history
          (installed_rank, version, description, type, script, checksum, installed_by,
           execution_time, success)
        VALUES (1, '1', 'a', 'SQL', 'V1__a.sql', -1878670129, 'app', 5, 1),
               (2, '2', 'b', 'SQL', 'V2__b.sql', -693214122, 'app', 5, 1),
               (3, NULL, 'views', 'SQL', 'R__views.sql', 789, 'app', 5, 1);
        """
    ),
    // groue/GRDB.swift GRDB/Migration/DatabaseMigrator.swift (runMigrations): the identifiers it
    // stores are the names registered with registerMigration.
    Case(
      tool: .grdb,
      history: """
        CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations (identifier) VALUES ('0001_a'), ('2');
        """
    ),
    // layerhq/FMDBMigrationManager FMDBMigrationManager/FMDBMigrationManager.m:
    // createMigrationsTable, and the insert after each migration.
    Case(
      tool: .fmdb,
      history: """
        CREATE TABLE schema_migrations(version INTEGER UNIQUE NOT NULL);
        INSERT INTO schema_migrations(version) VALUES (1);
        INSERT INTO schema_migrations(version) VALUES (2);
        """
    ),
    // garriguv/SQLiteMigrationManager.swift Sources/SQLiteMigrationManager.swift:
    // createMigrationsTable (SQLite.swift's create(ifNotExists:) of column(version, unique:
    // true) on an Expression<Int64>), and the insert in migrateDatabase.
    Case(
      tool: .sqliteMigrationManager,
      history: """
        CREATE TABLE IF NOT EXISTS "schema_migrations" ("version" INTEGER NOT NULL UNIQUE);
        INSERT INTO "schema_migrations" ("version") VALUES (1);
        INSERT INTO "schema_migrations" ("version") VALUES (2);
        """
    ),
    // A hand-rolled scheme: the app sets user_version after each migration.
    Case(tool: .userVersion, history: "PRAGMA user_version = 2;"),
  ]

  func fixture(_ history: String) throws -> (MigrationFixture, Connection) {
    let fixture = try MigrationFixture(Self.files)
    let db = try fixture.open()
    try db.execute(Self.schema)
    try db.execute(history)
    return (fixture, db)
  }

  func tables(_ db: Connection) throws -> [String] {
    try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .compactMap { $0[0].textValue }
  }

  @Test(arguments: cases) func refusedThenAdoptedThenMigrated(_ example: Case) throws {
    let (fixture, db) = try fixture(example.history)
    let migrator = try fixture.migrator()
    let before = try tables(db)

    let plan = try migrator.plan(db)
    #expect(plan.otherToolHistories.map(\.tool) == [example.tool])
    #expect(plan.migrations.map(\.state) == [.otherTool, .otherTool, .pending, .pending])
    let refusal = #expect(throws: ForeignHistoryError.self) { try migrator.migrate(db) }
    guard case .notAdopted(let history)? = refusal else {
      Issue.record("expected notAdopted, got \(String(describing: refusal))")
      return
    }
    #expect(history.tool == example.tool)
    #expect(refusal?.message.contains("\(example.tool.displayName)'s") == true)
    #expect(refusal?.message.contains("nothing was changed") == true)
    #expect(try tables(db) == before)

    let adoption = try migrator.adopt(
      db,
      from: example.tool,
      folder: fixture.dir.path("migrations")
    )
    #expect(adoption.recorded == [1, 2])
    let checksums = try db.rows("SELECT checksum FROM strata_migrations ORDER BY version")
      .compactMap { $0[0].textValue }
    #expect(checksums == Array(migrator.migrations.migrations.prefix(2).map(\.checksum)))
    #expect(try migrator.plan(db).otherToolHistories.isEmpty)

    let report = try migrator.migrate(db)
    #expect(report.steps.map(\.version) == [3, 4])
    #expect(try tables(db).filter { ["a", "b", "c", "d"].contains($0) } == ["a", "b", "c", "d"])
    // The other tool's table is left as it was.
    #expect(Set(before).isSubset(of: Set(try tables(db))))
  }

  @Test(arguments: cases) func autoFindsTheOnlyHistory(_ example: Case) throws {
    let (fixture, db) = try fixture(example.history)
    let folder = fixture.dir.path("migrations")
    #expect(
      try fixture.migrator().adopt(db, from: nil, folder: folder).history.tool == example.tool
    )
  }

  @Test func golangMigrateDirtyIsRefusedNamingTheVersion() throws {
    let (fixture, db) = try fixture(
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (version uint64,dirty bool);
      CREATE UNIQUE INDEX IF NOT EXISTS version_unique ON schema_migrations (version);
      INSERT INTO schema_migrations (version, dirty) VALUES (2, 1);
      """
    )
    let error = #expect(throws: ForeignHistoryError.self) {
      try fixture.migrator().adopt(db, from: .golangMigrate)
    }
    #expect(error == .failedHalfWay(tool: .golangMigrate, migration: "version 2"))
    #expect(error?.message.contains("version 2 failed half-way") == true)
    #expect(error?.message.contains("marked dirty") == true)
    #expect(try History.exists(db) == false)
  }

  @Test func sqlxFailedMigrationIsRefused() throws {
    let (fixture, db) = try fixture(
      Self.cases[3].history
        + "UPDATE _sqlx_migrations SET success = FALSE WHERE version = 2;"
    )
    #expect(throws: ForeignHistoryError.failedHalfWay(tool: .sqlx, migration: "version 2")) {
      try fixture.migrator().adopt(db, from: .sqlx)
    }
  }

  @Test func twoHistoriesMakeAutoRefuse() throws {
    let (fixture, db) = try fixture(Self.cases[0].history + Self.cases[2].history)
    let migrator = try fixture.migrator()
    #expect(throws: ForeignHistoryError.severalFound([.dbmate, .goose])) {
      try migrator.adopt(db, from: nil)
    }
    #expect(try History.exists(db) == false)
    #expect(try migrator.adopt(db, from: .goose).recorded == [1, 2])
  }

  @Test func aGapStaysPending() throws {
    let (fixture, db) = try fixture(
      """
      create table if not exists "schema_migrations" (version varchar(128) primary key);
      insert into "schema_migrations" (version) values ('0001'), ('0003');
      """
    )
    let migrator = try fixture.migrator()
    #expect(try migrator.adopt(db, from: .dbmate).recorded == [1, 3])
    #expect(
      try migrator.plan(db).migrations.map(\.state) == [.applied, .outOfOrder, .applied, .pending]
    )
  }

  @Test func aVersionWithNoFileIsNamed() throws {
    let (fixture, db) = try fixture(
      """
      CREATE TABLE schema_migrations(version INTEGER UNIQUE NOT NULL);
      INSERT INTO schema_migrations(version) VALUES (1), (2), (9);
      """
    )
    let error = #expect(throws: ForeignHistoryError.self) {
      try fixture.migrator().adopt(db, from: .fmdb)
    }
    #expect(error == .noFile(tool: .fmdb, versions: [9], directory: "migrations"))
    #expect(error?.message.contains("version 9, which no migration file in migrations has") == true)
    #expect(try History.exists(db) == false)
  }

  @Test func grdbNamesThatAreNotVersionsAreRefused() throws {
    let (fixture, db) = try fixture(
      """
      CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
      INSERT INTO grdb_migrations (identifier) VALUES ('createAuthors'), ('0002');
      """
    )
    #expect(throws: ForeignHistoryError.unmappable(tool: .grdb, entries: ["createAuthors"])) {
      try fixture.migrator().adopt(db, from: .grdb)
    }
    #expect(try History.exists(db) == false)
  }

  /// A dotted version is read as Flyway reads it; in a folder of integer versions no file has
  /// it (a Flyway folder adopts it: `FlywayFormatTests`).
  @Test func flywayDottedVersionHasNoFileHereAndUndoIsNotApplied() throws {
    let flyway = Self.cases[5].history
    let (fixture, db) = try fixture(
      flyway + """
        INSERT INTO flyway_schema_history
          (installed_rank, version, description, type, script, checksum, installed_by,
           execution_time, success)
        VALUES (4, '2', 'b', 'UNDO_SQL', 'U2__b.sql', 1, 'app', 5, 1);
        """
    )
    let history = try ForeignHistoryReader.detect(db)
    #expect(history.first?.versions.map(\.text) == ["1"])
    try db.execute(
      """
      INSERT INTO flyway_schema_history
        (installed_rank, version, description, type, script, checksum, installed_by,
         execution_time, success)
      VALUES (5, '2.1', 'e', 'SQL', 'V2_1__e.sql', 1, 'app', 5, 1);
      """
    )
    let refusal = #expect(throws: ForeignHistoryError.self) {
      try fixture.migrator().adopt(db, from: .flyway)
    }
    guard case .noFile(.flyway, let versions, _)? = refusal else {
      Issue.record("expected noFile, got \(String(describing: refusal))")
      return
    }
    #expect(versions.map(\.text) == ["2.1"])
  }

  @Test func askingForAToolThatLeftNoHistoryNamesTheOneFound() throws {
    let (fixture, db) = try fixture(Self.cases[2].history)
    #expect(throws: ForeignHistoryError.notFound(tool: .sqlx, found: [.goose])) {
      try fixture.migrator().adopt(db, from: .sqlx)
    }
  }

  @Test func strataHistoryWinsOverTheOtherTool() throws {
    let (fixture, db) = try fixture(Self.cases[0].history)
    let migrator = try fixture.migrator()
    try migrator.adopt(db, from: .dbmate)
    #expect(throws: MigrationError.baselineOnManagedDatabase(appliedCount: 2)) {
      try migrator.adopt(db, from: .dbmate)
    }
  }

  /// The iOS report: a database migrated by SQLiteMigrationManager, on which `migrate` used to
  /// re-run the first migration and fail with "table a already exists".
  @Test func sqliteMigrationManagerDatabaseIsNotMigratedAgain() throws {
    let (fixture, db) = try fixture(Self.cases[8].history)
    let error = #expect(throws: ForeignHistoryError.self) { try fixture.migrator().migrate(db) }
    #expect(error?.message.contains("already exists") == false)
    #expect(error?.message.contains("SQLiteMigrationManager's (schema_migrations)") == true)
    #expect(try History.exists(db) == false)
  }

  /// The same database opened by an app through `DatabaseSetup`: refused, then adopted in
  /// code, then set up.
  @Test func appSetupRefusesUntilTheAppAdopts() throws {
    let (fixture, db) = try fixture(Self.cases[8].history)
    let setup = DatabaseSetup(
      database: fixture.database,
      migrations: fixture.dir.path("migrations")
    )
    #expect(throws: ForeignHistoryError.self) { try setup.run() }
    #expect(try History.exists(db) == false)
    try fixture.migrator().adopt(db, from: .sqliteMigrationManager)
    #expect(try setup.run().appliedVersions == [3, 4])
  }

  @Test func emptyOtherHistoryDoesNotStopMigrate() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try fixture.open()
    try db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version uint64,dirty bool);")
    #expect(try fixture.migrator().migrate(db).steps.count == 4)
  }
}
