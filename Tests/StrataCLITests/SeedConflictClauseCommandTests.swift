import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata seed` on a schema that declares its own conflict resolution: the real binary never
/// lets `UNIQUE ON CONFLICT REPLACE` delete a row, nor `NOT NULL ON CONFLICT REPLACE` overwrite
/// a value with the default, and says which line it refused.
@Suite struct SeedConflictClauseCommandTests {
  static let migration = """
    -- migrate:up
    CREATE TABLE person (
      id    INTEGER PRIMARY KEY,
      email TEXT UNIQUE ON CONFLICT REPLACE,
      name  TEXT NOT NULL ON CONFLICT REPLACE DEFAULT 'anon'
    );
    INSERT INTO person VALUES (1, 'ann@example.com', 'Ann'), (2, 'ben@example.com', 'Ben');

    -- migrate:down
    DROP TABLE person;
    """

  static let existing: [[SQLValue]] = [
    [.integer(1), .text("ann@example.com"), .text("Ann")],
    [.integer(2), .text("ben@example.com"), .text("Ben")],
  ]

  func project(seed csv: String) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_person.sql", Self.migration)
    try folder.write("seeds/person.csv", csv)
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

  func people(_ folder: TemporaryDirectory) throws -> [[SQLValue]] {
    try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT * FROM person ORDER BY id")
  }

  @Test(arguments: ["missing", "upsert", "append"])
  func aNewRowThatCollidesOnAReplaceConstraintIsRefusedAndNoRowIsDeleted(mode: String) throws {
    let folder = try project(seed: "id,email,name\n3,cat@example.com,Cat\n4,ann@example.com,Dan\n")
    let result = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3", "--mode", mode],
      in: folder.url
    )
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains(
        "Error: seeds/person.csv:3:3: UNIQUE constraint failed: person.email"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("nothing was seeded; the database is unchanged"))
    #expect(!result.standardOutput.contains("inserted"))
    #expect(try people(folder) == Self.existing)
  }

  @Test func anUpsertWithAnEmptyNameIsRefusedRatherThanStoringTheDefault() throws {
    let folder = try project(seed: "id,email,name\n1,ann@example.com,\n")
    let result = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3", "--mode", "upsert"],
      in: folder.url
    )
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains(
        "Error: seeds/person.csv:2:19: NOT NULL constraint failed: person.name"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("Help: An unquoted empty field is NULL"))
    #expect(try people(folder) == Self.existing)
  }

  /// `replace` is asked to empty the table, and still inserts exactly the file's rows.
  @Test func replaceEmptiesTheTableThenInsertsExactlyTheFilesRows() throws {
    let folder = try project(seed: "id,email,name\n3,ann@example.com,Ann\n")
    let result = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3", "--mode", "replace"],
      in: folder.url
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try people(folder) == [[.integer(3), .text("ann@example.com"), .text("Ann")]])
    let twice = try project(seed: "id,email,name\n3,cat@example.com,Cat\n4,cat@example.com,Dan\n")
    let refused = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3", "--mode", "replace"],
      in: twice.url
    )
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError.contains(
        "seeds/person.csv:3:3: UNIQUE constraint failed: person.email"
      ),
      "\(refused.standardError)"
    )
    #expect(try people(twice) == Self.existing)
  }
}
