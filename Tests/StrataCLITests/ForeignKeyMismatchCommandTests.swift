import Foundation
import Strata
import StrataTestSupport
import Testing

/// A foreign key whose parent columns are neither a PRIMARY KEY nor UNIQUE ("foreign key
/// mismatch") is named, with the file:line that wrote it and what to do, never blamed on the
/// database file; one the database already had is not blamed on a later migration.
@Suite struct ForeignKeyMismatchCommandTests {
  @Test func aForeignKeyToAPlainColumnIsNamedAtItsLine() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
      "0002_b.sql":
        "-- migrate:up\nCREATE TABLE b (\n  id INTEGER PRIMARY KEY,\n  y REFERENCES a(x)\n);\n",
    ])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "Error: migrations/0002_b.sql:4: the foreign key b(y) REFERENCES a(x) cannot work: a(x) "
          + "is neither a's PRIMARY KEY nor UNIQUE (SQLite calls it a \"foreign key mismatch\" "
          + "and, with foreign keys on, refuses every write to b)"
      ),
      "\(result.standardError)"
    )
    #expect(
      result.standardError.contains("nothing from 2 was applied; the database is at version 1")
    )
    #expect(result.standardError.contains("can add the UNIQUE index"))
    #expect(result.standardError.contains("such as diesel, apply it as written"))
    #expect(!result.standardError.contains("writable and intact"), "\(result.standardError)")
    #expect(try project.versions() == [1])
    #expect(try !DatabaseProbe.tables(project.database).contains("b"))
    // validate says the same before anything runs.
    let validate = try project.strata("validate", "--files-only")
    #expect(validate.exitCode == 1, "\(validate.standardOutput)")
    #expect(
      (validate.standardOutput + validate.standardError).contains(
        "migrations/0002_b.sql:4"
      ),
      "\(validate.standardOutput)\(validate.standardError)"
    )
  }

  @Test func droppingTheParentsUniqueIndexIsBlamedOnThatMigration() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\nCREATE UNIQUE INDEX a_x ON a (x);\n"
        + "CREATE TABLE b (y REFERENCES a (x));\n",
      "0002_drop.sql": "-- migrate:up\n-- the index goes\nDROP INDEX a_x;\n",
    ])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/0002_drop.sql:3: the foreign key b(y) REFERENCES a(x) cannot work: a(x) is "
          + "neither a's PRIMARY KEY nor UNIQUE"
      ),
      "\(result.standardError)"
    )
    #expect(try project.versions() == [1])
    #expect(try DatabaseProbe.rows(project.database, "PRAGMA index_list(a)").count == 1)
  }

  @Test func aMismatchTheDatabaseAlreadyHadIsNotBlamedOnALaterMigration() throws {
    let project = try Project(["0001_c.sql": "-- migrate:up\nCREATE TABLE c (z);\n"])
    // As diesel left it: the foreign key was applied without a check.
    do {
      let connection = try Connection(path: project.database.path)
      try connection.execute("CREATE TABLE a (x)")
      try connection.execute("CREATE TABLE b (y REFERENCES a(x))")
    }
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try project.versions() == [1])
    // A later migration that adds a mismatch of its own is still refused.
    try project.write("0002_d.sql", "-- migrate:up\nCREATE TABLE d (w REFERENCES c(z));\n")
    let second = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(second.exitCode == 1)
    #expect(
      second.standardError.contains(
        "migrations/0002_d.sql:2: the foreign key d(w) REFERENCES c(z)"
      ),
      "\(second.standardError)"
    )
  }

  /// The first migration of a new database learns what the database held before it (nothing)
  /// by rolling back and running again: the history table it made is made again.
  @Test func aFirstMigrationLeavingOrphansOnANewDatabaseIsBlamedForThem() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (id INTEGER PRIMARY KEY);\n"
        + "CREATE TABLE b (a_id REFERENCES a(id));\nINSERT INTO b VALUES (5);\n"
    ])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("migration migrations/0001_a.sql leaves 1 new foreign key"),
      "\(result.standardError)"
    )
    #expect(!result.standardError.contains("no such table"), "\(result.standardError)")
    #expect(try project.versions() == [])
  }

  @Test func aParentWithoutAPrimaryKeyIsSaidSo() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\nCREATE TABLE b (y REFERENCES a);\n"
    ])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "migrations/0001_a.sql:3: the foreign key b(y) REFERENCES a cannot work: a has no PRIMARY "
          + "KEY, which a foreign key without parent columns refers to"
      ),
      "\(result.standardError)"
    )
    #expect(try DatabaseProbe.tables(project.database) == [])
  }

  /// Each cause SQLite folds into one "foreign key mismatch" is said as itself, with odd names
  /// quoted as SQL quotes them.
  @Test(arguments: [
    (
      "CREATE TABLE a (x);\nCREATE VIEW v AS SELECT x FROM a;\nCREATE TABLE b (y REFERENCES v(x));",
      "the foreign key b(y) REFERENCES v(x) cannot work: v is a view; a foreign key needs a table"
    ),
    (
      "CREATE TABLE a (x PRIMARY KEY);\nCREATE TABLE b (y REFERENCES a(zz));",
      "the foreign key b(y) REFERENCES a(zz) cannot work: a has no column zz"
    ),
    (
      "CREATE TABLE \"my table\" (x);\nCREATE TABLE \"b\"\"q\" (y REFERENCES \"my table\"(x));",
      "the foreign key \"b\"\"q\"(y) REFERENCES \"my table\"(x) cannot work: \"my table\"(x) is "
        + "neither \"my table\"'s PRIMARY KEY nor UNIQUE"
    ),
    (
      "CREATE TABLE a (x);\nCREATE UNIQUE INDEX ax ON a (x COLLATE NOCASE);\n"
        + "CREATE TABLE b (y REFERENCES a(x));",
      "the foreign key b(y) REFERENCES a(x) cannot work: SQLite finds no PRIMARY KEY or UNIQUE "
        + "index of a it can use for it (a UNIQUE index counts only with each column's own "
        + "collation)"
    ),
  ])
  func eachCauseIsSaid(sql: String, expected: String) throws {
    let project = try Project(["0001_a.sql": "-- migrate:up\n\(sql)\n"])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains(expected), "\(result.standardError)")
    #expect(try DatabaseProbe.tables(project.database) == [])
  }
}
