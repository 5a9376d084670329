import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `DatabaseSetup.openPool()`, and a pool opened on a file another connection holds in
/// rollback-journal mode.
@Suite struct DatabasePoolSetupTests {
  @Test func openPoolRunsTheLaunchOpenRunsAndReportsTheSame() throws {
    let queueFixture = try SetupFixture(buildTemplate: false)
    let poolFixture = try SetupFixture(buildTemplate: false)
    var queueSetup = queueFixture.setup()
    queueSetup.seeds = try queueFixture.dir.write("seeds/a.csv", "x\n1\n2\n")
      .deletingLastPathComponent()
    var poolSetup = poolFixture.setup()
    poolSetup.seeds = try poolFixture.dir.write("seeds/a.csv", "x\n1\n2\n")
      .deletingLastPathComponent()
    #expect(!poolSetup.usesWriteAheadLog)
    let queue = try queueSetup.open()
    let pool = try poolSetup.openPool(maximumReaderCount: 2)
    let queueReport = try #require(queue.setupReport)
    let poolReport = try #require(pool.setupReport)
    #expect(poolReport.created && poolReport.appliedVersions == [1, 2, 3])
    #expect(
      poolReport.seedFilesLoaded.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.csv"]
    )
    #expect(
      queueReport.seedFilesLoaded.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.csv"]
    )
    #expect(poolReport.appliedVersions == queueReport.appliedVersions)
    #expect(pool.maximumReaderCount == 2)
    #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT sum(x) FROM a") } == 3)
    // WAL although usesWriteAheadLog is off; the queue's file kept its rollback journal.
    #expect(isWALDatabase(at: poolFixture.database.path))
    #expect(!isWALDatabase(at: queueFixture.database.path))
    pool.close()
    queue.close()
  }

  @Test func openPoolAsyncOnAnExistingDatabaseSwitchesItBeforeTheNewMigration() async throws {
    let fixture = try SetupFixture(buildTemplate: false)
    try await fixture.setup().run()
    #expect(!isWALDatabase(at: fixture.database.path))
    try fixture.dir.write("migrations/0004_d.sql", "-- migrate:up\nCREATE TABLE d (x);\n")
    let pool = try await fixture.setup().openPool()
    #expect(pool.setupReport?.appliedVersions == [4])
    #expect(isWALDatabase(at: fixture.database.path))
    try await pool.write { db in try db.execute("INSERT INTO d VALUES (1)") }
    #expect(try await pool.read { db in try db.fetchValue(Int.self, "SELECT x FROM d") } == 1)
    pool.close()
  }

  /// A database in rollback-journal mode with one row, and what is beside it.
  static func rollbackDatabase(_ dir: TemporaryDirectory) throws -> URL {
    let url = dir.path("app.sqlite3")
    try Connection(path: url.path).execute(
      "CREATE TABLE student (name TEXT); INSERT INTO student VALUES ('Ann')"
    )
    return url
  }

  static func folder(_ dir: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
  }

  @Test func aFileASQLiteShellHoldsInRollbackModeIsRefusedNamingItAndLeftAsItWas() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.rollbackDatabase(dir)
    let before = try Data(contentsOf: url)
    let shell = try SQLiteShell(url, holding: "BEGIN; SELECT count(*) FROM student;")
    defer { shell.finish() }
    var thrown: DatabaseOpenError?
    do {
      _ = try DatabasePool(url: url, busyTimeout: 200)
    } catch let error as DatabaseOpenError {
      thrown = error
    }
    let error = try #require(thrown)
    guard case .walSwitchLocked(let path, let holder, let timeout, let cause) = error else {
      Issue.record("not walSwitchLocked: \(error)")
      return
    }
    #expect(path == url.path)
    #expect(timeout == 200)
    #expect(cause.isBusy)
    #if os(Linux)
    #expect(holder == "process \(shell.process.processIdentifier) (sqlite3)")
    #expect(error.message.contains("process \(shell.process.processIdentifier) (sqlite3) holds"))
    #endif
    #expect(error.message.contains("in rollback-journal mode"))
    #expect(error.message.contains("the file was not changed"))
    #expect(error.help.contains("DatabaseQueue"))
    // Unchanged: still in rollback-journal mode, no -wal, the same bytes.
    #expect(try Self.folder(dir) == ["app.sqlite3"])
    #expect(try Data(contentsOf: url) == before)
    #expect(!isWALDatabase(at: url.path))
    // Once the shell lets go, the pool opens.
    shell.finish()
    let pool = try DatabasePool(url: url, busyTimeout: 200)
    #expect(
      try pool.read { db in try db.fetchValue(String.self, "SELECT name FROM student") } == "Ann"
    )
    pool.close()
  }

  @Test func aConnectionOfThisAppHoldingARollbackReadIsRefusedWithoutAProcessName() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.rollbackDatabase(dir)
    let holder = try Connection(path: url.path)
    try holder.execute("BEGIN")
    _ = try holder.rows("SELECT count(*) FROM student")
    var thrown: DatabaseOpenError?
    do {
      _ = try DatabasePool(url: url, busyTimeout: 100)
    } catch let error as DatabaseOpenError {
      thrown = error
    }
    let error = try #require(thrown)
    guard case .walSwitchLocked(_, nil, 100, _) = error else {
      Issue.record("not walSwitchLocked without a holder: \(error)")
      return
    }
    #expect(
      error.message.hasPrefix(
        "cannot open \(url.path) as a pool of connections: it must be switched to WAL mode, "
          + "but another connection (in this app or another process) holds a lock on it in "
          + "rollback-journal mode"
      )
    )
    try holder.execute("COMMIT")
    #expect(try holder.rows("PRAGMA journal_mode") == [[.text("delete")]])
    #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
  }

  @Test func openPoolOnAHeldFileRefusesBeforeAnyMigration() async throws {
    let fixture = try SetupFixture(buildTemplate: false)
    try await fixture.setup().run()
    try fixture.dir.write("migrations/0004_d.sql", "-- migrate:up\nCREATE TABLE d (x);\n")
    let shell = try SQLiteShell(fixture.database, holding: "BEGIN; SELECT count(*) FROM a;")
    defer { shell.finish() }
    var setup = fixture.setup()
    setup.busyTimeout = 200
    for attempt in 0..<2 {
      var thrown: (any Error)?
      do {
        if attempt == 0 {
          _ = try synchronously { try setup.openPool() }
        } else {
          _ = try await setup.openPool()
        }
      } catch {
        thrown = error
      }
      guard case .walSwitchLocked(let path, _, 200, _) = thrown as? DatabaseOpenError else {
        Issue.record("not walSwitchLocked: \(String(describing: thrown))")
        return
      }
      #expect(path == fixture.database.path)
    }
    shell.finish()
    #expect(!isWALDatabase(at: fixture.database.path))
    let versions = try Connection(path: fixture.database.path, mode: .readOnly)
      .rows("SELECT version FROM strata_migrations ORDER BY version")
    #expect(versions == [[.integer(1)], [.integer(2)], [.integer(3)]])
  }
}

/// A `sqlite3` shell process on a database that has run some SQL (a read transaction, say)
/// and stays open until `finish`.
final class SQLiteShell: Sendable {
  let process: Process
  private let input: Pipe

  init(_ database: URL, holding sql: String) throws {
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", database.path]
    input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data((sql + "\n").utf8))
    // Its answer is there once the statement ran (and the read transaction holds).
    _ = output.fileHandleForReading.availableData
  }

  func finish() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
