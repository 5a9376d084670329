import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata init` takes `migrate`'s flags for how migrations apply, passed to the setup's
/// `migrateOptions` (one mapping, `MigrateOptions(applying:)`).
@Suite struct InitMigrateOptionsTests {
  /// All or none with the flag; without it, each migration before the bad one stays.
  @Test func singleTransactionAppliesAllOrNone() throws {
    let project = try Project(
      threeMigrations.merging(["0004_bad.sql": "INSERT INTO nope VALUES (1);\n"]) { $1 }
    )
    for (flags, applied) in [(["--single-transaction"], [Int64]()), ([], [1, 2, 3])] {
      let result = try StrataProcess.run(
        ["init", "--database", "app.sqlite3"] + flags,
        in: project.dir.url
      )
      #expect(result.exitCode == 1 && result.standardError.contains("0004_bad.sql"))
      #expect(try project.versions() == applied, "with \(flags)")
    }
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
