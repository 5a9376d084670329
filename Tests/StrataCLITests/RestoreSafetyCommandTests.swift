import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata restore` with a damaged backup, a damaged or deleted database, a missing folder and
/// the database named as its own backup, run as the real binary.
@Suite struct RestoreSafetyCommandTests {
  /// Version 1 with 20 000 rows in `a`, then `migrate --backup` to version 3.
  static func backedUp() throws -> (Project, backup: URL) {
    let project = try Project(threeMigrations)
    let first = try project.strata("migrate", "--database", "app.sqlite3", "--to", "1")
    try #require(first.exitCode == 0, "\(first.standardError)")
    try Connection(path: project.database.path).execute(
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO a SELECT printf('row %d %s', i, hex(randomblob(20))) FROM n
      """
    )
    let run = try project.strata("migrate", "--database", "app.sqlite3", "--backup")
    try #require(run.exitCode == 0, "\(run.standardError)")
    let backup = try #require(try DatabaseBackup.list(of: project.database).first)
    return (project, backup.url)
  }

  static func damage(_ url: URL, at offset: Int, count: Int, byte: UInt8) throws {
    var bytes = try Data(contentsOf: url)
    bytes.replaceSubrange(offset..<(offset + count), with: Data(repeating: byte, count: count))
    try bytes.write(to: url)
  }

  @Test(arguments: [[], ["--force"]])
  func aDamagedBackupIsRefusedNamingItAndTheDatabaseKeepsEveryByte(more: [String]) throws {
    let (project, backup) = try Self.backedUp()
    try Self.damage(backup, at: 4096 * 100, count: 4096, byte: 0xDE)
    let bytes = try Data(contentsOf: project.database)
    let run = try StrataProcess.run(
      ["restore", "--database", "app.sqlite3"] + more,
      in: project.dir.url,
      environment: [:]
    )
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains(backup.lastPathComponent), "\(run.standardError)")
    #expect(run.standardError.contains("is damaged"), "\(run.standardError)")
    #expect(run.standardError.contains("app.sqlite3 was left unchanged"), "\(run.standardError)")
    #expect(run.standardError.contains("strata restore --list"), "\(run.standardError)")
    #expect(!run.standardError.contains("restore the file from a backup"))
    #expect(try Data(contentsOf: project.database) == bytes)
  }

  @Test func aTruncatedBackupIsRefusedAsDamaged() throws {
    let (project, backup) = try Self.backedUp()
    try Data(try Data(contentsOf: backup).prefix(3000)).write(to: backup)
    let bytes = try Data(contentsOf: project.database)
    let run = try project.strata("restore", backup.lastPathComponent, "--database", "app.sqlite3")
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains(backup.lastPathComponent), "\(run.standardError)")
    #expect(run.standardError.contains("left unchanged"), "\(run.standardError)")
    #expect(try Data(contentsOf: project.database) == bytes)
  }

  @Test func aDatabaseWhoseHeaderIsDamagedIsRestoredWithForce() throws {
    let (project, _) = try Self.backedUp()
    try Self.damage(project.database, at: 0, count: 16, byte: UInt8(ascii: "X"))
    let bytes = try Data(contentsOf: project.database)
    let refused = try project.strata("restore", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    #expect(refused.standardError.contains("cannot be read"), "\(refused.standardError)")
    #expect(refused.standardError.contains("pass --force"), "\(refused.standardError)")
    #expect(try Data(contentsOf: project.database) == bytes)
    let forced = try project.strata("restore", "--database", "app.sqlite3", "--force")
    #expect(forced.exitCode == 0, "\(forced.standardError)")
    #expect(forced.standardOutput.contains("now at version 1"), "\(forced.standardOutput)")
    #expect(
      forced.standardOutput.contains("its bytes were kept as app.sqlite3.damaged-"),
      "\(forced.standardOutput)"
    )
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM a") == 20000)
    let kept = try FileManager.default.contentsOfDirectory(
      atPath: project.database.deletingLastPathComponent().path
    ).filter { $0.hasPrefix("app.sqlite3.damaged-") }
    #expect(kept.count == 1)
    let listed = try project.strata("restore", "--list", "--database", "app.sqlite3")
    #expect(!listed.standardOutput.contains("damaged"), "\(listed.standardOutput)")
  }

  @Test func aDatabaseWithADamagedPageIsRestoredWithForce() throws {
    let (project, _) = try Self.backedUp()
    let root = try #require(
      try DatabaseProbe.integer(
        project.database,
        "SELECT rootpage FROM sqlite_master WHERE name = 'strata_migrations'"
      )
    )
    try Self.damage(project.database, at: Int(root - 1) * 4096, count: 4096, byte: 0xFF)
    let refused = try project.strata("restore", "--database", "app.sqlite3")
    #expect(refused.exitCode == 1)
    #expect(refused.standardError.contains("pass --force"), "\(refused.standardError)")
    #expect(!refused.standardError.contains("restore the file from a backup"))
    let forced = try project.strata("restore", "--database", "app.sqlite3", "--force")
    #expect(forced.exitCode == 0, "\(forced.standardError)")
    #expect(try DatabaseProbe.rows(project.database, "PRAGMA quick_check") == [[.text("ok")]])
    #expect(try project.versions() == [1])
  }

  @Test func aDeletedDatabaseIsCreatedFromItsBackup() throws {
    let (project, _) = try Self.backedUp()
    try FileManager.default.removeItem(at: project.database)
    let run = try project.strata("restore", "--database", "app.sqlite3")
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(!run.standardError.contains("strata migrate"))
    #expect(run.standardOutput.contains("now at version 1"), "\(run.standardOutput)")
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM a") == 20000)
  }

  @Test(arguments: [["--list"], [], ["some.backup"]])
  func aMissingFolderIsAClearErrorWithHelp(more: [String]) throws {
    let project = try Project(threeMigrations)
    try Connection(path: project.dir.path("some.backup").path).execute("CREATE TABLE z (x)")
    let run = try StrataProcess.run(
      ["restore", "--database", "nodir/app.sqlite3"] + more,
      in: project.dir.url,
      environment: [:]
    )
    #expect(run.exitCode == 1)
    #expect(!run.standardError.contains("NSCocoaErrorDomain"), "\(run.standardError)")
    #expect(run.standardError.contains("nodir"), "\(run.standardError)")
    #expect(run.standardError.contains("\nHelp: "), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("nodir").path))
  }

  @Test func theDatabaseNamedAsItsOwnBackupIsRefused() throws {
    let project = try Project(threeMigrations)
    _ = try project.strata("migrate", "--database", "app.sqlite3")
    try FileManager.default.createSymbolicLink(
      at: project.dir.path("link.sqlite3"),
      withDestinationURL: project.database
    )
    let bytes = try Data(contentsOf: project.database)
    for name in ["app.sqlite3", "./app.sqlite3", "link.sqlite3"] {
      let run = try project.strata("restore", name, "--database", "app.sqlite3", "--force")
      #expect(run.exitCode == 1)
      #expect(
        run.standardError.contains("is the database app.sqlite3 itself"),
        "\(run.standardError)"
      )
      #expect(!run.standardError.contains("locked"), "\(run.standardError)")
    }
    #expect(try Data(contentsOf: project.database) == bytes)
  }
}
