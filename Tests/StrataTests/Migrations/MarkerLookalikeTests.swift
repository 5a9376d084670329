import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Issue 10, item 2 (second round): comment lines that read as a marker but are not strata's
/// exact `-- migrate:down` are refused with their line, in a whole file and in the up file of a
/// pair; comments that only mention migrating still pass.
@Suite struct MarkerLookalikeTests {
  static let lookalikes = [
    "-- migrate :down", "-- migrate.down", "-- migratedown", "-- migration:down",
    "-- migrate\u{FF1A}down", "--\u{00A0}migrate:down", "-- # migrate:down",
    "/* migrate:down */", "-- //@UNDO", "-- +micrate Down", "--rollback DROP TABLE person;",
    "-- Down", "-- rollback", "-- down migration", "-- MIGRATE DOWN", "-- migrate_down",
    "-- ==== DOWN ====", "-- !Downs", "-- migrate:\u{200B}down", "-- +goose NO TRANSACTION",
    "-- down part", "--changeset ada:1", "-- rollback not required", "/* down */",
    "-- Migrate:Down", "-- migrate\u{3000}down",
  ]

  static let ordinaryComments = [
    "-- migrate the users table", "-- up to now we stored names in one column",
    "-- rollback is impossible here because the data is gone", "-- goose is a bird",
    "-- +1 for this", "-- down with nulls", "-- Migration: add the person table",
    "-- the end", "-- upgrade the schema", "-- startup settings", "-- do not edit by hand",
    "-- rollback with care", "/* a block comment */", "-- migrations are numbered from 1",
    "-- undo this by hand: DROP TABLE person;", "-- ", "--", "-- -----", "-- 2024-01-01",
    "-- sql", "-- migration",
  ]

  @Test(arguments: lookalikes)
  func lookalikeInAWholeFileIsRefusedWithItsLine(line: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write(
      "m/0001_person.sql",
      "-- migrate:up\nCREATE TABLE IF NOT EXISTS person(name text);\n\(line)\nDROP TABLE person;\n"
    )
    do {
      _ = try MigrationSet(directory: dir.path("m"), displayPath: "m")
      Issue.record("'\(line)' was read as a comment")
    } catch let error as MigrationError {
      guard case .invalidMarker(let file, let number, let reason) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(file == "m/0001_person.sql")
      #expect(number == 3)
      // `-- migrate:` and a zero-width space is strata's own marker misspelled: "unknown marker".
      #expect(
        reason.contains("none of the file was run") || reason.hasPrefix("unknown marker"),
        "\(reason)"
      )
    }
  }

  @Test(arguments: lookalikes)
  func lookalikeInTheUpFileOfAPairIsRefused(line: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write(
      "m/0001_person.up.sql",
      "CREATE TABLE person(name text);\n\(line)\nDROP TABLE x;\n"
    )
    try dir.write("m/0001_person.down.sql", "DROP TABLE person;\n")
    #expect(throws: MigrationError.self) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
    do {
      _ = try MigrationSet(directory: dir.path("m"), displayPath: "m")
    } catch let error as MigrationError {
      // A folder of pairs alone is golang-migrate's: the problem is named as that format's.
      guard case .formatProblem(let file, let number, .golangMigrate, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(file == "m/0001_person.up.sql")
      #expect(number == 2)
    }
  }

  @Test func ordinaryCommentsStillPass() throws {
    let dir = try TemporaryDirectory()
    let comments = Self.ordinaryComments.joined(separator: "\n")
    try dir.write(
      "m/0001_person.sql",
      "\(comments)\n-- migrate:up\n\(comments)\nCREATE TABLE person(name text);\n"
        + "-- migrate:down\n\(comments)\nDROP TABLE person;\n"
    )
    try dir.write("m/0002_pair.up.sql", "\(comments)\nCREATE TABLE b (x);\n")
    try dir.write("m/0002_pair.down.sql", "\(comments)\nDROP TABLE b;\n")
    let set = try MigrationSet(directory: dir.path("m"), displayPath: "m")
    #expect(set.migrations.map(\.version) == [1, 2])
    #expect(set.migrations[0].down?.sql.contains("DROP TABLE person") == true)
    #expect(!set.migrations[0].up.sql.contains("\nDROP TABLE person;"))
  }

  /// strata's exact markers, with the spellings dbmate accepts, are never refused.
  @Test func exactMarkersAreNeverRefused() throws {
    let dir = try TemporaryDirectory()
    try dir.write(
      "m/0001_a.sql",
      "  --migrate:up transaction:false\nCREATE TABLE a (x);\n--\tmigrate:down   \nDROP TABLE a;\n"
    )
    let set = try MigrationSet(directory: dir.path("m"), displayPath: "m")
    #expect(set.migrations[0].down?.sql == "DROP TABLE a;\n")
  }

  /// An invisible or look-alike character is spelled out, so the message shows the difference.
  @Test func theMessageSpellsOutLookalikeCharacters() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_a.sql", "-- migrate:up\nSELECT 1;\n--\u{00A0}migrate\u{FF1A}down\n")
    #expect(
      throws: MigrationError.invalidMarker(
        file: "m/0001_a.sql",
        line: 3,
        reason: "'--<U+00A0>migrate<U+FF1A>down' looks like a marker but is not one: strata, "
          + "like dbmate, reads exactly '-- migrate:up' and '-- migrate:down' (lowercase, with "
          + "the colon, ASCII only); none of the file was run"
      )
    ) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }
}

/// A file that holds one part may carry a title naming that part (wealthfolio's diesel folder
/// opens `up.sql` with `-- Up migration` and `down.sql` with `--- Down migration`); a near miss
/// naming the other part is still refused, since it may be a section meant to start there.
@Suite struct PartTitleTests {
  @Test(arguments: [
    ("m/0001_a.up.sql", "-- Up migration\nCREATE TABLE a (x);\n"),
    ("m/0001_a.down.sql", "--- Down migration\nDROP TABLE a;\n"),
    ("m/2024-01-01-000000_a/up.sql", "-- Up migration\nCREATE TABLE a (x);\n"),
    ("m/2024-01-01-000000_a/down.sql", "-- Down migration\nDROP TABLE a;\n"),
    ("m/0001_a.sql", "-- no-transaction\n-- Up migration\nCREATE TABLE a (x);\n"),
  ])
  func aTitleNamingTheFilesOwnPartIsAComment(path: String, sql: String) throws {
    let dir = try TemporaryDirectory()
    if !path.hasSuffix("0001_a.sql") {
      let folder = path.hasPrefix("m/2024") ? "m/2024-01-01-000000_a/" : "m/0001_a."
      try dir.write(folder + "up.sql", "CREATE TABLE a (x);\n")
      try dir.write(folder + "down.sql", "DROP TABLE a;\n")
    }
    try dir.write(path, sql)
    let set = try MigrationSet(directory: dir.path("m"), displayPath: "m")
    #expect(set.migrations.count == 1)
  }

  @Test(arguments: [
    ("m/0001_a.up.sql", "-- Down migration\nDROP TABLE a;\n", 1),
    ("m/0001_a.down.sql", "CREATE TABLE b (x);\n-- Up migration\n", 2),
    ("m/2024-01-01-000000_a/up.sql", "CREATE TABLE a (x);\n-- Down migration\nDROP TABLE a;\n", 2),
  ])
  func aTitleNamingTheOtherPartIsRefused(path: String, sql: String, line: Int) throws {
    let dir = try TemporaryDirectory()
    let folder = path.hasPrefix("m/2024") ? "m/2024-01-01-000000_a/" : "m/0001_a."
    try dir.write(folder + "up.sql", "CREATE TABLE a (x);\n")
    try dir.write(folder + "down.sql", "DROP TABLE a;\n")
    try dir.write(path, sql)
    let error = #expect(throws: MigrationError.self) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
    guard case .formatProblem(let file, let number, _, _)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(file == path)
    #expect(number == line)
  }
}
