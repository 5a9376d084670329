import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `status`'s copy of a folder: used only while every file is as it was when the copy was
/// made, and then exactly what reading the folder gives.
@Suite struct MigrationFolderCacheTests {
  let directory: TemporaryDirectory
  let folder: URL
  let cache: MigrationFolderCache

  init() throws {
    directory = try TemporaryDirectory()
    folder = directory.path("project/migrations")
    cache = MigrationFolderCache(file: directory.path("cache/copy"), identity: "build 1")
  }

  /// Writes the files, then waits until they have been still long enough to be kept.
  func writeSettled(_ files: [String: String]) async throws {
    for (name, text) in files { try directory.write("project/migrations/" + name, text) }
    try await settle()
  }

  /// Waits without holding a thread (the other tests run meanwhile).
  func settle() async throws {
    try await Task.sleep(for: .milliseconds(FolderSnapshot.settlingSeconds * 1000 + 200))
  }

  func read(
    _ cache: MigrationFolderCache? = nil
  ) throws -> (MigrationSet, MigrationFolderCache.Outcome) {
    try (cache ?? self.cache).migrations(
      directory: folder,
      displayPath: "migrations",
      followSymlinks: false,
      format: nil,
      excluding: MigrationFileExclusion()
    )
  }

  func fresh() throws -> MigrationSet {
    try MigrationSet(directory: folder, displayPath: "migrations")
  }

  static let dbmate = [
    "0001_people.sql":
      "-- migrate:up\nCREATE TABLE people (name TEXT);\n-- migrate:down\nDROP TABLE people;\n",
    "0002_pets.sql": "-- migrate:up transaction:false\r\nCREATE TABLE pets (név TEXT);\r\n",
    "notes.md": "not a migration\n",
  ]

  @Test func aStillFolderIsKeptThenUsedAndReadsAsTheFolderDoes() async throws {
    try await writeSettled(Self.dbmate)
    let (first, made) = try read()
    #expect(made == .kept)
    let (second, used) = try read()
    #expect(used == .used)
    let expected = try fresh()
    #expect(second.migrations == expected.migrations)
    #expect(second.format == expected.format)
    #expect(second.directory == expected.directory)
    #expect(first.migrations == expected.migrations)
  }

  @Test(arguments: [
    [
      "1_a.up.sql": "CREATE TABLE a (x);\n", "1_a.down.sql": "DROP TABLE a;\n",
      "2_b.up.sql": "SELECT 1;\n",
    ],
    ["1.sql": "CREATE TABLE a (x);\n", "2.sql": "CREATE TABLE b (x);\n"],
    [
      "00001_a.sql":
        "-- +goose Up\n-- +goose NO TRANSACTION\nCREATE TABLE a (x);\n-- +goose Down\nDROP TABLE a;\n"
    ],
  ])
  func everyFormatKeptReadsBackTheSame(files: [String: String]) async throws {
    try await writeSettled(files)
    #expect(try read().1 == .kept)
    let (used, outcome) = try read()
    #expect(outcome == .used)
    let expected = try fresh()
    #expect(used.migrations == expected.migrations)
    #expect(used.format == expected.format)
  }

  @Test func filesJustWrittenAreReadAndNotKept() async throws {
    for (name, text) in Self.dbmate { try directory.write("project/migrations/" + name, text) }
    #expect(try read().1 == .read)
    #expect(!FileManager.default.fileExists(atPath: cache.file.path))
  }

  @Test func anEditThatKeepsTheSizeAndPutsTheTimeBackIsRead() async throws {
    try await writeSettled(Self.dbmate)
    #expect(try read().1 == .kept)
    let file = folder.appendingPathComponent("0001_people.sql")
    let before = try FileManager.default.attributesOfItem(atPath: file.path)
    let edited = Self.dbmate["0001_people.sql"]!.replacingOccurrences(of: "name", with: "nick")
    // Written in place (not a new file moved over it): the same inode, the same size, the
    // modification time put back to the nanosecond; only the change time says it was written.
    try keepingModificationTime(ofFileAt: file.path) {
      let handle = try FileHandle(forWritingTo: file)
      try handle.write(contentsOf: Data(edited.utf8))
      try handle.close()
    }
    let after = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect(after[.size] as? Int == before[.size] as? Int)
    #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
    let (set, outcome) = try read()
    #expect(outcome == .read)
    #expect(set.migrations == (try fresh()).migrations)
    #expect(set.migrations[0].up.sql.contains("nick"))
  }

  @Test func anAddedARemovedOrARenamedFileIsRead() async throws {
    try await writeSettled(Self.dbmate)
    #expect(try read().1 == .kept)
    try directory.write("project/migrations/0003_toys.sql", "CREATE TABLE toys (x);\n")
    #expect(try read().0.migrations.map(\.version) == [1, 2, 3])
    try FileManager.default.removeItem(at: folder.appendingPathComponent("0003_toys.sql"))
    try FileManager.default.moveItem(
      at: folder.appendingPathComponent("0002_pets.sql"),
      to: folder.appendingPathComponent("0004_pets.sql")
    )
    let (set, outcome) = try read()
    #expect(outcome != .used)
    #expect(set.migrations.map(\.version) == [1, 4])
  }

  @Test func anotherBuildOrOtherArgumentsDoNotTakeTheCopy() async throws {
    try await writeSettled(Self.dbmate)
    #expect(try read().1 == .kept)
    let other = MigrationFolderCache(file: cache.file, identity: "build 2")
    #expect(try read(other).1 == .kept)
    #expect(try read(other).1 == .used)
    let excluding = try cache.migrations(
      directory: folder,
      displayPath: "migrations",
      followSymlinks: false,
      format: nil,
      excluding: MigrationFileExclusion(["0002_*"])
    )
    #expect(excluding.1 != .used)
    #expect(excluding.0.migrations.map(\.version) == [1])
  }

  @Test func aCopyCutShortOrGarbledIsNotUsed() async throws {
    try await writeSettled(Self.dbmate)
    #expect(try read().1 == .kept)
    let whole = try Data(contentsOf: cache.file)
    // A bit flipped in the middle, in each of the last 16 bytes the checksum covers (its last
    // whole word and the bytes after it, whatever the length) and in the checksum itself.
    let offsets =
      [whole.count / 2] + Array((whole.count - 24)..<(whole.count - 8)) + [whole.count - 1]
    let garbled = offsets.map { offset in
      var bytes = whole
      bytes[offset] ^= 0x80
      return bytes
    }
    for bytes in [whole.prefix(whole.count - 3), Data()] + garbled {
      try bytes.write(to: cache.file)
      let (set, outcome) = try read()
      #expect(outcome == .kept)
      #expect(set.migrations == (try fresh()).migrations)
    }
  }

  @Test func aFolderWithALinkOrASubfolderIsNeverKept() async throws {
    try await writeSettled(Self.dbmate)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("old"),
      withIntermediateDirectories: true
    )
    try await settle()
    #expect(try read().1 == .read)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("old"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("link.md").path,
      withDestinationPath: "notes.md"
    )
    try await settle()
    #expect(try read().1 == .read)
  }

  @Test func flywaySettingsAppearingBesideTheFolderAreRead() async throws {
    try await writeSettled(["0001_a.sql": "SELECT 1;\n"])
    #expect(try read().1 == .kept)
    #expect(try read().1 == .used)
    try directory.write("project/flyway.conf", "flyway.sqlMigrationPrefix=0\n")
    #expect(try read().1 != .used)
  }

  @Test func aFolderThatDoesNotReadThrowsItsErrorAndKeepsNothing() async throws {
    try await writeSettled(["0001_a.sql": "-- migrate:down\nDROP TABLE a;\n"])
    #expect(throws: MigrationError.self) { try read() }
    #expect(!FileManager.default.fileExists(atPath: cache.file.path))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("0001_a.sql"))
    try await writeSettled(Self.dbmate)
    #expect(try read().1 == .kept)
    try directory.write("project/migrations/0003_bad.sql", "-- migrate:down\nDROP TABLE a;\n")
    #expect(throws: MigrationError.self) { try read() }
  }
}
