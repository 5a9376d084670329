import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Two bad inputs whose words were wrong: a lock held by another connection of the same
/// process (once "another process"), and a run on a connection inside the app's own
/// transaction (once "check the file is writable"). Each is a typed error, said right, and
/// nothing is written.
@Suite struct LockAndTransactionWordsTests {
  static let files = [
    "0001_person.sql": "CREATE TABLE person_info (name TEXT NOT NULL, age INTEGER);",
    "0002_more.sql": "CREATE TABLE more (id INTEGER PRIMARY KEY);",
  ]

  func userTables(_ db: Connection) throws -> [String] { try MigrationFixture.tables(db) }

  /// `holder` holds `BEGIN IMMEDIATE`; the other connection, in this process, waits 50 ms.
  func lockedPair(_ fixture: MigrationFixture) throws -> (holder: Connection, waiter: Connection) {
    let holder = try fixture.open()
    let waiter = try Connection.open(at: fixture.database, access: .write, busyTimeout: 50)
    try holder.execute("BEGIN IMMEDIATE")
    return (holder, waiter)
  }

  @Test func aLockHeldByAConnectionOfThisProcessIsSaidSo() throws {
    let fixture = try MigrationFixture(Self.files)
    let (holder, waiter) = try lockedPair(fixture)
    let thrown = #expect(throws: MigrationError.self) { try fixture.migrator().migrate(waiter) }
    let error = try #require(thrown)
    switch error.underlyingFailure {
    case .locked, .database: break
    default: Issue.record("not a lock: \(error)")
    }
    #expect(error.message.contains("another connection (in this app or another process)"))
    #expect(!error.message.contains("locked by another process"))
    #expect(error.help.contains("other connection (in this app or another process)"))
    #expect(error.remedies == [.waitForLock])
    try holder.execute("ROLLBACK")
    #expect(try userTables(holder).isEmpty)
    #expect(try holder.scalar("SELECT count(*) FROM sqlite_master") == .integer(0))
  }

  @Test func aSeedRunMeetingThatLockSaysSoToo() throws {
    let fixture = try MigrationFixture(Self.files)
    try fixture.migrator().migrate(try fixture.open())
    let csv = try fixture.dir.write("seeds/person_info.csv", "name,age\nAnn,30\n")
    let (holder, waiter) = try lockedPair(fixture)
    let thrown = #expect(throws: SeedError.self) {
      try Seeder(connection: waiter).seed([SeedFile(url: csv)], options: SeedOptions(mode: .append))
    }
    let error = try #require(thrown)
    #expect(error.message.contains("another connection (in this app or another process)"))
    #expect(error.remedies == [.waitForLock])
    try holder.execute("ROLLBACK")
    #expect(try holder.scalar("SELECT count(*) FROM person_info") == .integer(0))
  }

  /// Migrate, rollback and baseline inside the app's transaction: refused before anything
  /// runs; the app's transaction and its rows stay as they were.
  @Test(arguments: ["migrate", "rollback", "baseline"])
  func aRunInsideTheAppsTransactionIsRefusedFirst(entry: String) throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try fixture.open()
    let migrator = try fixture.migrator()
    try migrator.migrate(db, options: MigrateOptions(target: 1))
    let before = try db.rows("SELECT version FROM strata_migrations ORDER BY version")
    try db.execute("BEGIN")
    try db.execute("INSERT INTO person_info VALUES ('Ann', 30)")
    let thrown = #expect(throws: MigrationError.self) {
      switch entry {
      case "migrate": try migrator.migrate(db)
      case "rollback": try migrator.rollback(db)
      default: try migrator.baseline(db, version: 2)
      }
    }
    #expect(thrown == .insideTransaction(path: db.path))
    #expect(thrown?.message.contains("inside a transaction the app opened") == true)
    #expect(thrown?.help.contains("Commit or roll back") == true)
    #expect(!db.isAutocommit, "the app's transaction is still open")
    try db.execute("ROLLBACK")
    #expect(try db.rows("SELECT version FROM strata_migrations ORDER BY version") == before)
    #expect(try userTables(db) == ["person_info"])
  }

  /// Seeding inside the app's transaction is allowed: it runs in a savepoint of it.
  @Test func seedingInsideTheAppsTransactionJoinsIt() throws {
    let fixture = try MigrationFixture(Self.files)
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    let csv = try fixture.dir.write("seeds/person_info.csv", "name,age\nAnn,30\n")
    try db.execute("BEGIN")
    _ = try Seeder(connection: db).seed([SeedFile(url: csv)], options: SeedOptions(mode: .append))
    try db.execute("ROLLBACK")
    #expect(try db.scalar("SELECT count(*) FROM person_info") == .integer(0))
  }
}

/// The connection's small public surface an app uses directly: a URL opens it, the row id of
/// an insert, and what kind of SQLite failure an error is.
@Suite struct ConnectionSurfaceTests {
  @Test func aURLOpensTheFileAndTheInsertedRowIDAndConstraintAreReported() throws {
    let dir = try TemporaryDirectory()
    let url = dir.path("app.sqlite3")
    let db = try Connection(url: url)
    #expect(db.path == url.path)
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
    try db.run("INSERT INTO t (name) VALUES (?)", [.text("a")])
    try db.run("INSERT INTO t (name) VALUES (?)", [.text("b")])
    #expect(db.lastInsertRowID == 2)
    let thrown = #expect(throws: SQLiteError.self) {
      try db.run("INSERT INTO t (name) VALUES (?)", [.text("a")])
    }
    #expect(thrown?.isConstraint == true)
    #expect(thrown?.isBusy == false)
    #expect(FileManager.default.fileExists(atPath: url.path))
  }
}
