import Foundation
import Strata
import StrataTestSupport
import Testing

/// Review of issue 10, item 4: `validate` fails a migration that will certainly fail: a down
/// part that cannot run against the schema its up part leaves, and a constraint failure when
/// the replay holds every row `migrate` would meet. Through the binary.
@Suite struct ValidateCertainFailureTests {
  /// app.sqlite3 at version 1 (table a), with `rows` rows in a.
  private func project(rows: Int = 0) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n")
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    let connection = try Connection(path: folder.path("app.sqlite3").path)
    for row in 0..<rows { try connection.execute("INSERT INTO a VALUES (\(row))") }
    return folder
  }

  private static let checks = [
    ["validate", "--database", "app.sqlite3"], ["validate", "--files-only"],
  ]

  @Test(arguments: [
    ("DROP TABLEE q;", 5, "syntax error"),
    ("DROP TABLE nosuch;", 5, "no such table: nosuch"),
    ("CREATE TABLE r (z);\nINSERT INTO r SELECT y FROM q;", 6, "no such column: y"),
  ])
  func aDownPartThatCannotRunFails(down: String, line: Int, words: String) throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_b.sql",
      "-- migrate:up\nCREATE TABLE q (x);\n\n-- migrate:down\n\(down)\n"
    )
    for arguments in Self.checks {
      let result = try StrataProcess.run(arguments, in: folder.url)
      #expect(result.exitCode == 1, "\(arguments)")
      let err = result.standardError
      #expect(err.contains("migrations/0002_b.sql:\(line): the down part fails"), "\(err)")
      #expect(err.contains(words), "\(err)")
    }
  }

  @Test func aDownPartThatRunsPassesAndTheReplayGoesOnFromTheUpPart() throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_b.sql",
      "-- migrate:up\nCREATE TABLE q (x);\n-- migrate:down\nCREATE TABLE tmp (y);\n"
        + "INSERT INTO tmp SELECT x FROM q;\nDROP TABLE q;\nALTER TABLE tmp RENAME TO q2;\n"
        + "DROP TABLE q2;\n"
    )
    try folder.write("migrations/0003_c.sql", "-- migrate:up\nINSERT INTO q VALUES (1);\n")
    for arguments in Self.checks {
      let result = try StrataProcess.run(arguments, in: folder.url)
      #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
      #expect(!result.standardError.contains("not checked"), "\(result.standardError)")
    }
  }

  @Test(arguments: [
    "CREATE TABLE t2 (x CHECK (x > 0));\nINSERT INTO t2 VALUES (-1);",
    "CREATE TABLE t2 (x UNIQUE);\nINSERT INTO t2 VALUES (1), (1);",
    "CREATE TABLE t2 (x NOT NULL);\nINSERT INTO t2 SELECT NULL;",
  ])
  func aConstraintFailureOfTheReplaysOwnRowsFails(up: String) throws {
    let folder = try project()
    try folder.write("migrations/0002_b.sql", "-- migrate:up\n\(up)\n")
    for arguments in Self.checks {
      let result = try StrataProcess.run(arguments, in: folder.url)
      #expect(result.exitCode == 1, "\(arguments): \(result.standardError)")
      #expect(result.standardError.contains("migrations/0002_b.sql:3:"), "\(result.standardError)")
      #expect(result.standardError.contains("constraint failed"))
    }
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 1, "validate's verdict is migrate's")
  }

  @Test func whenTheDatabaseHoldsRowsAConstraintFailureIsOnlyNotChecked() throws {
    // The rule is conservative: once the database holds rows the replay has not, a constraint
    // failure is reported as not checked (a warning), not as a problem.
    let folder = try project(rows: 1)
    try folder.write(
      "migrations/0002_b.sql",
      "-- migrate:up\nCREATE TABLE t2 (x CHECK (x > 0));\nINSERT INTO t2 VALUES (-1);\n"
    )
    let result = try StrataProcess.run(["validate", "--database", "app.sqlite3"], in: folder.url)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardError.contains("migrations/0002_b.sql:3"))
    #expect(result.standardError.contains("not checked"))
  }
}
