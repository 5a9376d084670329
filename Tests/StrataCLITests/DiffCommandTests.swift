import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata diff` and `strata new --from-schema` through the binary: the migration printed in
/// the folder's format, written, applied, and the refusals with their exit codes.
@Suite struct DiffCommandTests {
  static let people = """
    -- migrate:up
    CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE pet (id INTEGER PRIMARY KEY,
      owner INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE, name TEXT);
    CREATE INDEX pet_owner ON pet (owner);
    -- migrate:down
    DROP TABLE pet;
    DROP TABLE person;

    """

  static let desired = """
    CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT);
    CREATE TABLE pet (id INTEGER PRIMARY KEY,
      owner INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE, name TEXT NOT NULL DEFAULT '');
    CREATE INDEX pet_owner ON pet (owner);
    CREATE VIEW named_pets AS SELECT pet.name, person.name AS owner FROM pet JOIN person ON person.id = pet.owner;

    """

  private func project(_ desired: String = Self.desired) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_people.sql", Self.people)
    try folder.write("desired.sql", desired)
    return folder
  }

  /// The whole loop: print, write, migrate a database with rows, and then there is nothing
  /// left to change; the pets survive the rebuild of their table and their owners'.
  @Test func aMigrationIsPrintedWrittenAndApplied() throws {
    let folder = try project()
    let printed = try StrataProcess.run(["diff", "--schema", "desired.sql"], in: folder.url)
    #expect(printed.exitCode == 0, "\(printed.standardError)")
    #expect(printed.standardOutput.hasPrefix("-- migrate:up\n-- Generated from desired.sql:\n"))
    #expect(printed.standardOutput.contains("ALTER TABLE \"person\" ADD COLUMN email TEXT;"))
    #expect(printed.standardOutput.contains("\n-- migrate:down\n"))
    #expect(
      printed.standardError
        == "3 changes from desired.sql, checked on a scratch copy of the schema with sample rows "
        + "in 2 of 2 tables.\n"
    )
    let migrate = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3", "-q"],
      in: folder.url
    )
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    let database = try Connection(path: folder.path("app.sqlite3").path)
    try database.execute(
      "INSERT INTO person VALUES (1, 'Ann'); INSERT INTO pet VALUES (1, 1, 'Rex'), (2, 1, NULL);"
    )
    let new = try StrataProcess.run(
      ["new", "pet_names", "--from-schema", "desired.sql"],
      in: folder.url
    )
    #expect(new.exitCode == 0, "\(new.standardError)")
    #expect(new.standardOutput == "Created migrations/0002_pet_names.sql\n")
    let written = try String(
      contentsOf: folder.path("migrations/0002_pet_names.sql"),
      encoding: .utf8
    )
    #expect(written + "\n" == printed.standardOutput || written == printed.standardOutput)
    // The linter has nothing to say about what strata generated (it is pending here).
    let lint = try StrataProcess.run(["lint", "--database", "app.sqlite3"], in: folder.url)
    #expect(lint.exitCode == 0, "\(lint.standardOutput)")
    #expect(lint.standardOutput == "No findings in 1 pending migration\n")
    let applied = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(applied.exitCode == 0, "\(applied.standardError)")
    #expect(
      try database.rows("SELECT id, owner, name FROM pet ORDER BY id").map { $0.map(\.description) }
        == [["1", "1", "Rex"], ["2", "1", ""]]
    )
    let drift = try StrataProcess.run(
      ["inspect", "--diff", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(drift.exitCode == 0, "\(drift.standardOutput)")
    let again = try StrataProcess.run(["diff", "--schema", "desired.sql"], in: folder.url)
    #expect(again.exitCode == 0)
    #expect(again.standardOutput == "")
    #expect(
      again.standardError == "No changes: the schema already is the one desired.sql describes.\n"
    )
    let rollback = try StrataProcess.run(["rollback", "--database", "app.sqlite3"], in: folder.url)
    #expect(rollback.exitCode == 0, "\(rollback.standardError)")
    #expect(try database.scalar("SELECT count(*) FROM pet") == .integer(2))
  }

  @Test func dataLossIsRefusedWithTheRenameThatWouldExplainIt() throws {
    let folder = try project(
      Self.desired.replacingOccurrences(
        of: "name TEXT NOT NULL, email TEXT",
        with: "full_name TEXT"
      )
      .replacingOccurrences(of: "person.name AS owner", with: "person.full_name AS owner")
    )
    let refused = try StrataProcess.run(
      ["new", "x", "--from-schema", "desired.sql"],
      in: folder.url
    )
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError
        == "Error: the migration would lose data: drops column person.name. Nothing was generated.\n"
        + "Help: If it was renamed, pass --rename person.name=full_name; or to lose that data on "
        + "purpose, pass --allow-destructive.\n"
    )
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("migrations").path)
        == ["0001_people.sql"]
    )
    let renamed = try StrataProcess.run(
      ["diff", "--schema", "desired.sql", "--rename", "person.name=full_name", "-q"],
      in: folder.url
    )
    #expect(renamed.exitCode == 0, "\(renamed.standardError)")
    // A NOT NULL column renamed to a nullable one: the rebuild copies it to its new name.
    #expect(
      renamed.standardOutput.contains(
        "INSERT INTO \"new_person\" (\"id\", \"full_name\")\n  SELECT \"id\", \"name\" FROM \"person\";"
      ),
      "\(renamed.standardOutput)"
    )
    let allowed = try StrataProcess.run(
      ["diff", "--schema", "desired.sql", "--allow-destructive", "--format", "json"],
      in: folder.url
    )
    #expect(allowed.exitCode == 0, "\(allowed.standardError)")
    let report =
      try JSONSerialization.jsonObject(with: Data(allowed.standardOutput.utf8)) as? [String: Any]
    #expect(report?["destructive"] as? [String] == ["drops column person.name"])
    // The down part would have to give NOT NULL names back to rows that have none.
    #expect(report?["down"] is NSNull)
    #expect((report?["irreversibleReason"] as? String)?.contains("person.name") == true)
  }

  @Test func aViewThatDoesNotCompileIsRefusedAtItsLine() throws {
    let folder = try project(
      Self.desired.replacingOccurrences(of: "person.name AS owner", with: "person.nom AS owner")
    )
    let result = try StrataProcess.run(["diff", "--schema", "desired.sql"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.hasPrefix(
        "Error: desired.sql:5: the view named_pets does not compile (no such column: person.nom)"
      ),
      "\(result.standardError)"
    )
  }

  @Test func theFoldersFormatIsKept() throws {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/001_a.up.sql", "CREATE TABLE a (x INTEGER);\n")
    try folder.write("migrations/001_a.down.sql", "DROP TABLE a;\n")
    try folder.write("desired.sql", "CREATE TABLE a (x INTEGER, y TEXT);\n")
    let new = try StrataProcess.run(
      ["new", "add_y", "--from-schema", "desired.sql"],
      in: folder.url
    )
    #expect(new.exitCode == 0, "\(new.standardError)")
    #expect(
      new.standardOutput
        == "Created migrations/002_add_y.up.sql\nCreated migrations/002_add_y.down.sql\n"
    )
    #expect(
      try String(contentsOf: folder.path("migrations/002_add_y.up.sql"), encoding: .utf8)
        == "-- Generated from desired.sql:\n--   add column a.y\nALTER TABLE \"a\" ADD COLUMN y TEXT;\n"
    )
    let goose = try TemporaryDirectory()
    try goose.write(
      "migrations/00001_a.sql",
      "-- +goose Up\nCREATE TABLE a (x INTEGER);\n-- +goose Down\nDROP TABLE a;\n"
    )
    try goose.write(
      "desired.sql",
      "CREATE TABLE a (x INTEGER);\nCREATE TRIGGER a_x AFTER INSERT ON a BEGIN SELECT 1; END;\n"
    )
    let printed = try StrataProcess.run(["diff", "--schema", "desired.sql", "-q"], in: goose.url)
    #expect(printed.exitCode == 0, "\(printed.standardError)")
    #expect(
      printed.standardOutput
        == "-- +goose Up\n-- Generated from desired.sql:\n--   create trigger a_x\n"
        + "-- +goose StatementBegin\nCREATE TRIGGER a_x AFTER INSERT ON a BEGIN SELECT 1; END;\n"
        + "-- +goose StatementEnd\n\n-- +goose Down\nDROP TRIGGER \"a_x\";\n"
    )
    #expect(printed.standardError == "")
  }

  @Test func aDatabaseCanBeTheCurrentSchema() throws {
    let folder = try TemporaryDirectory()
    let database = try Connection(path: folder.path("app.sqlite3").path)
    try database.execute("CREATE TABLE note (body TEXT); INSERT INTO note VALUES ('x');")
    try folder.write("desired.sql", "CREATE TABLE note (body TEXT, at TEXT);\n")
    let printed = try StrataProcess.run(
      ["diff", "--schema", "desired.sql", "--database", "app.sqlite3", "--format", "json"],
      in: folder.url
    )
    #expect(printed.exitCode == 0, "\(printed.standardError)")
    let report =
      try JSONSerialization.jsonObject(with: Data(printed.standardOutput.utf8)) as? [String: Any]
    #expect(report?["changes"] as? [String] == ["add column note.at"])
    #expect(report?["up"] as? String == "ALTER TABLE \"note\" ADD COLUMN at TEXT;\n")
    #expect((report?["files"] as? [[String: Any]])?.first?["ending"] as? String == ".sql")
    // Read only: the database is as it was.
    #expect(try database.scalar("SELECT count(*) FROM pragma_table_info('note')") == .integer(1))
    let missing = try StrataProcess.run(
      ["diff", "--schema", "desired.sql", "--database", "none.sqlite3"],
      in: folder.url
    )
    #expect(missing.exitCode == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path("none.sqlite3").path))
  }

  /// A `--database` that has not applied every migration of the folder: `new --from-schema`
  /// refuses (its migration would repeat the pending one), `diff` prints and warns.
  @Test func aDatabaseBehindTheFolderIsRefusedByNewAndWarnedByDiff() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_init.sql",
      "-- migrate:up\nCREATE TABLE u (id INTEGER PRIMARY KEY, n INT);\n"
        + "-- migrate:down\nDROP TABLE u;\n"
    )
    let migrate = try StrataProcess.run(["migrate", "--database", "app.db", "-q"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    try folder.write(
      "migrations/0002_m.sql",
      "-- migrate:up\nALTER TABLE u ADD COLUMN m TEXT;\n"
        + "-- migrate:down\nALTER TABLE u DROP COLUMN m;\n"
    )
    try folder.write("d.sql", "CREATE TABLE u (id INTEGER PRIMARY KEY, n INT, m TEXT, k INT);\n")
    let new = try StrataProcess.run(
      ["new", "add_k", "--from-schema", "d.sql", "--database", "app.db"],
      in: folder.url
    )
    #expect(new.exitCode == 1)
    #expect(
      new.standardError.hasPrefix(
        "Error: app.db has not applied 1 migration of migrations (migrations/0002_m.sql), so "
          + "its schema is not the one the migrations produce"
      ),
      "\(new.standardError)"
    )
    #expect(
      new.standardError.contains(
        "Help: Run 'strata migrate --database app.db' first, or leave out --database"
      )
    )
    #expect(!FileManager.default.fileExists(atPath: folder.path("migrations/0003_add_k.sql").path))
    let printed = try StrataProcess.run(
      ["diff", "--schema", "d.sql", "--database", "app.db"],
      in: folder.url
    )
    #expect(printed.exitCode == 0, "\(printed.standardError)")
    #expect(
      printed.standardError.hasPrefix(
        "Warning: app.db has not applied 1 migration of migrations (migrations/0002_m.sql): "
      )
    )
    // Once migrated, both go ahead without a word about it.
    let caughtUp = try StrataProcess.run(["migrate", "--database", "app.db", "-q"], in: folder.url)
    #expect(caughtUp.exitCode == 0, "\(caughtUp.standardError)")
    let written = try StrataProcess.run(
      ["new", "add_k", "--from-schema", "d.sql", "--database", "app.db"],
      in: folder.url
    )
    #expect(written.exitCode == 0, "\(written.standardError)")
    #expect(!written.standardError.contains("Warning"))
    let text = try String(contentsOf: folder.path("migrations/0003_add_k.sql"), encoding: .utf8)
    #expect(text.contains("ADD COLUMN k INT") && !text.contains("ADD COLUMN m"))
  }

  @Test(arguments: [
    (["diff"], "strata diff needs the desired schema: --schema FILE"),
    (["diff", "--schema", "d.sql", "--rename", "nothing"], "--rename 'nothing': the rename"),
    (["diff", "--schema", "d.sql", "--oldest-sqlite", "2.8"], "--oldest-sqlite must be a version"),
    (["new", "x", "--rename", "a=b"], "--rename is an option of --from-schema"),
    (["new", "x", "--allow-destructive"], "--allow-destructive is an option of --from-schema"),
  ])
  func usageErrorsExit64(arguments: [String], message: String) throws {
    let folder = try project()
    let result = try StrataProcess.run(arguments, in: folder.url)
    #expect(result.exitCode == 64, "\(result.standardError)")
    #expect(result.standardError.hasPrefix("Error: \(message)"), "\(result.standardError)")
  }

  @Test func aDesiredSchemaWithAnInsertIsRefusedAtItsLine() throws {
    let folder = try project(Self.desired + "INSERT INTO person VALUES (1, 'a', NULL);\n")
    let result = try StrataProcess.run(["diff", "--schema", "desired.sql"], in: folder.url)
    #expect(result.exitCode == 1)
    #expect(result.standardError.hasPrefix("Error: desired.sql:6: `INSERT INTO person"))
    #expect(result.standardOutput == "")
  }
}
