import Foundation
import Strata
import StrataTestSupport
import Testing

/// Version 0 means "no migration applied", so no file may have it; and `strata new` makes the
/// file's name durable, not only its content.
@Suite struct VersionZeroAndNewTests {
  /// `0_a.sql` was applied as version 0, after which `rollback --to 0` said "now at version 0"
  /// with it still applied.
  @Test(arguments: ["0_a.sql", "0000_a.sql", "00_a.up.sql"])
  func versionZeroIsRefusedNamingTheFile(name: String) throws {
    let project = try Project([
      name: "CREATE TABLE a (x);\n", "0001_b.sql": "CREATE TABLE b (x);\n",
    ])
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    #expect(migrate.exitCode == 1, "\(migrate.standardOutput)")
    #expect(
      migrate.standardError.contains("migrations/\(name): version 0 is not a migration version"),
      "\(migrate.standardError)"
    )
    #expect(migrate.standardError.contains("Versions start at 1"), "\(migrate.standardError)")
    let exists = FileManager.default.fileExists(atPath: project.database.path)
    #expect(try (exists ? DatabaseProbe.tables(project.database) : []).isEmpty)
    let validate = try project.strata("validate", "--database", "app.sqlite3")
    #expect(validate.exitCode == 1)
  }

  @Test func newOnAnEmptyFolderStillWritesVersionOne() throws {
    let project = try Project()
    let result = try project.strata("new", "first")
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput == "Created migrations/0001_first.sql\n")
    let missing = try TemporaryDirectory()
    let created = try StrataProcess.run(
      ["new", "first", "--migrations", "db/migrations"],
      in: missing.url
    )
    #expect(created.exitCode == 0, "\(created.standardError)")
    #expect(
      FileManager.default.fileExists(atPath: missing.path("db/migrations/0001_first.sql").path)
    )
  }

  /// Seen from the system calls of the real binary, under `strace`: after the new file is
  /// created, the migrations folder is opened and synced.
  // Not under a sanitizer (`.ci/sanitize`): its runtime refuses to run traced by strace.
  @Test(.straceInstalled, .notUnderSanitizer)
  func newSyncsTheFolderThatHoldsTheName() throws {
    let project = try Project(threeMigrations)
    let trace = SystemCallTrace(file: project.dir.path("trace.txt"))
    let result = try trace.run(["new", "add_email"], in: project.dir.url)
    try #require(result.exitCode == 0, "\(result.standardError)")
    let lines = try trace.lines()
    let folder = project.dir.url.resolvingSymlinksInPath().path + "/migrations"
    let created = try #require(
      lines.lastIndex {
        ($0.hasPrefix("openat(") || $0.hasPrefix("link") || $0.hasPrefix("rename"))
          && $0.contains("\(folder)/0004_add_email.sql\"")
      },
      "the new file does not appear in \(lines.suffix(20))"
    )
    let synced = SystemCallTrace.syncsFolder(folder, in: lines[created...])
    #expect(synced, "the migrations folder was not synced after \(lines[created])")
  }
}
