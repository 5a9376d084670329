import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A part with no SQL is a deliberate no-op; a part as `strata new` wrote it is refused.
@Suite struct EmptyPartTests {
  func tables(_ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'strata_%' "
        + "ORDER BY name"
    ).compactMap { $0[0].textValue }
  }

  func applied(_ db: Connection) throws -> [Int64] {
    try db.rows("SELECT version FROM strata_migrations ORDER BY version")
      .compactMap { $0[0].integerValue }
  }

  /// A comment-only up part, in every format, is applied as a no-op and recorded.
  @Test(arguments: [
    ["0001_a.sql": "CREATE TABLE a (x);", "0002_mysql_only.sql": "-- MySQL only\n"],
    [
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
      "0002_mysql_only.sql": "-- migrate:up\n-- MySQL only\n-- migrate:down\n",
    ],
    [
      "00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n",
      "00002_mysql_only.sql": "-- +goose Up\n-- MySQL only\n-- +goose Down\n",
    ],
    [
      "1_a.sql": "-- +migrate Up\nCREATE TABLE a (x);\n",
      "2_mysql_only.sql": "-- +migrate Up\n-- MySQL only\n",
    ],
    [
      "1_a.up.sql": "CREATE TABLE a (x);\n", "1_a.down.sql": "DROP TABLE a;\n",
      "2_mysql_only.up.sql": "", "2_mysql_only.down.sql": "",
    ],
    ["1_a.sql": "-- no-transaction\nCREATE TABLE a (x);\n", "2_mysql_only.sql": "-- MySQL\n"],
    ["1.sql": "CREATE TABLE a (x);\n", "2.sql": "-- MySQL only\n"],
  ])
  func anUpPartWithoutSQLIsAppliedAsANoOpAndRecorded(files: [String: String]) throws {
    let fixture = try MigrationFixture(files)
    let db = try fixture.open()
    let report = try fixture.migrator().migrate(db)
    #expect(report.steps.map(\.isNoOp) == [false, true])
    #expect(try applied(db) == [1, 2])
    #expect(try tables(db) == ["a"])
  }

  /// An empty down part (or `.down.sql`) rolls back as a no-op: the history row goes, the
  /// changes stay, and the report says so.
  @Test(arguments: [
    ["0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\n-- keep a\n"],
    ["0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\n"],
    ["00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n-- +goose Down\n"],
    ["1_a.sql": "-- +migrate Up\nCREATE TABLE a (x);\n-- +migrate Down\n"],
    ["1_a.up.sql": "CREATE TABLE a (x);\n", "1_a.down.sql": ""],
    ["1_a.up.sql": "CREATE TABLE a (x);\n", "1_a.down.sql": "-- nothing to undo\n"],
  ])
  func anEmptyDownPartRollsBackAsANoOp(files: [String: String]) throws {
    let fixture = try MigrationFixture(files)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let report = try fixture.migrator().rollback(db)
    #expect(report.steps.count == 1)
    #expect(report.steps[0].isNoOp && report.steps[0].direction == .down)
    #expect(report.toVersion == 0)
    #expect(try applied(db) == [])
    #expect(try tables(db) == ["a"])
  }

  /// A dbmate file of several sections rolls back the sections that have down SQL; an empty
  /// down section is a no-op, a section with no down marker makes the file irreversible.
  @Test func severalSectionsWithAnEmptyDownSection() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"
        + "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\n",
      "0002_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n"
        + "-- migrate:up\nCREATE TABLE d (x);\n",
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let irreversible = MigrationError.irreversible(
      version: 2,
      file: "migrations/0002_c.sql",
      format: .dbmate
    )
    #expect(throws: irreversible) {
      try fixture.migrator().rollback(db)
    }
    try fixture.write("0002_c.sql", "-- migrate:up\nCREATE TABLE c (x);\n")
    let set = try MigrationSet(directory: fixture.dir.path("migrations"), displayPath: "m")
    #expect(set.migrations[0].down?.isNoOp == false)
    #expect(set.migrations[1].down == nil)
  }

  /// An up-only migration stays irreversible.
  @Test(arguments: [
    ["0001_a.sql": "CREATE TABLE a (x);"],
    ["0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n"],
    ["1_a.up.sql": "CREATE TABLE a (x);\n"],
    ["00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n"],
  ])
  func aMigrationWithNoDownPartStaysIrreversible(files: [String: String]) throws {
    let fixture = try MigrationFixture(files)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let error = #expect(throws: MigrationError.self) { try fixture.migrator().rollback(db) }
    if case .irreversible = error {} else { Issue.record("\(String(describing: error))") }
    #expect(try applied(db) == [1])
  }

  /// What `new` writes is refused, in every format, until written; deleting the marker line
  /// with the part still empty makes the part a no-op.
  @Test(arguments: [
    ("0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"),
    ("00001_a.sql", "-- +goose Up\nCREATE TABLE a (x);\n"),
    ("1_a.sql", "-- +migrate Up\nCREATE TABLE a (x);\n"),
    ("1_a.up.sql", "CREATE TABLE a (x);\n"),
    ("1_a.sql", "-- no-transaction\nCREATE TABLE a (x);\n"),
    ("1.sql", "CREATE TABLE a (x);\n"),
  ])
  func aFileAsNewLeftItIsRefusedUntilWritten(existing: String, content: String) throws {
    let fixture = try MigrationFixture([existing: content])
    let urls = try MigrationSet.createMigrationFiles(
      in: fixture.dir.path("migrations"),
      name: "next"
    )
    let error = #expect(throws: MigrationError.self) { try fixture.migrator() }
    guard case .unwrittenPart(let file, let line, let isDown) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(file == "migrations/" + urls[0].lastPathComponent)
    #expect(!isDown)
    #expect(error?.message.contains("still the empty template strata wrote") == true)
    #expect(error?.help.contains("'-- strata:todo'") == true)
    for url in urls {
      let text = try String(contentsOf: url, encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines[line - 1].hasPrefix("-- strata:todo"), "\(text)")
      try text.replacingOccurrences(of: UnwrittenPart.line + "\n", with: "")
        .write(to: url, atomically: true, encoding: .utf8)
    }
    let migrations = try fixture.migrator().migrations.migrations
    #expect(migrations.count == 2)
    #expect(migrations[1].up.isNoOp)
  }

  /// A down part left as `new` wrote it is refused too, even with the up part written.
  @Test func anUnwrittenDownPartIsRefused() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\n-- strata:todo\n"
    ])
    #expect(
      throws: MigrationError.unwrittenPart(file: "migrations/0001_a.sql", line: 4, isDown: true)
    ) {
      try fixture.migrator()
    }
  }

  /// A file exactly as an earlier release's `new` wrote it (no marker) was never applied; it
  /// stays refused.
  @Test(arguments: [
    "-- migrate:up\n\n\n-- migrate:down\n\n", "-- migrate:up\r\n\r\n\r\n-- migrate:down\r\n\r\n",
  ])
  func aFileAsAnEarlierReleaseWroteItIsRefused(content: String) throws {
    let fixture = try MigrationFixture(["0001_a.sql": content])
    #expect(
      throws: MigrationError.unwrittenPart(file: "migrations/0001_a.sql", line: 2, isDown: false)
    ) {
      try fixture.migrator()
    }
  }

  /// The checksum of a file with SQL is what strata always recorded: the SHA-256 of its up SQL.
  @Test func checksumsOfWrittenFilesDoNotChange() throws {
    let fixture = try MigrationFixture([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\n",
      "0002_b.up.sql": "CREATE TABLE b (x);\n",
      "0002_b.down.sql": "",
    ])
    let set = try fixture.migrator().migrations
    #expect(
      set.migrations.map(\.checksum) == [
        SHA256.hex(Array("CREATE TABLE a (x);".utf8)),
        SHA256.hex(Array("CREATE TABLE b (x);".utf8)),
      ]
    )
  }
}
