import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata migrate --backup` and `strata restore`, run as the real binary.
@Suite struct BackupCommandTests {
  /// Three migrations applied, rows in `a`; then 0004 to 0008 pending, the third of them
  /// (0006) failing after its first statement.
  static func halfWayProject() throws -> Project {
    let project = try Project(threeMigrations)
    let first = try project.strata("migrate", "--database", "app.sqlite3")
    try #require(first.exitCode == 0, "\(first.standardError)")
    try Connection(path: project.database.path).execute(
      "INSERT INTO a VALUES (1), (2), (3); DELETE FROM a WHERE x = 2"
    )
    try project.write("0004_d.sql", "-- migrate:up\nCREATE TABLE d (x);\nDELETE FROM a;\n")
    try project.write("0005_e.sql", "-- migrate:up\nCREATE TABLE e (x);\n")
    try project.write(
      "0006_f.sql",
      "-- migrate:up\nCREATE TABLE f (x);\nINSERT INTO nowhere VALUES (1);\n"
    )
    try project.write("0007_g.sql", "-- migrate:up\nCREATE TABLE g (x);\n")
    try project.write("0008_h.sql", "-- migrate:up\nCREATE TABLE h (x);\n")
    return project
  }

  /// `strata migrate --database app.sqlite3 --to VERSION --backup`, then `more`.
  static func migrate(
    _ project: Project,
    to version: String,
    _ more: String...
  ) throws
    -> ProcessResult
  {
    let arguments = ["migrate", "--database", "app.sqlite3", "--to", version, "--backup"] + more
    return try StrataProcess.run(arguments, in: project.dir.url, environment: [:])
  }

  static func pageCount(_ project: Project) throws -> SQLValue? {
    try DatabaseProbe.rows(project.database, "PRAGMA page_count").first?.first
  }

  @Test func aRunThatStopsHalfWayIsUndoneByRestoreForce() throws {
    let project = try Self.halfWayProject()
    let before = try DatabaseFingerprint.of(project.database)
    let pages = try Self.pageCount(project)
    let migrate = try project.strata("migrate", "--database", "app.sqlite3", "--backup")
    #expect(migrate.exitCode == 1)
    let lines = migrate.standardOutput.split(separator: "\n")
    #expect(lines.first?.hasPrefix("Backed up to app.sqlite3.backup-") == true, "\(lines)")
    #expect(lines.first?.hasSuffix("-v3.backup (version 3).") == true, "\(lines)")
    #expect(try project.versions() == [1, 2, 3, 4, 5])
    // A fleet pattern for the databases does not take the backup for one of them.
    let fleet = try project.strata("status", "--databases", "*.sqlite3")
    #expect(fleet.standardOutput.contains("app.sqlite3: version 5"), "\(fleet.standardOutput)")
    #expect(!fleet.standardOutput.contains("backup"), "\(fleet.standardOutput)")

    let refused = try project.strata("restore", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    #expect(refused.standardError.contains("would undo versions 4, 5"), "\(refused.standardError)")
    #expect(try project.versions() == [1, 2, 3, 4, 5])

    let restore = try project.strata("restore", "--database", "app.sqlite3", "--force")
    #expect(restore.exitCode == 0, "\(restore.standardError)")
    #expect(restore.standardOutput.contains("into app.sqlite3: it is now at version 3."))
    #expect(restore.standardOutput.contains("Undone: version(s) 4, 5."))
    #expect(try DatabaseFingerprint.of(project.database) == before)
    #expect(try Self.pageCount(project) == pages)
  }

  @Test func refusedRestoreLeavesEveryByteOfTheDatabase() throws {
    let project = try Self.halfWayProject()
    _ = try project.strata("migrate", "--database", "app.sqlite3", "--backup")
    let bytes = try Data(contentsOf: project.database)
    let refused = try project.strata("restore", "--database", "app.sqlite3", "--format", "json")
    #expect(refused.exitCode == 1)
    #expect(try Data(contentsOf: project.database) == bytes)
  }

  @Test func listShowsTheBackupsNewestFirstAndJSONNamesTheBackup() throws {
    let project = try Project(threeMigrations)
    let empty = try project.strata("restore", "--database", "app.sqlite3", "--list")
    #expect(empty.standardOutput == "No backups of app.sqlite3.\n")
    var written: [String] = []
    for version in ["1", "2"] {
      let run = try Self.migrate(project, to: version, "--format", "json")
      #expect(run.exitCode == 0, "\(run.standardError)")
      let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
      written.append(try #require((object as? [String: Any])?["backup"] as? String))
    }
    #expect(written[0].hasSuffix("-v0.backup") && written[1].hasSuffix("-v1.backup"))
    let list = try project.strata("restore", "--database", "app.sqlite3", "--list")
    let lines = list.standardOutput.split(separator: "\n")
    #expect(lines.count == 3, "\(list.standardOutput)")
    #expect(lines.first?.hasPrefix("VERSION") == true)
    #expect(lines[1].hasPrefix("1 ") && lines[1].hasSuffix(written[1]))
    #expect(lines[2].hasPrefix("0 ") && lines[2].hasSuffix(written[0]))
    let upToDate = try project.strata(
      "migrate",
      "--database",
      "app.sqlite3",
      "--to",
      "2",
      "--backup"
    )
    #expect(!upToDate.standardOutput.contains("Backed up"))
  }

  @Test func keepBackupsKeepsTheNewest() throws {
    let project = try Project(threeMigrations)
    for version in ["1", "2", "3"] {
      let run = try Self.migrate(project, to: version, "--keep-backups", "2")
      #expect(run.exitCode == 0, "\(run.standardError)")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: project.dir.url.path)
      .filter { $0.hasPrefix("app.sqlite3.backup-") }.sorted()
    #expect(
      names.count == 2 && names[0].hasSuffix("-v1.backup") && names[1].hasSuffix("-v2.backup")
    )
  }

  @Test func aMissingOrNonSQLiteBackupFailsAndNoBackupsIsAnError() throws {
    let project = try Project(threeMigrations)
    _ = try project.strata("migrate", "--database", "app.sqlite3")
    let none = try project.strata("restore", "--database", "app.sqlite3")
    #expect(none.exitCode == 1)
    #expect(none.standardError.contains("no backup of"))
    let missing = try project.strata("restore", "gone.sqlite3", "--database", "app.sqlite3")
    #expect(missing.exitCode == 1)
    #expect(missing.standardError.contains("gone.sqlite3 does not exist"))
    _ = try project.dir.write("notes.txt", "plain text, not a database\n")
    let text = try project.strata("restore", "notes.txt", "--database", "app.sqlite3")
    #expect(text.exitCode == 1)
    #expect(text.standardError.contains("is not an SQLite database"))
  }

  /// Without `--backup` nothing is kept or pruned, so `--keep-backups` alone is a mistake to
  /// say, not to ignore; nothing is opened or created.
  @Test func keepBackupsWithoutBackupIsAUsageError() throws {
    let project = try Project(threeMigrations)
    let run = try project.strata("migrate", "--database", "app.sqlite3", "--keep-backups", "2")
    #expect(run.exitCode == 64)
    #expect(run.standardError.contains("--keep-backups needs --backup"), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("app.sqlite3").path))
  }

  @Test func backupWithManyDatabasesIsAUsageError() throws {
    let project = try Project(threeMigrations)
    let run = try project.strata("migrate", "--databases", "*.sqlite3", "--backup")
    #expect(run.exitCode == 64)
    #expect(run.standardError.contains("--backup cannot be used with --databases"))
    let list = try project.strata("restore", "--list", "--force")
    #expect(list.exitCode == 64)
  }
}
