import Foundation
import StrataTestSupport
import Testing

/// The CLI puts its flag words into the library's help (`LibraryWordsTests` checks the library
/// has none): in the error's help, in `status`'s warnings and in `validate`'s problems.
@Suite struct CommandLineHelpTests {
  @Test func outOfOrderNamesTheFlagInMigrateStatusAndValidate() throws {
    let project = try Project(["0001_a.sql": "CREATE TABLE a (x);", "0003_c.sql": "SELECT 1;"])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    try project.write("0002_b.sql", "CREATE TABLE b (x);")
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1)
    #expect(
      migrate.standardError.contains("or pass --allow-out-of-order to apply it anyway"),
      "\(migrate.standardError)"
    )
    let status = try project.strata("status", "--database", "app.sqlite3")
    #expect(status.standardOutput.contains("--allow-out-of-order"), "\(status.standardOutput)")
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 1)
    #expect(validate.standardError.contains("--allow-out-of-order"), "\(validate.standardError)")
    let json = try project.strata("validate", "--database", "app.sqlite3", "--format", "json")
    #expect(json.standardOutput.contains("--allow-out-of-order"), "\(json.standardOutput)")
    #expect(!json.standardOutput.contains("MigrateOptions"), "\(json.standardOutput)")
  }

  @Test func mixedFormatsNameMigrationFormat() throws {
    let project = try Project([
      "00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n",
      "00002_b.sql": "-- +migrate Up\nCREATE TABLE b (x);\n",
    ])
    let result = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("or pass --migration-format NAME to read every file"),
      "\(result.standardError)"
    )
  }

  @Test func singleTransactionNamesTheFlag() throws {
    let project = try Project([
      "0001_v.sql": "-- migrate:up transaction:false\nVACUUM;\n"
    ])
    let result = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--single-transaction"
    )
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("Help: Run without --single-transaction."))
  }

  @Test func seedReplaceOfAReferencedTableNamesModeAndForce() throws {
    let project = try Project([
      "0001_a.sql": "CREATE TABLE p (id INTEGER PRIMARY KEY);\n"
        + "CREATE TABLE c (p INTEGER REFERENCES p(id) ON DELETE CASCADE);\n"
    ])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    try project.dir.write("p.csv", "id\n1\n")
    let result = try project.strata(
      "seed",
      "p.csv",
      "--database",
      "app.sqlite3",
      "--mode",
      "replace"
    )
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "Help: Use --mode upsert or --mode missing, or pass --force to replace anyway."
      ),
      "\(result.standardError)"
    )
  }
}
