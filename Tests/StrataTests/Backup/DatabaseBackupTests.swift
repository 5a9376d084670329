import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `MigrateOptions.backup` and `DatabaseBackup.restore`, on real files in a temporary folder.
@Suite struct DatabaseBackupTests {
  /// Version 1: a table with rows, some deleted again so the file has free pages.
  static let first = [
    "0001_t.sql": """
    -- migrate:up
    CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
    INSERT INTO t (v) SELECT printf('%0200d', i) FROM n;
    DELETE FROM t WHERE id > 300;
    -- migrate:down
    DROP TABLE t;
    """
  ]

  /// Five more: the third (version 4) fails after its first statement, so 2 and 3 commit.
  static let fiveMore = [
    "0002_u.sql": "-- migrate:up\nCREATE TABLE u (x);\nINSERT INTO u VALUES (2);\n",
    "0003_change.sql": "-- migrate:up\nUPDATE t SET v = 'changed';\nDELETE FROM t WHERE id < 10;\n",
    "0004_fails.sql": "-- migrate:up\nINSERT INTO u VALUES (4);\nINSERT INTO missing VALUES (1);\n",
    "0005_e.sql": "-- migrate:up\nCREATE TABLE e (x);\n",
    "0006_f.sql": "-- migrate:up\nCREATE TABLE f (x);\n",
  ]

  /// A fixture migrated to version 1.
  static func atVersionOne() throws -> MigrationFixture {
    let fixture = try MigrationFixture(first)
    try fixture.migrator().migrate(try fixture.open())
    return fixture
  }

  static func pageCount(_ url: URL) throws -> Int64? {
    try Connection(path: url.path, mode: .readOnly).scalar("PRAGMA page_count")?.integerValue
  }

  static func versions(_ url: URL) throws -> [MigrationVersion] {
    try History.read(Connection(path: url.path, mode: .readOnly)).map(\.version)
  }

  @Test func backupIsWrittenBeforeTheFirstMigrationWithTheOldRows() throws {
    let fixture = try Self.atVersionOne()
    let before = try DatabaseFingerprint.of(fixture.database)
    try fixture.write("0002_u.sql", "-- migrate:up\nDELETE FROM t;\n")
    let report = try fixture.migrator().migrate(
      try fixture.open(),
      options: MigrateOptions(backup: BackupPolicy(keep: 3))
    )
    let backup = try #require(report.backup)
    #expect(backup.version == "1")
    #expect(backup.url.lastPathComponent.hasPrefix("app.sqlite3.backup-"))
    #expect(backup.url.lastPathComponent.hasSuffix("-v1.backup"))
    #expect(
      backup.url.deletingLastPathComponent().path
        == fixture.database.deletingLastPathComponent().path
    )
    #expect(try DatabaseFingerprint.of(backup.url) == before)
    #expect(try Self.versions(backup.url) == [1])
    #expect(try DatabaseFingerprint.of(fixture.database).rowCounts["t"] == 0)
    #expect(try DatabaseBackup.list(of: fixture.database) == [backup])
  }

  @Test func noBackupWhenNothingIsPendingOrInADryRun() throws {
    let fixture = try Self.atVersionOne()
    let options = MigrateOptions(backup: BackupPolicy())
    #expect(try fixture.migrator().migrate(try fixture.open(), options: options).backup == nil)
    try fixture.write("0002_u.sql", "-- migrate:up\nCREATE TABLE u (x);\n")
    var dryRun = options
    dryRun.dryRun = true
    #expect(try fixture.migrator().migrate(try fixture.open(), options: dryRun).backup == nil)
    #expect(try DatabaseBackup.list(of: fixture.database).isEmpty)
  }

  @Test func keepingNDeletesOnlyStratasOlderBackupsOfThatDatabase() throws {
    let fixture = try Self.atVersionOne()
    let bytes = try Data(contentsOf: fixture.database)
    let others = [
      "app.sqlite3.backup-notes.txt", "app.sqlite3.backup-20200101T000000.000Z-v1.sqlite3.keep",
      "other.sqlite3.backup-20200101T000000.000Z-v1.backup", "app.sqlite3.bak",
    ]
    for name in others { try bytes.write(to: fixture.dir.path(name)) }
    let old = "app.sqlite3.backup-20200101T000000.000Z-v0.backup"
    try bytes.write(to: fixture.dir.path(old))
    var written: [URL] = []
    for version in 2...4 {
      try fixture.write(
        String(format: "%04d_m.sql", version),
        "-- migrate:up\nCREATE TABLE m\(version) (x);\n"
      )
      let report = try fixture.migrator().migrate(
        try fixture.open(),
        options: MigrateOptions(backup: BackupPolicy(keep: 2))
      )
      written.append(try #require(report.backup).url)
    }
    let listed = try DatabaseBackup.list(of: fixture.database)
    #expect(listed.map(\.url) == [written[2], written[1]])
    #expect(listed.map(\.version) == ["3", "2"])
    for name in others {
      #expect(FileManager.default.fileExists(atPath: fixture.dir.path(name).path))
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.dir.path(old).path))
    #expect(!FileManager.default.fileExists(atPath: written[0].path))
  }

  @Test func aWALDatabasesUncheckpointedRowsAreInTheBackup() throws {
    let fixture = try Self.atVersionOne()
    let writer = try Connection(path: fixture.database.path)
    _ = try writer.scalar("PRAGMA journal_mode = WAL")
    try writer.execute("PRAGMA wal_autocheckpoint = 0; INSERT INTO t (v) VALUES ('in the wal')")
    let wal = try FileManager.default.attributesOfItem(atPath: fixture.database.path + "-wal")
    #expect((wal[.size] as? NSNumber)?.intValue ?? 0 > 0)
    try fixture.write("0002_u.sql", "-- migrate:up\nDELETE FROM t;\n")
    let report = try fixture.migrator().migrate(
      try fixture.open(),
      options: MigrateOptions(backup: BackupPolicy())
    )
    let backup = try #require(report.backup)
    let copy = try Connection(path: backup.url.path, mode: .readOnly)
    #expect(try copy.scalar("SELECT count(*) FROM t WHERE v = 'in the wal'") == .integer(1))
    #expect(try copy.scalar("SELECT count(*) FROM t") == .integer(301))
    #expect(!FileManager.default.fileExists(atPath: backup.url.path + "-wal"))
  }

  @Test func forcedRestoreAfterARunThatStoppedHalfWayReturnsThePreRunDatabase() throws {
    let fixture = try Self.atVersionOne()
    let before = try DatabaseFingerprint.of(fixture.database)
    let pagesBefore = try Self.pageCount(fixture.database)
    for (name, text) in Self.fiveMore { try fixture.write(name, text) }
    #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(
        try fixture.open(),
        options: MigrateOptions(backup: BackupPolicy())
      )
    }
    #expect(try Self.versions(fixture.database) == [1, 2, 3])
    #expect(try DatabaseFingerprint.of(fixture.database) != before)
    let backup = try #require(try DatabaseBackup.list(of: fixture.database).first)
    let report = try DatabaseBackup.restore(backup.url, into: fixture.database, force: true)
    #expect(report.version == 1)
    #expect(report.undone == [2, 3])
    #expect(try DatabaseFingerprint.of(fixture.database) == before)
    #expect(try Self.pageCount(fixture.database) == pagesBefore)
  }

  @Test func restoreWithoutForceRefusesChangesNothingAndNamesTheVersions() throws {
    let fixture = try Self.atVersionOne()
    for (name, text) in Self.fiveMore { try fixture.write(name, text) }
    _ = try? fixture.migrator().migrate(
      try fixture.open(),
      options: MigrateOptions(backup: BackupPolicy())
    )
    let backup = try #require(try DatabaseBackup.list(of: fixture.database).first)
    let bytes = try Data(contentsOf: fixture.database)
    let error = #expect(throws: BackupError.self) {
      try DatabaseBackup.restore(backup.url, into: fixture.database)
    }
    #expect(
      error
        == .wouldUndo(database: fixture.database.path, backup: backup.url.path, versions: [2, 3])
    )
    #expect(error?.message.contains("versions 2, 3") == true)
    #expect(try Data(contentsOf: fixture.database) == bytes)
  }

  /// A version both histories have, recorded with another checksum in the live database (its
  /// file was edited and accepted after the backup), is work the restore would undo too.
  @Test func restoreRefusesWhenTheLiveHistoryRecordsAnotherChecksum() throws {
    let fixture = try Self.atVersionOne()
    try fixture.write("0002_u.sql", "-- migrate:up\nCREATE TABLE u (x);\n")
    try fixture.migrator().migrate(
      try fixture.open(),
      options: MigrateOptions(backup: BackupPolicy())
    )
    let backup = try #require(try DatabaseBackup.list(of: fixture.database).first)
    let live = try fixture.open()
    try live.execute("DELETE FROM strata_migrations WHERE version = 2")
    try live.execute("DROP TABLE u")
    // Same versions as the backup, but version 1 recorded with another checksum.
    try live.execute("UPDATE strata_migrations SET checksum = 'edited' WHERE version = 1")
    let bytes = try Data(contentsOf: fixture.database)
    let error = #expect(throws: BackupError.self) {
      try DatabaseBackup.restore(backup.url, into: fixture.database)
    }
    #expect(
      error
        == .wouldUndo(database: fixture.database.path, backup: backup.url.path, versions: [1])
    )
    #expect(try Data(contentsOf: fixture.database) == bytes)
    // Forced, the backup's history comes back.
    try DatabaseBackup.restore(backup.url, into: fixture.database, force: true)
    let checksum = try Connection(path: fixture.database.path, mode: .readOnly)
      .scalar("SELECT checksum FROM strata_migrations WHERE version = 1")
    #expect(checksum != .text("edited"))
  }

  @Test func aConnectionHoldingTheDatabaseOpenReadsTheRestoredData() throws {
    let fixture = try Self.atVersionOne()
    let before = try DatabaseFingerprint.of(fixture.database)
    let holder = try Connection(path: fixture.database.path)
    #expect(try holder.scalar("SELECT count(*) FROM t") == .integer(300))
    let inode = try FileManager.default.attributesOfItem(atPath: fixture.database.path)[
      .systemFileNumber
    ]
    try fixture.write("0002_u.sql", "-- migrate:up\nDELETE FROM t;\n")
    let report = try fixture.migrator().migrate(
      try fixture.open(),
      options: MigrateOptions(backup: BackupPolicy())
    )
    #expect(try holder.scalar("SELECT count(*) FROM t") == .integer(0))
    try DatabaseBackup.restore(try #require(report.backup).url, into: fixture.database, force: true)
    #expect(try holder.scalar("SELECT count(*) FROM t") == .integer(300))
    #expect(try DatabaseFingerprint.of(holder) == before)
    let after = try FileManager.default.attributesOfItem(atPath: fixture.database.path)[
      .systemFileNumber
    ]
    #expect(after as? NSNumber == inode as? NSNumber)
  }

  @Test func aBackupThatIsMissingOrNotSQLiteIsAClearError() throws {
    let fixture = try Self.atVersionOne()
    let missing = fixture.dir.path("gone.sqlite3")
    #expect(throws: BackupError.missing(path: missing.path)) {
      try DatabaseBackup.restore(missing, into: fixture.database)
    }
    let text = try fixture.dir.write("notes.sqlite3", "not a database at all, just some text\n")
    #expect(throws: BackupError.notADatabase(path: text.path)) {
      try DatabaseBackup.restore(text, into: fixture.database)
    }
  }

  @Test func aFolderThatCannotBeWrittenStopsTheRunBeforeAnyMigration() throws {
    let fixture = try Self.atVersionOne()
    try fixture.write("0002_u.sql", "-- migrate:up\nCREATE TABLE u (x);\n")
    let db = try fixture.open()
    let folder = fixture.dir.url.path
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
    }
    let error = #expect(throws: BackupError.self) {
      try fixture.migrator().migrate(db, options: MigrateOptions(backup: BackupPolicy()))
    }
    guard case .notWritten(_, _, let version, let reason) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(version == 1)
    #expect(reason.contains("cannot be written"))
    #expect(error?.message.contains("No migration was run") == true)
    #expect(try History.read(db).map(\.version) == [1])
  }

  @Test func backupNamesReadBackAsVersionAndTime() throws {
    let database = URL(fileURLWithPath: "/tmp/x/app.sqlite3")
    let date = Date(timeIntervalSince1970: 1_764_567_012.5)
    let url = DatabaseBackup.url(of: database, version: 12, at: date)
    #expect(url.lastPathComponent == "app.sqlite3.backup-20251201T053012.500Z-v12.backup")
    let backup = try #require(DatabaseBackup(url, of: database))
    #expect(backup.version == "12")
    #expect(abs(backup.createdAt.timeIntervalSince(date)) < 0.001)
    #expect(DatabaseBackup(url, of: URL(fileURLWithPath: "/tmp/x/other.sqlite3")) == nil)
  }

  static let errors: [BackupError] = [
    .notWritten(database: "a", backup: "b", version: 1, reason: "the disk is full"),
    .missing(path: "b"), .notADatabase(path: "b"), .noBackups(database: "a"),
    .wouldUndo(database: "a", backup: "b", versions: [2]),
    .restoreFailed(database: "a", backup: "b", reason: "database is locked"),
    .damaged(backup: "b", database: "a", problem: "SQLite's integrity check reports: x"),
    .isTheDatabase(backup: "b", database: "a"),
    .databaseUnreadable(database: "a", backup: "b", reason: "it is damaged"),
    .folderNotListed(database: "a", folder: "f", reason: "does not exist"),
    .restoreFailedAfterEmptying(database: "a", backup: "b", reason: "disk is full"),
  ]

  @Test(arguments: errors)
  func messagesNameNoFlag(error: BackupError) {
    for text in [error.message, error.help] { #expect(!text.contains("--"), "\(text)") }
  }
}
