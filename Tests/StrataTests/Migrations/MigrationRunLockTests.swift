import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Whether a second connection can write the file at once (no busy wait).
private func canWriteAtOnce(_ database: URL) -> Bool {
  do {
    let other = try Connection.open(at: database, access: .write, busyTimeout: 0)
    try other.execute("BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS probe (x); COMMIT")
    try other.execute("DROP TABLE probe")
    return true
  } catch {
    return false
  }
}

/// What a run's `willRun` finds just before each part, by part number: whether a second
/// connection could write the file at once, and whether SQLite's journal was there.
private final class BeforeEachPart {
  let database: URL
  private(set) var writable: [Int: Bool] = [:]
  private(set) var journalThere: [Int: Bool] = [:]

  init(_ database: URL) { self.database = database }

  var willRun: Migrator.WillRun {
    { [self] _, number, _ in
      journalThere[number] = FileManager.default.fileExists(atPath: database.path + "-journal")
      writable[number] = canWriteAtOnce(database)
    }
  }
}

/// A run of migrations keeps the database's lock from one commit to the next, and gives it
/// back whole: when the run ends, fails, or reaches a part that runs outside strata's
/// transactions.
@Suite struct MigrationRunLockTests {
  static let three = [
    "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n",
    "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n-- migrate:down\nDROP TABLE b;\n",
    "0003_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n-- migrate:down\nDROP TABLE c;\n",
  ]

  /// An existing, empty file: migrated in place, with SQLite's rollback journal.
  func existingFile(_ files: [String: String]) throws -> MigrationFixture {
    let fixture = try MigrationFixture(files)
    #expect(FileManager.default.createFile(atPath: fixture.database.path, contents: Data()))
    return fixture
  }

  func journalExists(_ fixture: MigrationFixture) -> Bool {
    FileManager.default.fileExists(atPath: fixture.database.path + "-journal")
  }

  /// `migrate` with `probe` before each part.
  @discardableResult
  private func migrate(
    _ fixture: MigrationFixture,
    _ db: Connection,
    _ probe: BeforeEachPart
  ) throws
    -> MigrationReport
  {
    try fixture.migrator().migrate(db, options: MigrateOptions(), willRun: probe.willRun)
  }

  @Test func noOneElseWritesBetweenTwoMigrationsAndTheLockIsBackAfterTheRun() throws {
    let fixture = try existingFile(Self.three)
    let db = try fixture.open()
    let probe = BeforeEachPart(fixture.database)
    let report = try migrate(fixture, db, probe)
    #expect(report.steps.map(\.version) == [1, 2, 3])
    #expect(probe.writable == [1: true, 2: false, 3: false])
    // The saving itself: one journal, kept from commit to commit (unheld, SQLite deletes it at
    // each one).
    #expect(probe.journalThere == [1: false, 2: true, 3: true])
    // Given back: the journal SQLite kept open is gone, the connection locks as it did, and
    // another connection writes at once.
    #expect(!journalExists(fixture))
    #expect(try db.scalar("PRAGMA locking_mode")?.textValue == "normal")
    #expect(canWriteAtOnce(fixture.database))
    #expect(try MigrationFixture.tables(db) == ["a", "b", "c"])
  }

  @Test func aFailedMigrationGivesTheLockBack() throws {
    var files = Self.three
    files["0002_b.sql"] = "-- migrate:up\nCREATE TABLE b (x);\nINSERT INTO nowhere VALUES (1);\n"
    let fixture = try existingFile(files)
    let db = try fixture.open()
    let probe = BeforeEachPart(fixture.database)
    #expect(throws: MigrationError.self) { try migrate(fixture, db, probe) }
    #expect(probe.writable == [1: true, 2: false])
    #expect(!journalExists(fixture))
    #expect(canWriteAtOnce(fixture.database))
    #expect(try MigrationFixture.tables(db) == ["a"])
    let versions = try db.rows("SELECT version FROM strata_migrations").map { $0[0].integerValue }
    #expect(versions == [1])
  }

  /// A `transaction:false` part runs with the lock given up (it may change the journal mode,
  /// which exclusive locking would pin); the parts after it in WAL mode keep no lock at all.
  @Test func aPartOutsideTransactionsRunsUnlockedAndWALIsNeverHeld() throws {
    let fixture = try existingFile([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\n",
      "0002_wal.sql": "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n",
      "0003_b.sql": "-- migrate:up\nCREATE TABLE b (x);\n",
      "0004_c.sql": "-- migrate:up\nCREATE TABLE c (x);\n",
    ])
    let db = try fixture.open()
    let probe = BeforeEachPart(fixture.database)
    try migrate(fixture, db, probe)
    #expect(probe.writable == [1: true, 2: false, 3: true, 4: true])
    #expect(try db.scalar("PRAGMA journal_mode")?.textValue == "wal")
    #expect(try db.scalar("PRAGMA locking_mode")?.textValue == "normal")
    #expect(canWriteAtOnce(fixture.database))
    #expect(try MigrationFixture.tables(db) == ["a", "b", "c"])
  }

  /// A part with a `BEGIN` and `COMMIT` of its own runs unlocked too; the next part holds again.
  @Test func aPartWithItsOwnTransactionRunsUnlocked() throws {
    let fixture = try existingFile([
      "0001_a.up.sql": "CREATE TABLE a (x);\n",
      "0002_b.up.sql": "BEGIN;\nCREATE TABLE b (x);\nCOMMIT;\n",
      "0003_c.up.sql": "CREATE TABLE c (x);\n",
      "0004_d.up.sql": "CREATE TABLE d (x);\n",
    ])
    let db = try fixture.open()
    let probe = BeforeEachPart(fixture.database)
    try migrate(fixture, db, probe)
    #expect(probe.writable == [1: true, 2: false, 3: true, 4: false])
    #expect(canWriteAtOnce(fixture.database))
    #expect(try MigrationFixture.tables(db) == ["a", "b", "c", "d"])
  }

  /// Only the database being migrated is held: an attached one a migration writes to is free
  /// again after each commit, as SQLite leaves it.
  @Test func anAttachedDatabaseIsNeverHeld() throws {
    let fixture = try existingFile([
      "0001_a.sql": "-- migrate:up\nCREATE TABLE a (x);\nINSERT INTO archive.log VALUES (1);\n",
      "0002_b.sql": "-- migrate:up\nCREATE TABLE b (x);\nINSERT INTO archive.log VALUES (2);\n",
    ])
    let archive = fixture.dir.path("archive.sqlite3")
    try Connection.open(at: archive, access: .create).execute("CREATE TABLE log (n)")
    let db = try fixture.open()
    try db.execute("ATTACH '\(archive.path)' AS archive")
    let probe = BeforeEachPart(archive)
    try migrate(fixture, db, probe)
    #expect(probe.writable == [1: true, 2: true])
    #expect(canWriteAtOnce(archive))
    #expect(!FileManager.default.fileExists(atPath: archive.path + "-journal"))
    #expect(try db.rows("SELECT n FROM archive.log").map { $0[0].integerValue } == [1, 2])
  }

  @Test(arguments: ["PRAGMA locking_mode = EXCLUSIVE", "PRAGMA main.locking_mode = EXCLUSIVE"])
  func aConnectionThatWasExclusiveStaysSo(_ pragma: String) throws {
    let fixture = try existingFile(Self.three)
    let db = try fixture.open()
    try db.execute(pragma)
    try fixture.migrator().migrate(db)
    #expect(try db.scalar("PRAGMA main.locking_mode")?.textValue == "exclusive")
    #expect(!canWriteAtOnce(fixture.database))
  }

  @Test func aRollbackKeepsItToo() throws {
    let fixture = try existingFile(Self.three)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let probe = BeforeEachPart(fixture.database)
    let report = try fixture.migrator().rollback(
      db,
      .steps(3),
      dryRun: false,
      allowChanged: false,
      willRun: probe.willRun
    )
    #expect(report.steps.count == 3)
    #expect(probe.writable == [1: true, 2: false, 3: false])
    #expect(!journalExists(fixture))
    #expect(canWriteAtOnce(fixture.database))
    #expect(try MigrationFixture.tables(db).isEmpty)
  }
}
