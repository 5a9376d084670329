import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `status`'s copy of a database's history: used only while the database, its `-wal` and its
/// `-journal` are as they were when the copy was made, and then exactly what reading it gives.
@Suite struct DatabaseHistoryCacheTests {
  let directory: TemporaryDirectory
  let database: URL
  let cache: DatabaseHistoryCache

  init() throws {
    directory = try TemporaryDirectory()
    database = directory.path("app.sqlite3")
    cache = DatabaseHistoryCache(file: directory.path("cache/history"), identity: "build 1")
    try directory.write(
      "migrations/0001_people.sql",
      "-- migrate:up\nCREATE TABLE people (name TEXT);\n-- migrate:down\nDROP TABLE people;\n"
    )
    try directory.write("migrations/0002_pets.sql", "CREATE TABLE pets (name TEXT);\n")
  }

  /// Applies the folder's migrations (those up to `version`) in a connection closed after.
  func migrate(upTo version: Int64? = nil) throws {
    let set = try MigrationSet(directory: directory.path("migrations"), displayPath: "m")
    let db = try Connection.open(at: database, access: .create)
    var options = MigrateOptions()
    if let version { options.target = MigrationVersion(integer: version) }
    try Migrator(set).migrate(db, options: options)
  }

  /// Waits until the database has been still long enough to be kept, without holding a thread.
  func settle() async throws {
    try await Task.sleep(for: .milliseconds(FolderSnapshot.settlingSeconds * 1000 + 200))
  }

  func fresh(_ path: String? = nil) throws -> RecordedHistory {
    let url = path.map { URL(fileURLWithPath: $0) } ?? database
    return try RecordedHistory.read(
      Connection.open(at: url, access: .read),
      includingRepeatables: true
    )
  }

  func read(
    _ cache: DatabaseHistoryCache? = nil,
    at path: String? = nil
  ) throws -> (RecordedHistory, MigrationFolderCache.Outcome) {
    let path = path ?? database.path
    return try (cache ?? self.cache).history(ofDatabaseAt: path) { try fresh(path) }
  }

  @Test func aStillDatabaseIsKeptThenUsedAndReadsAsTheDatabaseDoes() async throws {
    try migrate()
    try await settle()
    let (first, made) = try read()
    #expect(made == .kept)
    let (second, used) = try read()
    #expect(used == .used)
    let expected = try fresh()
    #expect(expected.rows.map(\.version) == [1, 2])
    #expect(second.rows == expected.rows)
    #expect(second.repeatables == expected.repeatables)
    #expect(first.rows == expected.rows)
  }

  @Test func aDatabaseJustWrittenIsReadAndNotKept() throws {
    try migrate()
    #expect(try read().1 == .read)
    #expect(!FileManager.default.fileExists(atPath: cache.file.path))
  }

  @Test func aMigrationAppliedSinceTheCopyIsRead() async throws {
    try migrate(upTo: 1)
    try await settle()
    #expect(try read().1 == .kept)
    #expect(try read().0.rows.map(\.version) == [1])
    try migrate()
    let (history, outcome) = try read()
    #expect(outcome == .read)
    #expect(history.rows.map(\.version) == [1, 2])
  }

  @Test func anEditThatKeepsTheSizeAndPutsTheTimeBackIsRead() async throws {
    try migrate()
    try await settle()
    #expect(try read().1 == .kept)
    let before = try FileManager.default.attributesOfItem(atPath: database.path)
    let old = try fresh().rows[1].checksum
    let edited = String(old.reversed())
    #expect(edited.utf8.count == old.utf8.count && edited != old)
    try keepingModificationTime(ofFileAt: database.path) {
      let db = try Connection.open(at: database, access: .write)
      try db.execute("UPDATE strata_migrations SET checksum = '\(edited)' WHERE version = 2")
    }
    // The size and the modification time are as the copy recorded them: only the change
    // time says the file was written.
    let after = try FileManager.default.attributesOfItem(atPath: database.path)
    #expect(after[.size] as? Int == before[.size] as? Int)
    #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    let (history, outcome) = try read()
    #expect(outcome == .read)
    #expect(history.rows[1].checksum == edited)
  }

  @Test func aJournalOrAWALBesideTheDatabaseIsPartOfTheKey() async throws {
    try migrate()
    try await settle()
    #expect(try read().1 == .kept)
    for suffix in ["-journal", "-wal"] {
      let beside = database.path + suffix
      #expect(FileManager.default.createFile(atPath: beside, contents: Data()))
      let (history, outcome) = try read()
      #expect(outcome == .read)
      #expect(history.rows == (try fresh()).rows)
      try FileManager.default.removeItem(atPath: beside)
      // As it was when the copy was made: the copy is the database's again.
      #expect(try read().1 == .used)
    }
  }

  @Test func anotherBuildDoesNotTakeTheCopy() async throws {
    try migrate()
    try await settle()
    #expect(try read().1 == .kept)
    let other = DatabaseHistoryCache(file: cache.file, identity: "build 2")
    #expect(try read(other).1 == .kept)
    #expect(try read(other).1 == .used)
    #expect(try read().1 == .kept)
  }

  @Test func aCopyCutShortOrGarbledIsNotUsed() async throws {
    try migrate()
    try await settle()
    #expect(try read().1 == .kept)
    let whole = try Data(contentsOf: cache.file)
    var garbled = whole
    garbled[whole.count / 2] ^= 0x20
    for bytes in [whole.prefix(whole.count - 3), garbled, Data()] {
      try bytes.write(to: cache.file)
      let (history, outcome) = try read()
      #expect(outcome == .kept)
      #expect(history.rows == (try fresh()).rows)
    }
  }

  @Test func aLinkOrAMissingDatabaseIsNeverKept() async throws {
    try migrate()
    let link = directory.path("link.sqlite3").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database.path)
    try await settle()
    let (history, outcome) = try read(at: link)
    #expect(outcome == .read)
    #expect(history.rows.map(\.version) == [1, 2])
    let missing = directory.path("none.sqlite3").path
    let empty = try cache.history(ofDatabaseAt: missing) {
      RecordedHistory(rows: [], otherTools: [], repeatables: [])
    }
    #expect(empty.1 == .read)
    #expect(!FileManager.default.fileExists(atPath: cache.file.path))
  }

  @Test func aDatabaseThatDoesNotReadThrowsAndKeepsNothing() async throws {
    try directory.write("app.sqlite3", "not a database, just text\n")
    try await settle()
    #expect(throws: DatabaseOpenError.self) { try read() }
    #expect(!FileManager.default.fileExists(atPath: cache.file.path))
  }

  @Test func anotherToolsHistoryIsNeverKept() async throws {
    do {
      let db = try Connection.open(at: database, access: .create)
      try db.execute(
        "CREATE TABLE schema_migrations (version VARCHAR(128) PRIMARY KEY);"
          + "INSERT INTO schema_migrations VALUES ('20240101000000');"
      )
    }
    try await settle()
    let (history, outcome) = try read()
    #expect(!history.otherTools.isEmpty)
    #expect(outcome == .read)
    #expect(!FileManager.default.fileExists(atPath: cache.file.path))
  }
}
