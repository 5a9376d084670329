import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Every message that names a marker or an option names the folder format's own.
@Suite struct FormatMessageTests {
  /// The folder of `files` read as `format`, and a fresh database (the fixture keeps its
  /// temporary folder alive).
  static func open(
    _ files: [String: String],
    format: MigrationFormat
  ) throws -> (MigrationSet, Connection, MigrationFixture) {
    let fixture = try MigrationFixture(files)
    let set = try MigrationSet(
      directory: fixture.dir.path("migrations"),
      displayPath: "migrations",
      format: format
    )
    return (set, try fixture.open(), fixture)
  }

  /// `VACUUM` in a transactional part: the help names the format's own way out of a
  /// transaction, or says the format has none; never another format's marker.
  @Test(arguments: [
    (
      MigrationFormat.dbmate, "0001_v.sql", "CREATE TABLE a (x);\nVACUUM;\n",
      "mark the part '-- migrate:up transaction:false'"
    ),
    (
      .goose, "00001_v.sql", "-- +goose Up\nCREATE TABLE a (x);\nVACUUM;\n",
      "add the line '-- +goose NO TRANSACTION' to the file"
    ),
    (
      .sqlMigrate, "1_v.sql", "-- +migrate Up\nCREATE TABLE a (x);\nVACUUM;\n",
      "mark the part '-- +migrate Up notransaction'"
    ),
    (
      .sqlx, "1_v.sql", "CREATE TABLE a (x);\nVACUUM;\n",
      "make '-- no-transaction' the file's first line"
    ),
    (
      .golangMigrate, "1_v.up.sql", "CREATE TABLE a (x);\nVACUUM;\n",
      "golang-migrate has no per-file option to run outside a transaction"
    ),
    (
      .bundle, "1.sql", "CREATE TABLE a (x);\nVACUUM;\n",
      "has no per-file option to run outside a transaction"
    ),
  ])
  func needsNoTransactionAdviceNamesTheFormatOwnOption(
    format: MigrationFormat,
    name: String,
    content: String,
    advice: String
  ) throws {
    let (set, db, fixture) = try Self.open([name: content], format: format)
    defer { withExtendedLifetime(fixture) {} }
    let error = #expect(throws: MigrationError.self) { try Migrator(set).migrate(db) }
    guard case .needsNoTransaction = error?.underlyingFailure else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(error?.runState?.format == format)
    #expect(error?.help.contains(advice) == true, "\(error?.help ?? "")")
    if format != .dbmate {
      #expect(error?.help.contains("migrate:up") == false, "\(error?.help ?? "")")
    }
  }

  /// Rolling back a migration with no down part: the help says how this format adds one.
  @Test(arguments: [
    (
      MigrationFormat.dbmate, "0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n",
      "Add a '-- migrate:down' part"
    ),
    (.goose, "00001_a.sql", "-- +goose Up\nCREATE TABLE a (x);\n", "Add a '-- +goose Down' part"),
    (
      .sqlMigrate, "1_a.sql", "-- +migrate Up\nCREATE TABLE a (x);\n",
      "Add a '-- +migrate Down' part"
    ),
    (.sqlx, "1_a.sql", "CREATE TABLE a (x);\n", "write the migration as an .up.sql/.down.sql pair"),
    (.golangMigrate, "1_a.up.sql", "CREATE TABLE a (x);\n", "Add its .down.sql file"),
    (.bundle, "1.sql", "CREATE TABLE a (x);\n", "An iOS bundle's migrations have no down part"),
  ])
  func irreversibleHelpNamesTheFormatOwnDownPart(
    format: MigrationFormat,
    name: String,
    content: String,
    advice: String
  ) throws {
    let (set, db, fixture) = try Self.open([name: content], format: format)
    defer { withExtendedLifetime(fixture) {} }
    try Migrator(set).migrate(db)
    let error = #expect(throws: MigrationError.self) { try Migrator(set).rollback(db) }
    #expect(error == .irreversible(version: 1, file: "migrations/\(name)", format: format))
    #expect(error?.help.contains(advice) == true, "\(error?.help ?? "")")
  }

  /// A dbmate marker in a file of a golang-migrate pair is that format's problem, with help
  /// that speaks of pairs, not of dbmate's markers.
  @Test func aMarkerInAPairFileIsTheFormatOwnProblem() throws {
    let fixture = try MigrationFixture([
      "1_a.up.sql": "CREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"
    ])
    let error = #expect(throws: MigrationError.self) { try fixture.migrator() }
    guard case .formatProblem(let file, let line, let format, _) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(file == "migrations/1_a.up.sql" && line == 2 && format == .golangMigrate)
    #expect(error?.message.contains("one file of an .up.sql/.down.sql pair") == true)
    #expect(error?.help.contains("migrate:up") == false)
    // Beside strata's own files the folder is strata's, and the help still speaks of pairs.
    try fixture.write("2_b.sql", "-- migrate:up\nCREATE TABLE b (x);\n")
    let mixed = #expect(throws: MigrationError.self) { try fixture.migrator() }
    #expect(mixed?.help.contains("holds one part") == true, "\(mixed?.help ?? "")")
  }

  /// A part outside a transaction inside one transaction for all: named in the format's words.
  @Test func singleTransactionNamesTheFormatOwnOption() throws {
    let fixture = try MigrationFixture([
      "00001_a.sql": "-- +goose Up\n-- +goose NO TRANSACTION\nVACUUM;\n"
    ])
    let db = try fixture.open()
    let error = #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(db, options: MigrateOptions(singleTransaction: true))
    }
    #expect(
      error?.message.contains(
        "the part is marked -- +goose NO TRANSACTION, so it cannot run inside a single transaction"
      ) == true,
      "\(error?.message ?? "")"
    )
    #expect(error?.message.contains("--single") == false)
  }
}
