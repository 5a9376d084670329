import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// sql-migrate folders with sql-migrate's own file names (ssbc/go-ssb-room's
/// roomdb/sqlite/migrations: `01-consolidated.sql`, `03-config.sql`, `03-siwssb-tokens.sql`),
/// read as rubenv/sql-migrate reads them (migrate.go: every `.sql` file, `Migration.Less`,
/// the id being the file name).
@Suite struct SQLMigrateNameTests {
  /// A sql-migrate file creating (and dropping) `table`.
  private static func file(_ table: String) -> String {
    "-- +migrate Up\nCREATE TABLE \(table) (id INTEGER PRIMARY KEY);\n"
      + "-- +migrate Down\nDROP TABLE \(table);\n"
  }

  /// The go-ssb-room shape: dashes, two files of one number, a name without a number.
  private static let roomFolder: [String: String] = [
    "01-consolidated.sql": file("members"),
    "02-notices.sql": file("notices"),
    "03-siwssb-tokens.sql": file("tokens"),
    "03-config.sql": file("config"),
    "10-later.sql": file("later"),
    "seed.sql": file("seed"),
  ]

  /// The order the real sql-migrate 1.x applied this folder in (`sql-migrate up` with a
  /// sqlite3 dbconfig.yml; `SELECT id FROM gorp_migrations ORDER BY rowid`).
  private static let sqlMigrateOrder = [
    "01-consolidated.sql", "02-notices.sql", "03-config.sql", "03-siwssb-tokens.sql",
    "10-later.sql", "seed.sql",
  ]

  private func tables(_ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'strata_%' "
        + "AND name NOT LIKE 'gorp_%' ORDER BY name"
    ).compactMap { $0[0].textValue }
  }

  @Test func namesAreVersionsInSQLMigratesOrder() throws {
    let fixture = try MigrationFixture(Self.roomFolder)
    let set = try fixture.migrator().migrations
    #expect(set.format == .sqlMigrate)
    #expect(set.versionOrdering == .sqlMigrate)
    #expect(set.migrations.map(\.version.text) == Self.sqlMigrateOrder)
    #expect(
      set.migrations.map(\.name) == [
        "consolidated", "notices", "config", "siwssb-tokens",
        "later", "seed",
      ]
    )
  }

  @Test func versionsCompareAsMigrationLess() throws {
    func id(_ text: String) throws -> MigrationVersion { try MigrationVersion(sqlMigrate: text) }
    #expect(try id("2-a.sql") < id("10-a.sql"))
    #expect(try id("03-config.sql") < id("03-siwssb-tokens.sql"))
    #expect(try id("03-a.sql") < id("3-z.sql"))
    #expect(try id("999999-z.sql") < id("a.sql"))
    #expect(try id("a.sql") < id("b.sql"))
    #expect(try id("01-consolidated") == id("01-consolidated.sql"))
    #expect(throws: MigrationVersionError.self) { try id("99999999999999999999-x.sql") }
    let json = try JSONEncoder().encode(try id("03-config.sql"))
    #expect(String(decoding: json, as: UTF8.self) == "\"03-config.sql\"")
    #expect(try JSONDecoder().decode(MigrationVersion.self, from: json) == id("03-config.sql"))
  }

  @Test func appliesRollsBackAndReappliesRecordingFileNames() throws {
    let fixture = try MigrationFixture(Self.roomFolder)
    let db = try fixture.open()
    let migrator = try fixture.migrator()
    let report = try migrator.migrate(db)
    #expect(report.steps.map(\.version.text) == Self.sqlMigrateOrder)
    let all = ["config", "later", "members", "notices", "seed", "tokens"]
    #expect(try tables(db) == all)
    let rows = try db.rows("SELECT version, kind FROM strata_migrations ORDER BY rowid")
    #expect(rows.map { $0[0].textValue ?? "" } == Self.sqlMigrateOrder)
    #expect(rows.allSatisfy { $0[1].textValue == "sql-migrate" })
    #expect(try migrator.plan(db).currentVersion.text == "seed.sql")

    try migrator.rollback(db, .version(try migrator.migrations.version("03-config")))
    #expect(try tables(db) == ["config", "members", "notices"])
    try migrator.rollback(db, .version(.zero))
    #expect(try tables(db) == [])
    try migrator.migrate(
      db,
      options: MigrateOptions(target: try migrator.migrations.version("02-notices.sql"))
    )
    #expect(try tables(db) == ["members", "notices"])
    try migrator.migrate(db)
    #expect(try tables(db) == all)
  }

  /// Folders of `<version>_<name>.sql` files with distinct numbers keep numbers as versions,
  /// as strata recorded them before; elsewhere the name rule stands.
  @Test func strataNamesKeepNumbersAndOtherFormatsKeepTheirRule() throws {
    let plain = try MigrationFixture(["1_a.sql": Self.file("a"), "2_b.sql": Self.file("b")])
    let set = try plain.migrator().migrations
    #expect(set.format == .sqlMigrate)
    #expect(set.migrations.map(\.version) == [1, 2])

    let dbmate = try MigrationFixture([
      "1_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
      "01-b.sql": "-- migrate:up\nCREATE TABLE b (x);\n",
    ])
    let error = #expect(throws: MigrationError.self) { try dbmate.migrator() }
    guard case .invalidFileName(let file)? = error else {
      Issue.record("expected invalidFileName, got \(String(describing: error))")
      return
    }
    #expect(file == "migrations/01-b.sql")

    let twice = try MigrationFixture([
      "1_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n",
      "1_b.sql": "-- +goose Up\nCREATE TABLE b (x);\n",
    ])
    #expect(throws: MigrationError.self) { try twice.migrator() }
  }

  /// Two `<version>_<name>.sql` files of one number, and version 0, which strata's rule refuses
  /// and sql-migrate runs: the folder is versioned by name, in sql-migrate's order, whether
  /// detected or named.
  @Test(arguments: [nil, MigrationFormat.sqlMigrate])
  func sharedNumbersAndZeroAreReadByName(format: MigrationFormat?) throws {
    let fixture = try MigrationFixture([
      "1_b.sql": Self.file("b"), "1_a.sql": Self.file("a"), "0_init.sql": Self.file("init"),
    ])
    let set = try MigrationSet(
      directory: fixture.dir.path("migrations"),
      displayPath: "migrations",
      format: format
    )
    #expect(set.migrations.map(\.version.text) == ["0_init.sql", "1_a.sql", "1_b.sql"])
    let db = try fixture.open()
    try Migrator(set).migrate(db)
    #expect(try tables(db) == ["a", "b", "init"])
    try Migrator(set).rollback(db, .version(.zero))
    #expect(try tables(db) == [])
  }

  /// A database strata migrated while the folder's names were all `<version>_<name>.sql`
  /// (numbers recorded) reads as applied once the folder holds sql-migrate's names; the rows
  /// are rewritten to the file names at the next run, and nothing runs twice.
  @Test func numberedHistoryReadsAsAppliedAfterTheFolderTakesNames() throws {
    let fixture = try MigrationFixture(["0001_a.sql": Self.file("a"), "2_b.sql": Self.file("b")])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(
      try db.rows("SELECT version FROM strata_migrations").map { $0[0] } == [
        .integer(1), .integer(2),
      ]
    )
    try fixture.write("03-c.sql", Self.file("c"))
    let migrator = try fixture.migrator()
    let plan = try migrator.plan(db)
    #expect(plan.migrations.map(\.state) == [.applied, .applied, .pending])
    #expect(plan.currentVersion.text == "2_b.sql")

    let report = try migrator.migrate(db)
    #expect(report.steps.map(\.version.text) == ["03-c.sql"])
    let rows = try db.rows("SELECT version, kind FROM strata_migrations ORDER BY rowid")
    #expect(rows.map { $0[0].textValue ?? "" } == ["0001_a.sql", "2_b.sql", "03-c.sql"])
    try migrator.rollback(db, .version(.zero))
    #expect(try tables(db) == [])
    try migrator.migrate(db)
    #expect(try tables(db) == ["a", "b", "c"])
  }

  /// sql-migrate's `gorp_migrations` (as sql-migrate 1.x creates it on SQLite) is adopted by
  /// file name.
  @Test func gorpMigrationsAreAdoptedByFileName() throws {
    let fixture = try MigrationFixture(Self.roomFolder)
    let db = try fixture.open()
    try db.execute(
      "CREATE TABLE IF NOT EXISTS \"gorp_migrations\" (\"id\" varchar(255) not null primary "
        + "key, \"applied_at\" datetime)"
    )
    for id in Self.sqlMigrateOrder.prefix(4) {
      try db.execute("INSERT INTO gorp_migrations VALUES ('\(id)', '2024-01-01 00:00:00')")
      try db.execute("CREATE TABLE t_\(id.filter(\.isLetter)) (x)")
    }
    let migrator = try fixture.migrator()
    let plan = try migrator.plan(db)
    #expect(plan.otherToolHistories.map(\.tool) == [.sqlMigrate])
    #expect(
      plan.migrations.map(\.state) == [
        .otherTool, .otherTool, .otherTool, .otherTool,
        .pending, .pending,
      ]
    )
    #expect(throws: ForeignHistoryError.self) { try migrator.migrate(db) }
    let adoption = try migrator.adopt(db, from: .sqlMigrate)
    #expect(adoption.recorded.map(\.text) == Array(Self.sqlMigrateOrder.prefix(4)))
    let report = try migrator.migrate(db)
    #expect(report.steps.map(\.version.text) == ["10-later.sql", "seed.sql"])
  }

  /// Where the folder's versions are numbers, a gorp id named `<version>_<name>.sql` is adopted
  /// as its number.
  @Test func gorpIDsAdoptNumbersInANumberedFolder() throws {
    let fixture = try MigrationFixture(["1_a.sql": Self.file("a"), "2_b.sql": Self.file("b")])
    let db = try fixture.open()
    try db.execute(
      "CREATE TABLE gorp_migrations (id varchar(255) not null primary key, applied_at datetime);"
        + "INSERT INTO gorp_migrations VALUES ('1_a.sql', NULL); CREATE TABLE a (id);"
    )
    let migrator = try fixture.migrator()
    #expect(try migrator.adopt(db, from: .sqlMigrate).recorded == [1])
    #expect(try migrator.migrate(db).steps.map(\.version) == [2])
  }
}
