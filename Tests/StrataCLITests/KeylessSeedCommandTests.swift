import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata seed --mode sync` and `strata init` on a table without a key, end to end: the real
/// binary, the rows, the exit code and the report.
@Suite struct KeylessSeedCommandTests {
  func strata(_ arguments: String..., in folder: TemporaryDirectory) throws -> ProcessResult {
    try StrataProcess.run(arguments, in: folder.url)
  }

  /// A project with `note(body, stars)` (or `schema`), migrated, and its seed file.
  func project(
    _ seeds: String,
    schema: String = "CREATE TABLE note (body TEXT, stars INTEGER);\n"
  ) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write("migrations/0001_note.sql", schema)
    try folder.write("seeds/note.csv", seeds)
    let migrate = try strata("migrate", "--database", "app.sqlite3", in: folder)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

  func sync(_ folder: TemporaryDirectory) throws -> ProcessResult {
    try strata("seed", "--mode", "sync", "--database", "app.sqlite3", in: folder)
  }

  func notes(
    _ folder: TemporaryDirectory,
    _ columns: String = "rowid, body, stars"
  ) throws
    -> [[SQLValue]]
  {
    try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT \(columns) FROM note ORDER BY rowid")
  }

  func user(_ folder: TemporaryDirectory, _ sql: String) throws {
    try Connection(path: folder.path("app.sqlite3").path).execute(sql)
  }

  @Test func aChangedKeylessFileSyncsAndKeepsTheUsersEdit() throws {
    let folder = try project("body,stars\nhello,1\nworld,2\nbye,4\n")
    #expect(try sync(folder).exitCode == 0)
    #expect(try sync(folder).standardOutput.contains("already loaded"))
    try user(folder, "UPDATE note SET stars = 5 WHERE body = 'world'")
    try folder.write("seeds/note.csv", "body,stars\nworld,2\nbye,4\nnew,3\n")
    let result = try sync(folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("DELETED  KEPT"), "\(result.standardOutput)")
    #expect(
      result.standardOutput.contains(
        "1 inserted, 0 updated, 1 unchanged, 1 deleted, 1 kept because the user changed or "
          + "deleted them."
      ),
      "\(result.standardOutput)"
    )
    #expect(
      try notes(folder) == [
        [.integer(2), .text("world"), .integer(5)], [.integer(3), .text("bye"), .integer(4)],
        [.integer(4), .text("new"), .integer(3)],
      ]
    )
  }

  @Test func twoIdenticalLinesAreTwoRowsAndRemovingOneDeletesOne() throws {
    let folder = try project("body,stars\nhi,1\nhi,1\n")
    #expect(try sync(folder).exitCode == 0)
    #expect(try notes(folder, "count(*)") == [[.integer(2)]])
    try folder.write("seeds/note.csv", "body,stars\nhi,1\n")
    let result = try sync(folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("0 inserted, 0 updated, 1 unchanged, 1 deleted"))
    #expect(try notes(folder) == [[.integer(1), .text("hi"), .integer(1)]])
  }

  /// The app's update drops a column from the file: the rows are matched on the columns left.
  @Test func initSyncsAFileWhoseHeaderLostAColumn() throws {
    let folder = try project(
      "body,stars\nhello,1\nworld,2\n",
      schema: "CREATE TABLE note (body TEXT, stars INTEGER);\n"
    )
    let first = try strata("init", "--database", "app.sqlite3", in: folder)
    #expect(first.exitCode == 0, "\(first.standardError)")
    try user(folder, "UPDATE note SET stars = 9 WHERE body = 'world'")
    try folder.write("seeds/note.csv", "body\nhello\nworld\nnew\n")
    let second = try strata("init", "--database", "app.sqlite3", in: folder)
    #expect(second.exitCode == 0, "\(second.standardError)")
    #expect(
      try notes(folder) == [
        [.integer(1), .text("hello"), .integer(1)], [.integer(2), .text("world"), .integer(9)],
        [.integer(3), .text("new"), .null],
      ]
    )
  }

  /// Bob's line leaves the file but the user's pet references Bob: kept, no orphan, exit 0.
  @Test func aRowThatLeftTheFileButAChildReferencesIsKept() throws {
    let folder = try project(
      "name\nAnn\nBob\n",
      schema: "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);\n"
        + "CREATE TABLE pet (name TEXT, owner INTEGER REFERENCES person (id));\n"
    )
    try FileManager.default.moveItem(
      at: folder.path("seeds/note.csv"),
      to: folder.path("seeds/person.csv")
    )
    #expect(try strata("init", "--database", "app.sqlite3", in: folder).exitCode == 0)
    try user(folder, "INSERT INTO pet VALUES ('Rex', 2)")
    try folder.write("seeds/person.csv", "name\nAnn\n")
    let result = try strata("init", "--database", "app.sqlite3", in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT id, name FROM person ORDER BY id")
        == [[.integer(1), .text("Ann")], [.integer(2), .text("Bob")]]
    )
  }

  /// A database seeded by strata 0.4.0 (no columns recorded) whose file's header changed
  /// width: the one case strata cannot sync. Exit 1, the header's line, nothing changed.
  @Test func a040LedgerAndAHeaderOfAnotherWidthFailsWithItsLineAndHelp() throws {
    let folder = try project(
      "body,stars,mood\nhello,1,ok\n",
      schema: "CREATE TABLE note (body TEXT, stars INTEGER, mood TEXT);\n"
    )
    try user(
      folder,
      """
      INSERT INTO note (body, stars) VALUES ('hello', 1);
      CREATE TABLE strata_seeds (file TEXT NOT NULL, checksum TEXT NOT NULL,
        table_name TEXT NOT NULL, mode TEXT NOT NULL, rows_inserted INTEGER NOT NULL,
        rows_updated INTEGER NOT NULL, applied_at TEXT NOT NULL, options TEXT NOT NULL DEFAULT '');
      INSERT INTO strata_seeds VALUES ('note.csv', 'old', 'note', 'sync', 1, 0, '2026-01-01', '');
      CREATE TABLE strata_seed_rows (table_name TEXT NOT NULL, file TEXT NOT NULL, key NOT NULL,
        row_values TEXT, PRIMARY KEY (table_name, file, key)) WITHOUT ROWID;
      INSERT INTO strata_seed_rows VALUES ('note', 'note.csv', 1, '''hello'',1');
      """
    )
    for result in [try sync(folder), try strata("init", "--database", "app.sqlite3", in: folder)] {
      #expect(result.exitCode == 1)
      #expect(
        result.standardError.contains(
          "Error: seeds/note.csv:1: the header's columns changed since the file was seeded into "
            + "note by an earlier strata"
        ),
        "\(result.standardError)"
      )
      #expect(result.standardError.contains("Help: Give the file the header it had"))
    }
    #expect(try notes(folder, "count(*)") == [[.integer(1)]])
  }
}
