import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 10, item 2: a marker strata does not read must refuse the file before anything runs,
/// instead of running the whole file (down part included) as the up part.
@Suite struct MarkerLookalikeCommandTests {
  /// A database that predates strata: a table with rows, no history.
  private static func databaseWithRows(_ project: Project) throws {
    let connection = try Connection(path: project.database.path)
    try connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    try connection.execute("INSERT INTO users (name) VALUES ('ada'), ('grace')")
  }

  @Test(arguments: [
    ("-- MIGRATE:UP", "-- MIGRATE:DOWN"),
    ("-- migrate up", "-- migrate down"),
    ("-- Migrate:Up", "-- Migrate:Down"),
  ])
  func lookalikeMarkersAreRefusedAndNothingRuns(up: String, down: String) throws {
    let project = try Project([
      "0001_users.sql": "\(up)\nCREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY);\n"
        + "\(down)\nDROP TABLE users;\n"
    ])
    try Self.databaseWithRows(project)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1, "\(migrate.standardOutput)")
    #expect(
      migrate.standardError.contains("migrations/0001_users.sql:1: "),
      "\(migrate.standardError)"
    )
    #expect(migrate.standardError.contains(up), "\(migrate.standardError)")
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM users") == 2)
    #expect(try DatabaseProbe.tables(project.database) == ["users"])

    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 1, "\(validate.standardOutput)")
    #expect(validate.standardError.contains("migrations/0001_users.sql:1: "))
  }

  /// The reviewer's case: the down part under a near-miss marker ran with the up part and
  /// dropped a table of rows; also in the `.up.sql` file of a pair.
  @Test(arguments: [
    "-- migrate :down", "-- migrate\u{FF1A}down", "--\u{00A0}migrate:down", "-- Down",
    "/* migrate:down */", "--rollback DROP TABLE users;", "-- //@UNDO", "-- down migration",
  ])
  func nearMissDownMarkersAreRefusedAndTheRowsStay(line: String) throws {
    for pair in [false, true] {
      let files =
        pair
        ? [
          "0001_users.up.sql": "CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY);\n"
            + "\(line)\nDROP TABLE users;\n",
          "0001_users.down.sql": "DROP TABLE users;\n",
        ]
        : [
          "0001_users.sql":
            "-- migrate:up\nCREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY);\n"
            + "\(line)\nDROP TABLE users;\n"
        ]
      let project = try Project(files)
      try Self.databaseWithRows(project)
      let migrate = try project.strata("migrate", "--database", "app.sqlite3")
      #expect(migrate.exitCode == 1, "\(line): \(migrate.standardOutput)")
      let location = pair ? "migrations/0001_users.up.sql:2: " : "migrations/0001_users.sql:3: "
      #expect(migrate.standardError.contains(location), "\(migrate.standardError)")
      #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM users") == 2)
      #expect(try DatabaseProbe.tables(project.database) == ["users"])
    }
  }

  @Test func otherToolsDirectivesAreRefusedWithTheirLine() throws {
    let cases = [
      ("-- +goose StatementBegin", "goose"),
      ("-- no-transaction", "sqlx"),
      ("-- atlas:txmode none", "Atlas"),
      ("---- create above / drop below ----", "tern"),
      ("-- ==== DOWN ====", "shmig"),
      ("--liquibase formatted sql", "Liquibase"),
      ("-- +micrate Down", "micrate"),
      ("-- //@UNDO", "MyBatis"),
      ("--rollback DROP TABLE a;", "Liquibase"),
    ]
    for (line, tool) in cases {
      let project = try Project([
        "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n\(line)\nDROP TABLE a;\n"
      ])
      let migrate = try project.strata("migrate", "--database", "app.sqlite3")
      #expect(migrate.exitCode == 1, "\(line)")
      #expect(
        migrate.standardError.contains("migrations/0001_a.sql:3: "),
        "\(migrate.standardError)"
      )
      #expect(migrate.standardError.contains(tool), "\(migrate.standardError)")
      let exists = FileManager.default.fileExists(atPath: project.database.path)
      #expect(try (exists ? DatabaseProbe.tables(project.database) : []).isEmpty)
    }
  }

  /// A file of an `.up.sql`/`.down.sql` pair is one part: a marker inside it is refused.
  @Test func markerInsideAnUpFileIsRefused() throws {
    let project = try Project([
      "0001_a.up.sql": "CREATE TABLE a (x);\n-- migrate:down\nDROP TABLE users;\n",
      "0001_a.down.sql": "DROP TABLE a;\n",
    ])
    try Self.databaseWithRows(project)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1)
    #expect(
      migrate.standardError.contains("migrations/0001_a.up.sql:2: "),
      "\(migrate.standardError)"
    )
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM users") == 2)
  }

  /// Comments that merely mention migrating, and dbmate's `--migrate:up` without a space,
  /// are not refused.
  @Test func ordinaryCommentsAndDbmateSpellingsStillWork() throws {
    let project = try Project([
      "0001_a.sql": "-- migrate the users table\n--migrate:up\n-- up to now, no users\n"
        + "-- goose is a bird\n-- +1 for this\nCREATE TABLE a (x);\n--migrate:down\nDROP TABLE a;\n"
    ])
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(try project.versions() == [1])
    let rollback = try project.strata("rollback", "--database", "app.sqlite3")
    #expect(rollback.exitCode == 0, "\(rollback.standardError)")
    #expect(try DatabaseProbe.tables(project.database) == ["strata_migrations"])
  }
}
