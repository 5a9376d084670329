import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// What Linux can show of the Apple-platform parts of the launch call: every connection
/// strata opens asks for full syncs, the places a database can live, the Data Protection
/// option and the refused-file error. What only a device shows is listed in
/// docs/apple-platforms.md.
@Suite struct ApplePlatformSetupTests {
  private static func migrations(in folder: TemporaryDirectory) throws -> URL {
    try folder.write(
      "migrations/0001_create_person_info.sql",
      "-- migrate:up\nCREATE TABLE person_info (name TEXT, age INTEGER);\n"
        + "-- migrate:down\nDROP TABLE person_info;\n"
    )
    return folder.path("migrations")
  }

  /// A commit reaches the storage, not only the drive's cache (F_FULLFSYNC on Apple
  /// platforms): the app's queue, a setup's connection and a plain `Connection` all ask.
  @Test func everyConnectionStrataOpensAsksForFullSyncs() throws {
    let folder = try TemporaryDirectory()
    let setup = DatabaseSetup(
      database: folder.path("app.sqlite3"),
      migrations: try Self.migrations(in: folder)
    )
    let queue = try setup.open()
    let fromQueue = try queue.read { db in
      [
        try db.fetchOne(Int.self, "PRAGMA fullfsync"),
        try db.fetchOne(Int.self, "PRAGMA checkpoint_fullfsync"),
      ]
    }
    #expect(fromQueue == [1, 1])
    queue.close()
    let connection = try Connection.open(at: folder.path("app.sqlite3"), access: .read)
    #expect(try connection.scalar("PRAGMA fullfsync")?.integerValue == 1)
    #expect(try connection.scalar("PRAGMA checkpoint_fullfsync")?.integerValue == 1)
    let plain = try Connection.inMemory()
    #expect(try plain.scalar("PRAGMA fullfsync")?.integerValue == 1)
  }

  /// Application Support: the subfolder is created (with Application Support itself) and a
  /// setup there creates and migrates the database.
  @Test func applicationSupportDatabaseIsOneCall() throws {
    let subfolder = "strata-tests-\(UUID().uuidString)"
    let url = try DatabaseSetup.applicationSupportDatabase(
      named: "people.sqlite3",
      subfolder: subfolder
    )
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    #expect(url.lastPathComponent == "people.sqlite3")
    #expect(url.deletingLastPathComponent().lastPathComponent == subfolder)
    var isFolder: ObjCBool = false
    #expect(
      FileManager.default.fileExists(
        atPath: url.deletingLastPathComponent().path,
        isDirectory: &isFolder
      ) && isFolder.boolValue
    )
    let folder = try TemporaryDirectory()
    let report = try DatabaseSetup(database: url, migrations: try Self.migrations(in: folder))
      .run()
    #expect(report.created && report.version == 1)
  }

  /// An App Group's container exists only on Apple platforms: elsewhere the call says so
  /// instead of picking another folder.
  @Test func appGroupDatabaseOutsideApplePlatformsIsAClearError() throws {
    #if !canImport(Darwin)
    do {
      _ = try DatabaseSetup.appGroupDatabase(group: "group.com.example.people")
      Issue.record("an App Group container was found on Linux")
    } catch let error as DatabaseOpenError {
      #expect(error.message.contains("group.com.example.people"))
      #expect(error.message.contains("Apple platforms"))
    }
    #endif
  }

  /// The protection class goes to the folder first, then to the template's copy while it is
  /// still beside the database's name (before it is linked into place), and on a later launch
  /// to the database itself and its `-wal`/`-shm`. On Linux, which has no Data Protection, the
  /// class itself changes nothing; where it goes, and when, is the same code on every platform.
  @Test(arguments: FileProtection.allCases)
  func aProtectionClassGoesToTheFolderThenTheCopyBeforeItIsLinked(
    protection: FileProtection
  ) throws {
    let folder = try TemporaryDirectory()
    let template = folder.path("template.sqlite3")
    let migrations = try Self.migrations(in: folder)
    try TemplateBuilder.build(try MigrationSet(directory: migrations), to: template)
    let database = folder.path("data/app.sqlite3")
    let seen = SeenPaths()
    var setup = DatabaseSetup(database: database, migrations: migrations, template: template)
    setup.fileProtection = protection
    setup.usesWriteAheadLog = true
    setup.protectionApplied = { url in
      seen.append(url.path, databaseExists: FileManager.default.fileExists(atPath: database.path))
    }
    let report = try setup.run()
    #expect(report.created && report.templateCopied && report.version == 1)
    let first = seen.paths
    #expect(first.count == 2, "\(first)")
    #expect(first.first?.path == folder.path("data").path)
    let copy = try #require(first.last)
    #expect(copy.path != database.path)
    #expect(
      URL(fileURLWithPath: copy.path).deletingLastPathComponent().path == folder.path("data").path
    )
    #expect(!copy.databaseExisted, "the copy was protected after it took the database's name")
    // A later launch: the database and its WAL files (the first launch switched it to WAL).
    seen.removeAll()
    let queue = try DatabaseQueue(url: database)
    try setup.run()
    queue.close()
    #expect(
      seen.paths.map(\.path) == [
        folder.path("data").path, database.path, database.path + "-wal", database.path + "-shm",
      ]
    )
  }

  /// `usesWriteAheadLog` switches an existing rollback-journal database to WAL before the run's
  /// migrations, and a new one once built; the switch stays in the file.
  @Test func usesWriteAheadLogPutsTheDatabaseInWALMode() throws {
    let folder = try TemporaryDirectory()
    let migrations = try Self.migrations(in: folder)
    let database = folder.path("app.sqlite3")
    try DatabaseSetup(database: database, migrations: migrations).run()
    let before = try Connection(path: database.path)
    #expect(try before.scalar("PRAGMA journal_mode")?.textValue == "delete")
    var setup = DatabaseSetup(database: database, migrations: migrations)
    setup.usesWriteAheadLog = true
    try setup.run()
    let after = try Connection(path: database.path)
    #expect(try after.scalar("PRAGMA journal_mode")?.textValue == "wal")
    let fresh = folder.path("fresh.sqlite3")
    var new = DatabaseSetup(database: fresh, migrations: migrations)
    new.usesWriteAheadLog = true
    #expect(try new.run().created)
    #expect(try Connection(path: fresh.path).scalar("PRAGMA journal_mode")?.textValue == "wal")
  }

  /// A refused open or read is told apart from a damaged file by the system's error, never by
  /// SQLite's code alone: only EPERM (or Apple's SQLITE_AUTH at open) means "locked away".
  @Test func protectedDataIsToldApartFromOtherFailures() {
    let refusedOpen = SQLiteError(
      extendedCode: 14,
      message: "unable to open",
      systemErrorCode: EPERM
    )
    let refusedRead = SQLiteError(
      extendedCode: 266,
      message: "disk I/O error",
      systemErrorCode: EPERM
    )
    // As `Connection` and `fencedError` build Apple's SQLITE_AUTH for a refused file.
    let appleOpen = SQLiteError(
      extendedCode: 23,
      message: "authorization denied",
      systemErrorCode: EPERM
    )
    let fence = SQLiteError(extendedCode: 23, message: "not authorized", sql: "DROP TABLE t")
    let missing = SQLiteError(extendedCode: 14, message: "unable to open", systemErrorCode: ENOENT)
    let notADatabase = SQLiteError(extendedCode: 26, message: "file is not a database")
    #expect(refusedOpen.isProtectedDataUnavailable)
    #expect(refusedRead.isProtectedDataUnavailable)
    #expect(appleOpen.isProtectedDataUnavailable)
    #expect(!fence.isProtectedDataUnavailable)
    #expect(!missing.isProtectedDataUnavailable)
    #expect(!notADatabase.isProtectedDataUnavailable)
    #expect(refusedRead.help.contains("never delete or reset it"))
    let error = DatabaseOpenError.protectedDataUnavailable(path: "/a/app.sqlite3")
    #expect(error.message.contains("intact"))
    #expect(!error.message.contains("not an SQLite database"))
  }
}

/// The paths a setup protected, and whether the database existed at each moment.
private final class SeenPaths: @unchecked Sendable {
  struct Seen { let path: String; let databaseExisted: Bool }
  private let lock = NSLock()
  private var seen: [Seen] = []

  func append(_ path: String, databaseExists: Bool) {
    lock.lock()
    seen.append(Seen(path: path, databaseExisted: databaseExists))
    lock.unlock()
  }

  var paths: [Seen] {
    lock.lock()
    defer { lock.unlock() }
    return seen
  }

  func removeAll() {
    lock.lock()
    seen.removeAll()
    lock.unlock()
  }
}
