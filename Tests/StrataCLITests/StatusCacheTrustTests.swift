import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `status` takes a kept copy only from a folder no other user can write, and only a file
/// that is the user's and not writable by group or others: a copy another user could have
/// planted or altered is ignored, and the files are read.
///
/// Each test forges the database's history copy as another user could: migration 2's checksum
/// changed, the copy's own checksum made right again. `status` then reads the migration as
/// changed when it takes the copy.
@Suite struct StatusCacheTrustTests {
  private static func status(
    _ project: Project,
    _ cache: [String: String]
  ) throws -> ProcessResult {
    try project.strata("status", "--database", "app.sqlite3", "--check", environment: cache)
  }

  /// A settled, migrated project whose status copies are kept, and the history copy forged.
  private static func forgedProject() async throws -> (Project, [String: String], URL) {
    let (project, cache) = try await StatusCacheTests.settledProject()
    let first = try status(project, cache)
    try #require(first.exitCode == 0, "\(first.standardError)")
    try #require(StatusCacheTests.copies(project).count == 2)
    let folder = project.dir.path("cache/strata/status")
    let checksum = try #require(
      try DatabaseProbe.rows(
        project.database,
        "SELECT checksum FROM strata_migrations WHERE version = 2"
      ).first?.first?.textValue
    )
    for name in StatusCacheTests.copies(project) {
      let file = folder.appendingPathComponent(name)
      var bytes = Array(try Data(contentsOf: file))
      guard bytes.starts(with: HistoryCacheCodec.header) else { continue }
      let target = Array(checksum.utf8)
      let at = try #require(
        (0...(bytes.count - target.count)).first {
          bytes[$0..<($0 + target.count)].elementsEqual(target)
        }
      )
      bytes[at] = bytes[at] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
      let sum = CacheFile.checksum(bytes[..<(bytes.count - 8)])
      withUnsafeBytes(of: sum.littleEndian) {
        bytes.replaceSubrange((bytes.count - 8)..., with: $0)
      }
      try Data(bytes).write(to: file)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
      return (project, cache, file)
    }
    throw CocoaError(.fileNoSuchFile)
  }

  /// The forgery works: in the user's own folder (0700, the file 0600) the copy is taken, so
  /// the tests below would see a lie if the folder or the file were trusted.
  @Test func aCopyInTheUsersOwnFolderIsUsed() async throws {
    let (project, cache, _) = try await Self.forgedProject()
    let result = try Self.status(project, cache)
    #expect(result.exitCode == 1)
    #expect(result.standardOutput.contains("1 applied, 1 changed"), "\(result.standardOutput)")
  }

  /// The copies' folder made writable by everyone: the forged copy is ignored, `status` tells
  /// the truth (both applied, unchanged) and keeps no copy there.
  @Test func aCopyInAFolderOthersCanWriteIsIgnored() async throws {
    let (project, cache, file) = try await Self.forgedProject()
    let forged = try Data(contentsOf: file)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o777],
      ofItemAtPath: file.deletingLastPathComponent().path
    )
    let result = try Self.status(project, cache)
    #expect(result.exitCode == 0, "\(result.standardOutput)")
    #expect(result.standardOutput.contains("2 applied"), "\(result.standardOutput)")
    #expect(!result.standardOutput.contains("changed"))
    #expect(try Data(contentsOf: file) == forged)
  }

  /// A folder above the copies' (here the cache root) writable by group: the same.
  @Test func aCopyUnderAGroupWritableFolderIsIgnored() async throws {
    let (project, cache, _) = try await Self.forgedProject()
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o775],
      ofItemAtPath: project.dir.path("cache").path
    )
    let result = try Self.status(project, cache)
    #expect(result.exitCode == 0, "\(result.standardOutput)")
    #expect(result.standardOutput.contains("2 applied"), "\(result.standardOutput)")
  }

  /// The copy itself writable by group: ignored.
  @Test func aCopyOthersCanWriteIsIgnored() async throws {
    let (project, cache, file) = try await Self.forgedProject()
    try FileManager.default.setAttributes([.posixPermissions: 0o620], ofItemAtPath: file.path)
    let result = try Self.status(project, cache)
    #expect(result.exitCode == 0, "\(result.standardOutput)")
    #expect(result.standardOutput.contains("2 applied"), "\(result.standardOutput)")
  }

  /// The folders strata makes for its copies are the user's alone (0700).
  @Test func theCacheFoldersStrataMakesArePrivate() async throws {
    let (project, _) = try await StatusCacheTests.settledProject()
    let cache = ["XDG_CACHE_HOME": project.dir.path("new/cache").path]
    #expect(try Self.status(project, cache).exitCode == 0)
    for folder in ["new", "new/cache", "new/cache/strata", "new/cache/strata/status"] {
      let mode =
        try FileManager.default.attributesOfItem(
          atPath: project.dir.path(folder).path
        )[.posixPermissions] as? Int
      #expect(mode == 0o700, "\(folder)")
    }
  }

  /// No folder is made under one another user could change: the copies are not kept there,
  /// and `status` reads everything.
  @Test func noFolderIsMadeUnderAFolderOthersCanWrite() async throws {
    let (project, _) = try await StatusCacheTests.settledProject()
    let open = project.dir.path("open")
    try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open.path)
    let cache = ["XDG_CACHE_HOME": open.appendingPathComponent("cache").path]
    let result = try Self.status(project, cache)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: open.path) == [])
  }
}
