import Foundation
import Strata
import StrataTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Looking at a database file must not drop the locks another connection of the same process
/// holds on it: on POSIX, closing any descriptor of a file releases every `fcntl` lock the
/// process holds on that file (sqlite.org, "How To Corrupt An SQLite Database File", §2.2).
/// An app holds a write transaction while it calls every public entry point that inspects the
/// file; another process must still be locked out, and the app's commit must land.
@Suite struct DatabaseFileLockTests {
  @Test(arguments: ["DELETE", "WAL"])
  func inspectingTheFileKeepsAnotherConnectionsLocks(_ journalMode: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write("migrations/0001_create.sql", "CREATE TABLE t (x TEXT);\n")
    let database = dir.path("app.sqlite3")
    var setup = DatabaseSetup(database: database, migrations: dir.path("migrations"))
    setup.busyTimeout = 200
    try setup.run()
    try Connection(path: database.path).execute("PRAGMA journal_mode = \(journalMode)")

    let holder = try Connection(path: database.path)
    try holder.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES ('app')")

    // Every public entry point that looks at the file, while the transaction is open.
    #expect(databaseFileKind(at: database.path) == .sqlite)
    #expect(isWALDatabase(at: database.path) == (journalMode == "WAL"))
    // The write lock is held, so run() may give up on it; what matters is what it leaves.
    _ = try? setup.run()
    for access in [DatabaseAccess.read, .write, .create] {
      _ = try? Connection.open(at: database, access: access, busyTimeout: 200)
    }
    // Asked to write a template over it, strata looks at it and refuses.
    #expect(throws: OutputFileError.self) {
      try TemplateBuilder.build(
        MigrationSet(directory: dir.path("migrations")),
        to: database,
        replacing: true
      )
    }

    // Another process reads and closes the file (in WAL mode, a last connection removes the
    // -wal and -shm files as it closes), then another tries to write.
    let reader = try SQLiteShell.run(database, "SELECT count(*) FROM t;")
    #expect(reader.standardOutput == "0\n", "\(reader.standardError)")
    let other = try SQLiteShell.run(database, "INSERT INTO t VALUES ('other');")
    #expect(other.exitCode != 0, "another process wrote while the app held the write lock")
    #expect(other.standardError.contains("locked"), "\(other.standardError)")

    #expect(throws: Never.self) { try holder.execute("COMMIT") }
    let after = try SQLiteShell.run(database, "SELECT group_concat(x) FROM t;")
    #expect(after.exitCode == 0, "\(after.standardError)")
    #expect(after.standardOutput == "app\n", "the app's committed row was lost")
  }

  /// Looking at a path that is a FIFO must not open it: opening a FIFO blocks until a writer
  /// comes, which would hang an app's launch.
  @Test func lookingAtAFIFODoesNotOpenIt() throws {
    let dir = try TemporaryDirectory()
    let fifo = dir.path("pipe.sqlite3").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var kind: DatabaseFileKind?
    nonisolated(unsafe) var wal = true
    DispatchQueue.global().async {
      kind = databaseFileKind(at: fifo)
      wal = isWALDatabase(at: fifo)
      done.signal()
    }
    guard done.wait(timeout: .now() + 5) == .success else {
      // Release the blocked open with a writer, so that the test fails rather than hangs.
      let writer = open(fifo, O_WRONLY | O_NONBLOCK)
      if writer >= 0 { close(writer) }
      _ = done.wait(timeout: .now() + 5)
      Issue.record("looking at a FIFO blocked")
      return
    }
    #expect(kind == .notSQLite)
    #expect(!wal)
  }
}

/// The `sqlite3` command-line shell, as another process using the same database.
enum SQLiteShell {
  static func run(_ database: URL, _ sql: String) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-cmd", ".timeout 200", database.path, sql]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
      exitCode: process.terminationStatus,
      standardOutput: String(decoding: output, as: UTF8.self),
      standardError: String(decoding: error, as: UTF8.self)
    )
  }
}
