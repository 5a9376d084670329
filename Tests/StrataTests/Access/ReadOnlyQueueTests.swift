import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `DatabaseQueue.readOnly(url:)`: an app's extension reads the database the app shares
/// through an App Group, and never creates, migrates or writes it.
@Suite struct ReadOnlyQueueTests {
  /// A database the app set up, with one student, in `journalMode`.
  static func appDatabase(_ dir: TemporaryDirectory, journalMode: String) throws -> URL {
    let url = dir.path("shared.sqlite3")
    try Connection(path: url.path).execute(
      """
      PRAGMA journal_mode = \(journalMode);
      CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL, age INTEGER);
      INSERT INTO student VALUES ('S1', 'Ann', 20);
      """
    )
    return url
  }

  @Test func aWriteThrowsWithoutTouchingTheFileAndReadsWork() async throws {
    let dir = try TemporaryDirectory()
    let url = try Self.appDatabase(dir, journalMode: "DELETE")
    let bytes = try Data(contentsOf: url)
    let queue = try DatabaseQueue.readOnly(url: url)
    #expect(queue.isReadOnly)
    #expect(queue.setupReport == nil)
    #expect(try !DatabaseQueue(url: url).isReadOnly)
    let refused = DatabaseAccessError.readOnlyQueue(path: url.path)
    #expect(throws: refused) {
      try queue.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 21)") }
    }
    #expect(throws: refused) { try queue.write { _ in } }
    await #expect(throws: refused) {
      try await queue.write { db in try db.execute("DELETE FROM student") }
    }
    #expect(throws: DatabaseAccessError.writeInsideRead(sql: "DELETE FROM student")) {
      try queue.read { db in try db.execute("DELETE FROM student") }
    }
    let names = try await queue.read { db in try db.fetchRows("SELECT stuName FROM student") }
    #expect(names.map { $0["stuName"] as SQLValue } == ["Ann"])
    let count = try await queue.read { db in
      try db.fetchValue(Int.self, "SELECT count(*) FROM student")
    }
    #expect(count == 1)
    queue.close()
    #expect(try Data(contentsOf: url) == bytes)
    #expect(!FileManager.default.fileExists(atPath: url.path + "-journal"))

    let error = DatabaseAccessError.readOnlyQueue(path: "/group/shared.sqlite3")
    #expect(error.message.contains("/group/shared.sqlite3"))
    #expect(error.message.contains("read-only"))
    #expect(error.message.contains("nothing was written"))
    #expect(error.help.contains("app's own queue"))
  }

  @Test func aReadSeesWhatTheAppCommitsInWALModeAfterTheQueueOpened() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.appDatabase(dir, journalMode: "WAL")
    let app = try DatabaseQueue(url: url)
    try app.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 21)") }
    #expect(FileManager.default.fileExists(atPath: url.path + "-shm"))
    let widget = try DatabaseQueue.readOnly(url: url)
    let count = "SELECT count(*) FROM student"
    #expect(try widget.read { db in try db.fetchValue(Int.self, count) } == 2)
    try app.write { db in try db.execute("INSERT INTO student VALUES ('S3', 'Cy', 22)") }
    #expect(try widget.read { db in try db.fetchValue(Int.self, count) } == 3)
    // In WAL mode the extension's read and the app's write do not wait for each other.
    let writer = try DatabaseQueue(url: url, busyTimeout: 0)
    try widget.read { db in
      #expect(try db.fetchValue(Int.self, count) == 3)
      try writer.write { db in try db.execute("INSERT INTO student VALUES ('S4', 'Di', 23)") }
    }
    #expect(try widget.read { db in try db.fetchValue(Int.self, count) } == 4)
    #expect(
      try widget.read { db in try db.fetchValue(String.self, "PRAGMA journal_mode") } == "wal"
    )
    #expect(throws: DatabaseAccessError.readOnlyQueue(path: url.path)) {
      try widget.write { _ in }
    }
  }

  @Test func aWALDatabaseWithNoAppConnectionOpenIsRead() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.appDatabase(dir, journalMode: "WAL")
    // The app's last connection closed: SQLite checkpointed and removed -wal and -shm.
    #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    let bytes = try Data(contentsOf: url)
    let widget = try DatabaseQueue.readOnly(url: url)
    let count = "SELECT count(*) FROM student"
    #expect(try widget.read { db in try db.fetchValue(Int.self, count) } == 1)
    // The app opens later and writes; the widget, still open, sees it.
    let app = try DatabaseQueue(url: url)
    try app.write { db in try db.execute("INSERT INTO student VALUES ('S2', 'Bob', 21)") }
    #expect(try widget.read { db in try db.fetchValue(Int.self, count) } == 2)
    // The widget left the file as it was; the app's write is in the -wal until the app, the
    // last connection to close, checkpoints it.
    widget.close()
    #expect(try Data(contentsOf: url) == bytes)
    app.close()
    #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    #expect(try DatabaseFingerprint.of(url).rowCounts["student"] == 2)
  }

  @Test func aMissingFileThrowsMissingAndCreatesNothing() throws {
    let dir = try TemporaryDirectory()
    let missing = dir.path("shared.sqlite3")
    let error = #expect(throws: DatabaseOpenError.self) {
      try DatabaseQueue.readOnly(url: missing)
    }
    #expect(error == .missing(path: missing.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
  }

  @Test func aReadOnlyQueueIsSuspendedAsTheAppsQueue() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.appDatabase(dir, journalMode: "WAL")
    let widget = try DatabaseQueue.readOnly(url: url)
    widget.suspend()
    #expect(throws: DatabaseAccessError.suspended(path: url.path)) {
      try widget.read { db in try db.fetchRows("SELECT * FROM student") }
    }
    // A write is refused for being read-only, which stays true after resume().
    #expect(throws: DatabaseAccessError.readOnlyQueue(path: url.path)) {
      try widget.write { _ in }
    }
    widget.resume()
    #expect(
      try widget.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM student") } == 1
    )
  }
}
