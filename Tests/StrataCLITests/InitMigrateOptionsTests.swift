import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata init` takes `migrate`'s flags for how migrations apply, passed to the setup's
/// `migrateOptions` (one mapping, `MigrateCommand.options`).
@Suite struct InitMigrateOptionsTests {
  @Test func singleTransactionAppliesAllOrNone() throws {
    var files = threeMigrations
    files["0004_bad.sql"] = "-- migrate:up\nINSERT INTO nope VALUES (1);\n"
    let project = try Project(files)
    let all = try project.strata("init", "--database", "app.sqlite3", "--single-transaction")
    #expect(all.exitCode == 1)
    #expect(all.standardError.contains("0004_bad.sql"))
    #expect(try project.versions() == [])
    let each = try project.strata("init", "--database", "app.sqlite3")
    #expect(each.exitCode == 1)
    #expect(try project.versions() == [1, 2, 3])
  }

  @Test func allowUnknownRunsOnANewerDatabase() throws {
    let project = try Project(threeMigrations)
    #expect(try project.strata("init", "--database", "app.sqlite3").exitCode == 0)
    try FileManager.default.removeItem(at: project.dir.path("migrations/0003_c.sql"))
    let refused = try project.strata("init", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    #expect(refused.standardError.contains("that this app does not know"))
    let accepted = try project.strata("init", "--database", "app.sqlite3", "--allow-unknown")
    #expect(accepted.exitCode == 0, "\(accepted.standardError)")
    #expect(accepted.standardOutput.contains("is up to date at version 3"))
  }

  @Test func allowChangedAcceptsAnEditedMigration() throws {
    let project = try Project(threeMigrations)
    #expect(try project.strata("init", "--database", "app.sqlite3").exitCode == 0)
    try project.write("0003_c.sql", "-- migrate:up\nCREATE TABLE c (x, y);\n")
    #expect(try project.strata("init", "--database", "app.sqlite3").exitCode == 1)
    let accepted = try project.strata("init", "--database", "app.sqlite3", "--allow-changed")
    #expect(accepted.exitCode == 0, "\(accepted.standardError)")
  }
}
