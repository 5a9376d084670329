import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Issue 11: each folder format read as its own tool reads it (fixtures written from the tools'
/// documentation and parsers), applied, rolled back and applied again.
@Suite struct MigrationFormatTests {
  private func set(
    _ fixture: MigrationFixture,
    format: MigrationFormat? = nil
  ) throws
    -> MigrationSet
  {
    try MigrationSet(
      directory: fixture.dir.path("migrations"),
      displayPath: "migrations",
      format: format
    )
  }

  private func objects(_ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT name FROM sqlite_master WHERE name NOT LIKE 'strata_%' "
        + "AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { $0[0].textValue }
  }

  /// Applies every migration, rolls all back, applies again; returns the objects after each.
  private func roundTrip(_ fixture: MigrationFixture) throws -> [[String]] {
    let db = try fixture.open()
    let migrator = Migrator(try set(fixture))
    try migrator.migrate(db)
    let applied = try objects(db)
    try migrator.rollback(db, .version(0))
    let rolledBack = try objects(db)
    try migrator.migrate(db)
    return [applied, rolledBack, try objects(db)]
  }

  // MARK: dbmate

  /// dbmate's several sections: the ups in order, the downs in reverse (dropping the table
  /// first would make the index's drop fail), one migration.
  @Test func dbmateSectionsApplyInOrderAndRollBackInReverse() throws {
    let fixture = try MigrationFixture([
      "0001_people.sql": """
      --migrate:up
      CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
      -- migrate:down
      DROP TABLE person;
      -- migrate:up
      CREATE INDEX person_name ON person (name);
      -- migrate:down
      DROP INDEX person_name;

      """
    ])
    let loaded = try set(fixture)
    #expect(loaded.format == .dbmate)
    #expect(loaded.migrations.count == 1)
    #expect(loaded.migrations[0].up.firstLine == 2)
    #expect(try roundTrip(fixture) == [["person", "person_name"], [], ["person", "person_name"]])
  }

  @Test func dbmateFileFailsAsAWhole() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"
        + "-- migrate:up\nCREATE TABLE a (y);\n-- migrate:down\nSELECT 1;\n"
    ])
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) { try Migrator(try set(fixture)).migrate(db) }
    guard case .failed(_, let file, let line, _)? = error?.underlyingFailure else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(file == "migrations/0001_a.sql" && line == 6)
    #expect(try objects(db).isEmpty)
  }

  @Test func dbmateSectionsMustAgreeOnTransactions() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:up transaction:false\nVACUUM;\n"
    ])
    let error = #expect(throws: MigrationError.self) { try set(fixture) }
    guard case .invalidMarker(_, 3, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(reason.contains("differ in 'transaction:false'"))
  }

  // MARK: goose

  static let gooseFile = """
    -- +goose Up
    CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT, updated INTEGER);
    -- +goose statementbegin
    CREATE TRIGGER post_touch AFTER UPDATE OF title ON post BEGIN
      UPDATE post SET updated = 1 WHERE id = NEW.id;
    END;
    -- +goose StatementEnd

    -- +goose Down
    DROP TRIGGER post_touch;
    DROP TABLE post;

    """

  @Test func gooseFileAppliesRollsBackAndReapplies() throws {
    let fixture = try MigrationFixture([
      "00001_post.sql": Self.gooseFile,
      "00002_tag.sql": "-- +goose UP\n-- +goose NO TRANSACTION\nCREATE TABLE tag (name TEXT);\n"
        + "-- +goose DOWN\nDROP TABLE tag;\n",
    ])
    let loaded = try set(fixture)
    #expect(loaded.format == .goose)
    #expect(!loaded.migrations[0].up.sql.contains("DROP"))
    #expect(loaded.migrations[0].down?.firstLine == 10)
    #expect(loaded.migrations[1].up.isTransactional == false)
    #expect(loaded.migrations[1].down?.isTransactional == false)
    #expect(
      try roundTrip(fixture) == [
        ["post", "post_touch", "tag"], [], ["post", "post_touch", "tag"],
      ]
    )
    let db = try fixture.open()
    try db.execute("INSERT INTO post (title) VALUES ('a'); UPDATE post SET title = 'b'")
    #expect(try db.rows("SELECT updated FROM post")[0][0] == .integer(1))
  }

  @Test(arguments: [
    ("-- +goose Up\n-- +goose ENVSUB ON\nCREATE TABLE t (x);\n", 2, "ENVSUB ON"),
    ("CREATE TABLE t (x);\n-- +goose Up\n", 1, "SQL before '-- +goose Up'"),
    ("-- +goose Up\nCREATE TABLE t (x);\n-- +goose Up\n", 3, "a second '-- +goose Up'"),
    (" -- +goose Up\nCREATE TABLE t (x);\n", 1, "starts with white space"),
    ("-- +goose Up\n-- +goose Sideways\n", 2, "is not a goose annotation"),
    ("-- +goose Up\n-- +goose StatementBegin\nSELECT 1;\n", 2, "has no StatementEnd"),
    ("-- +goose Up\nCREATE TABLE t (x);\n-- migrate:down\nDROP TABLE t;\n", 3, "dbmate"),
  ])
  func gooseRefusals(content: String, line: Int, words: String) throws {
    let fixture = try MigrationFixture(["00001_t.sql": content])
    let error = #expect(throws: MigrationError.self) { try set(fixture, format: .goose) }
    guard case .formatProblem(let file, let at, .goose, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(file == "migrations/00001_t.sql" && at == line)
    #expect(reason.contains(words), "\(reason)")
  }

  // MARK: sql-migrate

  @Test func sqlMigrateFileAppliesRollsBackAndReapplies() throws {
    let fixture = try MigrationFixture([
      "1_post.sql": """
      -- +migrate Up notransaction
      CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT);
      -- +migrate StatementBegin
      CREATE TRIGGER post_title AFTER INSERT ON post BEGIN
        UPDATE post SET title = upper(NEW.title) WHERE id = NEW.id;
      END;
      -- +migrate StatementEnd
      -- +migrate Down
      DROP TABLE post;

      """
    ])
    let loaded = try set(fixture)
    #expect(loaded.format == .sqlMigrate)
    #expect(loaded.migrations[0].up.isTransactional == false)
    #expect(loaded.migrations[0].down?.isTransactional == true)
    #expect(try roundTrip(fixture) == [["post", "post_title"], [], ["post", "post_title"]])
  }

  @Test(arguments: [
    ("CREATE TABLE t (x);\n-- +migrate Up\nSELECT 1;\n", 1, "SQL before the first"),
    ("-- +migrate Up\nSELECT 1;\n-- +migrate up\n", 3, "unknown command"),
    ("-- +migrate Up sometimes\nSELECT 1;\n", 1, "unknown option 'sometimes'"),
    ("-- nothing\n", 1, "no '-- +migrate Up'"),
  ])
  func sqlMigrateRefusals(content: String, line: Int, words: String) throws {
    let fixture = try MigrationFixture(["1_t.sql": content])
    let error = #expect(throws: MigrationError.self) { try set(fixture, format: .sqlMigrate) }
    guard case .formatProblem(_, let at, .sqlMigrate, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(at == line && reason.contains(words), "\(reason)")
  }

  // MARK: sqlx, golang-migrate, bundles

  @Test func sqlxFolderWithNoTransactionAndPairs() throws {
    let fixture = try MigrationFixture([
      "20240101000000_a.sql": "-- no-transaction\nCREATE TABLE a (x);\n",
      "20240102000000_b.up.sql": "CREATE TABLE b (x);\n",
      "20240102000000_b.down.sql": "DROP TABLE b;\n",
    ])
    let loaded = try set(fixture)
    #expect(loaded.format == .sqlx)
    #expect(loaded.migrations[0].up.isTransactional == false)
    #expect(loaded.migrations[0].down == nil)
    let db = try fixture.open()
    let migrator = Migrator(loaded)
    try migrator.migrate(db)
    try migrator.rollback(db)
    #expect(try objects(db) == ["a"])
    try migrator.migrate(db)
    #expect(try objects(db) == ["a", "b"])
  }

  /// sqlx's option is `-- no-transaction` exactly; without the space it is a comment to sqlx,
  /// and the message says that, not that the line is misplaced.
  @Test func sqlxOptionWithoutItsSpaceIsNamedForWhatItIs() throws {
    let fixture = try MigrationFixture([
      "1_a.up.sql": "--no-transaction\nCREATE TABLE a (x);\n", "1_a.down.sql": "DROP TABLE a;\n",
    ])
    let error = #expect(throws: MigrationError.self) {
      try MigrationSet(
        directory: fixture.dir.path("migrations"),
        displayPath: "migrations",
        format: .sqlx
      )
    }
    guard case .formatProblem(_, 1, .sqlx, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(reason.contains("only '-- no-transaction' exactly"), "\(reason)")
    #expect(!reason.contains("very start"), "\(reason)")
  }

  @Test func pairsAloneAreGolangMigrate() throws {
    let fixture = try MigrationFixture([
      "1_a.up.sql": "CREATE TABLE a (x);\n", "1_a.down.sql": "DROP TABLE a;\n",
      "2_b.up.sql": "CREATE TABLE b (x);\n", "2_b.down.sql": "DROP TABLE b;\n",
    ])
    #expect(try set(fixture).format == .golangMigrate)
    #expect(try roundTrip(fixture) == [["a", "b"], [], ["a", "b"]])
  }

  @Test func bareVersionsAreABundle() throws {
    let fixture = try MigrationFixture([
      "1.sql": "CREATE TABLE a (x);\n", "2_add_b.sql": "CREATE TABLE b (x);\n",
    ])
    let loaded = try set(fixture)
    #expect(loaded.format == .bundle)
    #expect(loaded.migrations.map(\.name) == ["", "add_b"])
    let db = try fixture.open()
    try Migrator(loaded).migrate(db)
    #expect(try objects(db) == ["a", "b"])
    let irreversible = MigrationError.irreversible(
      version: 2,
      file: "migrations/2_add_b.sql",
      format: .bundle
    )
    #expect(throws: irreversible) {
      try Migrator(loaded).rollback(db)
    }
  }

  // MARK: detection, override, mixed folders

  @Test(arguments: [
    (
      ["0001_a.sql": "-- migrate:up\nSELECT 1;\n", "0002_b.sql": "-- +goose Up\nSELECT 1;\n"],
      ["dbmate", "goose"], ["0001_a.sql", "0002_b.sql"]
    ),
    (
      ["0001_a.sql": "SELECT 1;\n", "0002_b.sql": "-- +goose Up\nSELECT 1;\n"],
      ["goose", "a file without markers"], ["0002_b.sql", "0001_a.sql"]
    ),
    (
      ["1.sql": "SELECT 1;\n", "2_b.up.sql": "SELECT 1;\n"],
      ["bundle (a bare <version>.sql)", "golang-migrate (an .up.sql/.down.sql pair)"],
      ["1.sql", "2_b.up.sql"]
    ),
    (
      ["1_a.sql": "-- +migrate Up\nSELECT 1;\n", "2_b.sql": "-- no-transaction\nSELECT 1;\n"],
      ["sql-migrate", "sqlx"], ["1_a.sql", "2_b.sql"]
    ),
  ])
  func mixedFoldersAreRefusedNamingAFileOfEach(
    files: [String: String],
    formats: [String],
    named: [String]
  ) throws {
    let fixture = try MigrationFixture(files)
    #expect(
      throws: MigrationError.mixedFormats(
        directory: "migrations",
        formats: formats,
        files: named.map { "migrations/" + $0 }
      )
    ) { try set(fixture) }
  }

  /// Naming the format reads every file as that format: a goose folder read as strata's own
  /// is refused on its first annotation, as before this issue.
  @Test func theNamedFormatOverridesDetection() throws {
    let fixture = try MigrationFixture(["00001_post.sql": Self.gooseFile])
    let error = #expect(throws: MigrationError.self) { try set(fixture, format: .dbmate) }
    guard case .invalidMarker(_, 1, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(reason.contains("is a goose marker, which strata does not read"))
    #expect(MigrationFormat(named: "strata") == .dbmate)
    #expect(MigrationFormat(named: "sql-migrate") == .sqlMigrate)
  }

  /// A goose annotation inside a strata file is still a look-alike, refused.
  @Test func gooseAnnotationInAStrataFileIsRefused() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- +goose Down\nDROP TABLE a;\n"
    ])
    let error = #expect(throws: MigrationError.self) { try set(fixture) }
    guard case .invalidMarker(_, 3, let reason)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(reason.contains("goose marker"))
  }

  // MARK: checksums

  /// The checksum strata has always recorded for its own file (BOM, CRLF) stays byte-identical.
  @Test func strataFileChecksumIsUnchanged() throws {
    let fixture = try MigrationFixture([
      "0001_person.sql": "\u{FEFF}-- migrate:up\r\nCREATE TABLE person (id INTEGER PRIMARY KEY, "
        + "name TEXT);\r\nINSERT INTO person (name) VALUES ('ada');\r\n\r\n-- migrate:down\r\n"
        + "DROP TABLE person;\r\n"
    ])
    #expect(
      try set(fixture).migrations[0].checksum
        == "3da55fa58c08b4af3697d042919a12d82cef5fbf45ae788b0cb624f7032ae422"
    )
  }

  /// The same SQL has the same checksum in every format; other SQL has another.
  @Test func sameSQLSameChecksumInEveryFormat() throws {
    let sql = "CREATE TABLE a (x);\nCREATE INDEX a_x ON a (x);"
    let folders: [[String: String]] = [
      ["0001_a.sql": "-- migrate:up\n\(sql)\n-- migrate:down\nDROP TABLE a;\n"],
      ["0001_a.up.sql": sql + "\n", "0001_a.down.sql": "DROP TABLE a;\n"],
      ["0001_a.sql": "-- +goose Up\n-- +goose StatementBegin\n\(sql)\n-- +goose StatementEnd\n"],
      ["0001_a.sql": "-- +migrate Up\n\(sql)\n-- +migrate Down\nDROP TABLE a;\n"],
      ["0001_a.sql": "-- no-transaction\n\(sql)\n"],
      ["1.sql": sql],
    ]
    let sums = try folders.map { try set(try MigrationFixture($0)).migrations[0].checksum }
    #expect(Set(sums) == [SHA256.hex(Array(sql.utf8))])
    let other = try MigrationFixture(["1.sql": sql + " -- more"])
    #expect(try set(other).migrations[0].checksum != sums[0])
  }
}
