import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `DatabaseBackup.restore` with a damaged backup, a damaged or missing live database, a
/// missing folder and a backup that is the database itself, on real files.
@Suite struct RestoreSafetyTests {
  /// Version 1 with 20 000 rows (some 300 pages), then a backup written by a run that
  /// applies version 2.
  static func backedUp() throws -> (MigrationFixture, backup: URL) {
    let fixture = try DatabaseBackupTests.atVersionOne()
    try fixture.open().execute(
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO t (v) SELECT printf('row %d %s', i, hex(randomblob(20))) FROM n
      """
    )
    try fixture.write("0002_u.sql", "-- migrate:up\nCREATE TABLE u (x);\n")
    let report = try fixture.migrator().migrate(
      try fixture.open(),
      options: MigrateOptions(backup: BackupPolicy())
    )
    return (fixture, try #require(report.backup).url)
  }

  /// Overwrites page `page` (1-based) of the file with `byte`.
  static func damage(_ url: URL, page: Int, with byte: UInt8 = 0xDE) throws {
    var bytes = try Data(contentsOf: url)
    let start = (page - 1) * 4096
    bytes.replaceSubrange(start..<(start + 4096), with: Data(repeating: byte, count: 4096))
    try bytes.write(to: url)
  }

  static func rootPage(_ url: URL, _ table: String) throws -> Int {
    let value = try Connection(path: url.path, mode: .readOnly)
      .scalar("SELECT rootpage FROM sqlite_master WHERE name = ?", [.text(table)])
    return Int(try #require(value?.integerValue))
  }

  static func inode(_ url: URL) throws -> NSNumber? {
    try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber
  }

  @Test(arguments: [false, true])
  func aBackupWithADamagedPageIsRefusedForcedOrNotAndNothingIsWritten(force: Bool) throws {
    let (fixture, backup) = try Self.backedUp()
    try Self.damage(backup, page: 100)
    let bytes = try Data(contentsOf: fixture.database)
    let error = #expect(throws: BackupError.self) {
      try DatabaseBackup.restore(backup, into: fixture.database, force: force)
    }
    guard case .damaged(let named, let database, let problem) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(named == backup.path && database == fixture.database.path)
    #expect(!problem.isEmpty)
    #expect(error?.message.contains("left unchanged") == true, "\(error?.message ?? "")")
    #expect(try Data(contentsOf: fixture.database) == bytes)
  }

  @Test func aTruncatedBackupIsRefusedAsDamaged() throws {
    let (fixture, backup) = try Self.backedUp()
    let whole = try Data(contentsOf: backup)
    try whole.prefix(whole.count / 2 / 4096 * 4096).write(to: backup)
    let bytes = try Data(contentsOf: fixture.database)
    let error = #expect(throws: BackupError.self) {
      try DatabaseBackup.restore(backup, into: fixture.database, force: true)
    }
    guard case .damaged = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(try Data(contentsOf: fixture.database) == bytes)
  }

  @Test func aLiveDatabaseWithADamagedHistoryIsRefusedThenRestoredWhenForced() throws {
    let (fixture, backup) = try Self.backedUp()
    let expected = try DatabaseFingerprint.of(backup)
    try Self.damage(
      fixture.database,
      page: try Self.rootPage(fixture.database, "strata_migrations")
    )
    let inode = try Self.inode(fixture.database)
    let bytes = try Data(contentsOf: fixture.database)
    let error = #expect(throws: BackupError.self) {
      try DatabaseBackup.restore(backup, into: fixture.database)
    }
    guard case .databaseUnreadable = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(try Data(contentsOf: fixture.database) == bytes)
    let report = try DatabaseBackup.restore(backup, into: fixture.database, force: true)
    #expect(report.before == .unreadable)
    #expect(report.version == 1)
    // The damaged bytes are kept beside it, where a recovery tool can still read them.
    let copy = try #require(report.damagedCopy)
    #expect(copy.lastPathComponent.hasPrefix("app.sqlite3.damaged-"))
    #expect(try Data(contentsOf: copy) == bytes)
    #expect(try DatabaseFingerprint.of(fixture.database) == expected)
    #expect(try Self.inode(fixture.database) == inode)
  }

  @Test func aLiveFileThatIsNotSQLiteIsRefusedThenRestoredInPlaceWhenForced() throws {
    let (fixture, backup) = try Self.backedUp()
    let expected = try DatabaseFingerprint.of(backup)
    var bytes = try Data(contentsOf: fixture.database)
    bytes.replaceSubrange(0..<16, with: Data("XXXXXXXXXXXXXXXX".utf8))
    try bytes.write(to: fixture.database)
    // A journal left beside the damaged file must not be played back into the restored one.
    try Data(repeating: 0xAB, count: 8192).write(to: fixture.dir.path("app.sqlite3-journal"))
    let inode = try Self.inode(fixture.database)
    let error = #expect(throws: BackupError.self) {
      try DatabaseBackup.restore(backup, into: fixture.database)
    }
    guard case .databaseUnreadable = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(try Data(contentsOf: fixture.database) == bytes)
    let report = try DatabaseBackup.restore(backup, into: fixture.database, force: true)
    #expect(report.before == .unreadable)
    #expect(try report.damagedCopy.map { try Data(contentsOf: $0) } == bytes)
    #expect(try DatabaseFingerprint.of(fixture.database) == expected)
    #expect(try Self.inode(fixture.database) == inode)
    let check = try Connection(path: fixture.database.path).scalar("PRAGMA integrity_check")
    #expect(check == .text("ok"))
  }

  @Test func aDeletedDatabaseIsCreatedFromTheBackup() throws {
    let (fixture, backup) = try Self.backedUp()
    let expected = try DatabaseFingerprint.of(backup)
    try FileManager.default.removeItem(at: fixture.database)
    let report = try DatabaseBackup.restore(backup, into: fixture.database)
    #expect(report.before == .missing)
    #expect(report.undone.isEmpty)
    #expect(try DatabaseFingerprint.of(fixture.database) == expected)
  }

  @Test func aMissingFolderIsATypedErrorForListAndRestore() throws {
    let (fixture, backup) = try Self.backedUp()
    let nowhere = fixture.dir.path("nodir/app.sqlite3")
    let error = #expect(throws: BackupError.self) { try DatabaseBackup.list(of: nowhere) }
    guard case .folderNotListed(let database, let folder, _) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(database == nowhere.path && folder == fixture.dir.path("nodir").path)
    #expect(
      throws: DatabaseOpenError.folderMissing(
        path: nowhere.path,
        folder: fixture.dir.path("nodir").path
      )
    ) {
      try DatabaseBackup.restore(backup, into: nowhere)
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.dir.path("nodir").path))
  }

  @Test func restoringTheDatabaseOntoItselfOrThroughALinkIsRefused() throws {
    let fixture = try DatabaseBackupTests.atVersionOne()
    let link = fixture.dir.path("link.sqlite3")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fixture.database)
    let bytes = try Data(contentsOf: fixture.database)
    for backup in [fixture.database, link] {
      #expect(
        throws: BackupError.isTheDatabase(backup: backup.path, database: fixture.database.path)
      ) {
        try DatabaseBackup.restore(backup, into: fixture.database, force: true)
      }
    }
    #expect(try Data(contentsOf: fixture.database) == bytes)
  }
}
