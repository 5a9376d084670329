import Foundation
import StrataTestSupport
import Testing

@testable import Strata

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

  /// Whether a second connection can write the file at once (no busy wait).
  func anotherConnectionCanWrite(_ database: URL) -> Bool {
    do {
      let other = try Connection.open(at: database, access: .write, busyTimeout: 0)
      try other.execute("BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS probe (x); COMMIT")
      try other.execute("DROP TABLE probe")
      return true
    } catch {
      return false
    }
  }

  func journalExists(_ fixture: MigrationFixture) -> Bool {
    FileManager.default.fileExists(atPath: fixture.database.path + "-journal")
  }

  @Test func noOneElseWritesBetweenTwoMigrationsAndTheLockIsBackAfterTheRun() throws {
    let fixture = try existingFile(Self.three)
    let db = try fixture.open()
    var between: [Bool] = []
    var journalKept: [Bool] = []
    let report = try fixture.migrator().migrate(db, options: MigrateOptions()) { _, number, _ in
      guard number > 1 else { return }
      // The saving itself: one journal, kept from commit to commit (unheld, SQLite deletes it
      // at each one).
      journalKept.append(journalExists(fixture))
      between.append(anotherConnectionCanWrite(fixture.database))
    }
    #expect(report.steps.map(\.version) == [1, 2, 3])
    #expect(journalKept == [true, true])
    #expect(between == [false, false])
    // Given back: the journal SQLite kept open is gone, the connection locks as it did, and
    // another connection writes at once.
    #expect(!journalExists(fixture))
    #expect(try db.scalar("PRAGMA locking_mode")?.textValue == "normal")
    #expect(anotherConnectionCanWrite(fixture.database))
    #expect(try MigrationFixture.tables(db) == ["a", "b", "c"])
  }

  @Test func aFailedMigrationGivesTheLockBack() throws {
    var files = Self.three
    files["0002_b.sql"] = "-- migrate:up\nCREATE TABLE b (x);\nINSERT INTO nowhere VALUES (1);\n"
    let fixture = try existingFile(files)
    let db = try fixture.open()
    var heldBeforeTheFailure: Bool?
    #expect(throws: MigrationError.self) {
      try fixture.migrator().migrate(db, options: MigrateOptions()) { _, number, _ in
        if number == 2 { heldBeforeTheFailure = !anotherConnectionCanWrite(fixture.database) }
      }
    }
    #expect(heldBeforeTheFailure == true)
    #expect(!journalExists(fixture))
    #expect(anotherConnectionCanWrite(fixture.database))
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
    var free: [Int: Bool] = [:]
    try fixture.migrator().migrate(db, options: MigrateOptions()) { _, number, _ in
      free[number] = anotherConnectionCanWrite(fixture.database)
    }
    #expect(free == [1: true, 2: false, 3: true, 4: true])
    #expect(try db.scalar("PRAGMA journal_mode")?.textValue == "wal")
    #expect(try db.scalar("PRAGMA locking_mode")?.textValue == "normal")
    #expect(anotherConnectionCanWrite(fixture.database))
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
    var free: [Int: Bool] = [:]
    try fixture.migrator().migrate(db, options: MigrateOptions()) { _, number, _ in
      free[number] = anotherConnectionCanWrite(fixture.database)
    }
    #expect(free == [1: true, 2: false, 3: true, 4: false])
    #expect(anotherConnectionCanWrite(fixture.database))
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
    var archiveFree: [Bool] = []
    try fixture.migrator().migrate(db, options: MigrateOptions()) { _, number, _ in
      if number == 2 { archiveFree.append(anotherConnectionCanWrite(archive)) }
    }
    #expect(archiveFree == [true])
    #expect(anotherConnectionCanWrite(archive))
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
    #expect(!anotherConnectionCanWrite(fixture.database))
  }

  @Test func aRollbackKeepsItToo() throws {
    let fixture = try existingFile(Self.three)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    var between: [Bool] = []
    let report = try fixture.migrator().rollback(
      db,
      .steps(3),
      dryRun: false,
      allowChanged: false
    ) { _, number, _ in
      if number > 1 { between.append(anotherConnectionCanWrite(fixture.database)) }
    }
    #expect(report.steps.count == 3)
    #expect(between == [false, false])
    #expect(!journalExists(fixture))
    #expect(anotherConnectionCanWrite(fixture.database))
    #expect(try MigrationFixture.tables(db).isEmpty)
  }
}
