import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// diesel's folders, read as diesel_migrations reads them (file_based_migrations.rs): one folder
/// per migration, the version the name up to its first `_` without `-`, ordered as text,
/// `metadata.toml`'s `run_in_transaction`.
@Suite struct DieselFolderTests {
  /// The example in diesel_migrations' `FileBasedMigrations` documentation, as it is.
  static let documented = [
    "2015-12-19-180527_create_users/up.sql": """
    CREATE TABLE users (
      id SERIAL PRIMARY KEY,
      name VARCHAR NOT NULL,
      hair_color VARCHAR
    );

    """,
    "2015-12-19-180527_create_users/down.sql": "DROP TABLE users;\n",
    "2016-01-07-082941_create_posts/up.sql": """
    CREATE TABLE posts (
      id SERIAL PRIMARY KEY,
      user_id INTEGER NOT NULL,
      title VARCHAR NOT NULL,
      body TEXT
    );

    """,
    "2016-01-07-082941_create_posts/down.sql": "DROP TABLE posts;\n",
    "2016-01-07-082941_create_posts/metadata.toml": """
    # 20160107082941_create_posts/metadata.toml

    # specifices if a migration is executed inside a
    # transaction or not. This configuration is optional
    # by default all migrations are run in transactions.
    #
    # For certain types of migrations, like creating an
    # index onto a existing column, it is required
    # to set this to false
    run_in_transaction = true

    """,
    // diesel skips files beside the folders, and hidden folders.
    "README.md": "Migrations of the blog.\n",
    ".hidden/notes.txt": "x\n",
  ]

  func tables(_ db: Connection) throws -> [String] { try MigratorTests().tables(db) }

  @Test func theDocumentedFolderAppliesRollsBackAndAppliesAgain() throws {
    let fixture = try MigrationFixture(Self.documented)
    let set = try fixture.migrator().migrations
    #expect(set.format == .diesel)
    #expect(set.migrations.map(\.version.text) == ["20151219180527", "20160107082941"])
    #expect(set.migrations.map(\.name) == ["create_users", "create_posts"])
    #expect(set.migrations.allSatisfy { $0.up.isTransactional && $0.down != nil })
    #expect(set.migrations[0].up.file == "migrations/2015-12-19-180527_create_users/up.sql")
    // The checksum is of the up SQL, as in every format.
    #expect(
      set.migrations[0].checksum
        == MigrationSet.checksum(ofUp: Self.documented["2015-12-19-180527_create_users/up.sql"]!)
    )
    let db = try fixture.open()
    let report = try fixture.migrator().migrate(db)
    #expect(report.steps.map(\.version.text) == ["20151219180527", "20160107082941"])
    #expect(try tables(db) == ["posts", "users"])
    #expect(
      try db.rows("SELECT version, typeof(version), kind FROM strata_migrations ORDER BY 1")
        == [
          [.integer(20_151_219_180_527), .text("integer"), .text("text")],
          [.integer(20_160_107_082_941), .text("integer"), .text("text")],
        ]
    )
    #expect(try fixture.migrator().plan(db).isUpToDate)
    let back = try fixture.migrator().rollback(db, .version(.zero))
    #expect(back.steps.map(\.version.text) == ["20160107082941", "20151219180527"])
    #expect(try tables(db).isEmpty)
    #expect(try fixture.migrator().migrate(db).steps.count == 2)
    #expect(try tables(db) == ["posts", "users"])
  }

  /// `2024-01-03_b` has the shorter version `20240103`: smaller as a number, larger as text, so
  /// diesel runs it after `2024-01-02-030405_a`, and so does strata (b needs a's table).
  @Test func aShorterVersionRunsWhereDieselRunsIt() throws {
    let fixture = try MigrationFixture([
      "2024-01-02-030405_a/up.sql": "CREATE TABLE a (x);\n",
      "2024-01-03_b/up.sql": "CREATE INDEX a_x ON a (x);\n",
      "2024-01-03_b/down.sql": "DROP INDEX a_x;\n",
    ])
    let set = try fixture.migrator().migrations
    #expect(set.migrations.map(\.version.text) == ["20240102030405", "20240103"])
    let db = try fixture.open()
    #expect(try fixture.migrator().migrate(db).steps.map(\.name) == ["a", "b"])
    let target = try set.format.version("20240102030405")
    #expect(try fixture.migrator().rollback(db, .version(target)).steps.map(\.name) == ["b"])
    #expect(try History.currentVersion(db) == target)
  }

  @Test func runInTransactionFalseRunsBothPartsOutsideATransaction() throws {
    let fixture = try MigrationFixture([
      "2024-01-01-000000_vacuum/up.sql": "CREATE TABLE a (x);\nVACUUM;\n",
      "2024-01-01-000000_vacuum/down.sql": "DROP TABLE a;\nVACUUM;\n",
      "2024-01-01-000000_vacuum/metadata.toml": "run_in_transaction = false # VACUUM\n",
    ])
    let migration = try #require(try fixture.migrator().migrations.migrations.first)
    #expect(!migration.up.isTransactional && migration.down?.isTransactional == false)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(try tables(db) == ["a"])
    try fixture.migrator().rollback(db)
    #expect(try tables(db).isEmpty)
  }

  @Test(arguments: [
    ("run_in_transaction = true\nschema = \"x\"\n", 2, "'schema' is refused"),
    ("[migration]\n", 1, "is not a key and a value"),
    ("run_in_transaction = maybe\n", 1, "takes true or false"),
    ("run_in_transaction = true\nrun_in_transaction = false\n", 2, "first on line 1"),
  ])
  func metadataKeysStrataDoesNotReadAreRefusedAtTheirLine(
    toml: String,
    line: Int,
    words: String
  ) throws {
    let fixture = try MigrationFixture([
      "2024-01-01-000000_a/up.sql": "CREATE TABLE a (x);\n",
      "2024-01-01-000000_a/metadata.toml": toml,
    ])
    let error = #expect(throws: MigrationError.self) { try fixture.migrator() }
    let message = error?.message ?? ""
    #expect(
      message.hasPrefix("migrations/2024-01-01-000000_a/metadata.toml:\(line): "),
      "\(message)"
    )
    #expect(message.contains(words), "\(message)")
  }

  @Test func aFolderMixingDieselFoldersAndFilesIsRefusedNamingOneOfEach() throws {
    let fixture = try MigrationFixture([
      "2024-01-01-000000_a/up.sql": "CREATE TABLE a (x);\n",
      "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n",
    ])
    let error = #expect(throws: MigrationError.self) { try fixture.migrator() }
    #expect(
      error?.message
        == "migrations mixes migration formats: migrations/2024-01-01-000000_a/up.sql is diesel "
        + "and migrations/0002_b.sql is dbmate; strata reads one format per folder, so nothing "
        + "was run"
    )
  }

  @Test func aFolderWithoutUpSQLIsRefusedAsDieselRefusesIt() throws {
    let fixture = try MigrationFixture([
      "2024-01-01-000000_a/up.sql": "CREATE TABLE a (x);\n",
      "2024-01-02-000000_b/down.sql": "DROP TABLE b;\n",
    ])
    let error = #expect(throws: MigrationError.self) { try fixture.migrator() }
    #expect(
      error?.message.hasPrefix("migrations/2024-01-02-000000_b:1: this folder has no up.sql")
        == true
    )
  }

  @Test func withoutDownSQLTheMigrationIsIrreversible() throws {
    let fixture = try MigrationFixture(["2024-01-01-000000_a/up.sql": "CREATE TABLE a (x);\n"])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().rollback(db) }
    #expect(
      error?.underlyingFailure
        == .irreversible(
          version: try MigrationVersion(diesel: "20240101000000"),
          file: "migrations/2024-01-01-000000_a/up.sql",
          format: .diesel
        )
    )
  }

  @Test func namingTheFormatReadsAStrataFolderAsDieselAndRefusesItsFiles() throws {
    let fixture = try MigrationFixture(["0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n"])
    let error = #expect(throws: MigrationError.self) {
      try MigrationSet(directory: fixture.dir.path("migrations"), displayPath: "m", format: .diesel)
    }
    #expect(
      error?.message.hasPrefix("m/0001_a.sql:1: diesel reads one folder per migration") == true
    )
  }

  @Test func newWritesADieselFolderThatIsRefusedUntilWritten() throws {
    let fixture = try MigrationFixture(["2024-01-01-000000_a/up.sql": "CREATE TABLE a (x);\n"])
    let now = Date(timeIntervalSince1970: 1_735_787_045)  // 2025-01-02 03:04:05 UTC
    let urls = try MigrationSet.createMigrationFiles(
      in: fixture.dir.path("migrations"),
      name: "add_b",
      now: now
    )
    #expect(urls.map(\.lastPathComponent) == ["up.sql", "down.sql"])
    #expect(urls[0].deletingLastPathComponent().lastPathComponent == "2025-01-02-030405_add_b")
    #expect(
      try String(contentsOf: urls[0], encoding: .utf8)
        == "-- Your SQL goes here\n\(UnwrittenPart.line)\n"
    )
    let error = #expect(throws: MigrationError.self) { try fixture.migrator() }
    #expect(
      error
        == .unwrittenPart(file: "migrations/2025-01-02-030405_add_b/up.sql", line: 2, isDown: false)
    )
  }

  /// diesel's own history (`__diesel_schema_migrations`, versions without dashes) is adopted
  /// for the folder's text versions.
  @Test func dieselHistoryIsAdoptedForTheFolder() throws {
    let fixture = try MigrationFixture(Self.documented)
    let db = try fixture.open()
    try db.execute(
      """
      CREATE TABLE __diesel_schema_migrations (
        version VARCHAR(50) PRIMARY KEY NOT NULL,
        run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
      );
      INSERT INTO __diesel_schema_migrations (version) VALUES ('20151219180527');
      CREATE TABLE users (id SERIAL PRIMARY KEY, name VARCHAR NOT NULL, hair_color VARCHAR);
      """
    )
    let adoption = try fixture.migrator().adopt(db, from: .diesel)
    #expect(adoption.recorded.map(\.text) == ["20151219180527"])
    #expect(try fixture.migrator().migrate(db).steps.map(\.name) == ["create_posts"])
  }
}
