import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata init` with a seed file that fails after the migrations applied (issue 31): it exits
/// 1 with the seed error in one sentence that says the database is migrated and usable; the
/// migrations stay, the seed rows and their ledger are as before; the next run says it again.
@Suite struct InitSeedProblemTests {
  let dir: TemporaryDirectory
  var database: URL { dir.path("app.sqlite3") }

  init() throws {
    dir = try TemporaryDirectory()
    try dir.write(
      "migrations/0001_init.sql",
      "CREATE TABLE contact (id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT);\n"
        + "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age TEXT);\n"
    )
    try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n")
    try dir.write("seeds/person.csv", "id,name,age\n1,Ann,about 30\n")
  }

  func initDatabase(_ extra: String...) throws -> ProcessResult {
    try StrataProcess.run(["init", "--database", "app.sqlite3"] + extra, in: dir.url)
  }

  func seedState() throws -> [[[SQLValue]]] {
    try [
      DatabaseProbe.rows(database, "SELECT * FROM contact ORDER BY id"),
      DatabaseProbe.rows(database, "SELECT * FROM strata_seeds ORDER BY 1"),
    ]
  }

  /// Version 1 set up, and a contact of the user's own.
  func initializedVersion1() throws {
    let first = try initDatabase()
    #expect(first.exitCode == 0, "\(first.standardError)")
    try Connection(path: database.path).execute("INSERT INTO contact VALUES (100, 'Mine', '1')")
  }

  @Test func aHeaderThatLostAColumnExitsOneWithTheDatabaseMigrated() throws {
    try initializedVersion1()
    let before = try seedState()
    try dir.write(
      "migrations/0002_telephone.sql",
      "ALTER TABLE contact RENAME COLUMN phone TO telephone;\n"
    )
    try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n2,Ben,556\n")

    let result = try initDatabase()
    #expect(result.exitCode == 1)
    #expect(
      result.standardOutput.contains("Applied 1 migration(s): 2."),
      "\(result.standardOutput)"
    )
    #expect(result.standardOutput.contains("app.sqlite3 is at version 2."))
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 2 && lines.first?.hasPrefix("Error: seeds/contact.csv:1") == true)
    #expect(lines.first?.contains("phone") == true, "\(result.standardError)")
    #expect(
      lines.first?.hasSuffix(
        "no seed rows were written (the bundled data is as before this launch, and the next "
          + "launch tries again), and app.sqlite3 is at version 2 and usable, with the user's "
          + "data safe"
      ) == true,
      "\(result.standardError)"
    )
    #expect(lines.last?.hasPrefix("Help: ") == true)
    #expect(try DatabaseProbe.integer(database, "SELECT max(version) FROM strata_migrations") == 2)
    let columns = try DatabaseProbe.rows(database, "SELECT name FROM pragma_table_info('contact')")
    #expect(columns.map { $0.first?.textValue } == ["id", "name", "telephone"])
    #expect(try seedState() == before)

    // The same problem at the next run: nothing to migrate, the same error, still exit 1.
    let again = try initDatabase()
    #expect(again.exitCode == 1)
    #expect(again.standardOutput.contains("is up to date at version 2; nothing was changed."))
    #expect(again.standardError == result.standardError)
    #expect(try seedState() == before)
  }

  @Test func aValueThatNoLongerFitsExitsOneWithItsErrorAsJSON() throws {
    try initializedVersion1()
    try dir.write(
      "migrations/0002_strict_age.sql",
      """
      CREATE TABLE person_new (id INTEGER PRIMARY KEY, name TEXT, age INTEGER) STRICT;
      INSERT INTO person_new SELECT id, name, NULL FROM person;
      DROP TABLE person;
      ALTER TABLE person_new RENAME TO person;

      """
    )
    try dir.write("seeds/person.csv", "id,name,age\n1,Ann,about 30\n2,Ben,41\n")
    let before = try DatabaseProbe.rows(database, "SELECT * FROM strata_seeds ORDER BY 1")

    let result = try initDatabase("--format", "json")
    #expect(result.exitCode == 1)
    #expect(result.standardError.hasPrefix("Error: seeds/person.csv:2"), "\(result.standardError)")
    // Standard output is one JSON document, the error's, as for any failed command.
    let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let error = try #require((json as? [String: Any])?["error"] as? [String: Any])
    let message = try #require(error["message"] as? String)
    #expect(message.hasPrefix("seeds/person.csv:2"), "\(message)")
    #expect(message.hasSuffix("app.sqlite3 is at version 2 and usable, with the user's data safe"))
    #expect(try DatabaseProbe.integer(database, "SELECT max(version) FROM strata_migrations") == 2)
    #expect(
      try DatabaseProbe.rows(database, "SELECT * FROM person") == [
        [.integer(1), .text("Ann"), .null]
      ]
    )
    #expect(try DatabaseProbe.rows(database, "SELECT * FROM strata_seeds ORDER BY 1") == before)
  }
}
