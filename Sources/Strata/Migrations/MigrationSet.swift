import Foundation

/// The migrations of a folder (or a bundle's resource folder), sorted by version.
public struct MigrationSet: Sendable {
  /// Sorted by version, ascending; versions are unique.
  public let migrations: [Migration]
  /// The folder as the user named it, for messages.
  public let directory: String

  /// Migrations built in code; they must have unique versions.
  ///
  /// - Throws: `MigrationError.duplicateVersion` when two migrations share a version.
  public init(_ migrations: [Migration], directory: String = "(in code)") throws {
    let sorted = migrations.sorted { $0.version < $1.version }
    for (a, b) in zip(sorted, sorted.dropFirst()) where a.version == b.version {
      throw MigrationError.duplicateVersion(version: a.version, files: [a.up.file, b.up.file])
    }
    self.migrations = sorted
    self.directory = directory
  }

  /// Reads every `.sql` file of `url`, rejecting the whole folder on the first bad file, so
  /// nothing touches the database while the files are wrong.
  ///
  /// - Parameters:
  ///   - url: the folder of `.sql` files.
  ///   - displayPath: how messages name the folder (default: `url`'s path).
  ///   - followSymlinks: read files that are symbolic links to files outside the folder
  ///     (refused by default: a link to a `.env` would print its secrets).
  /// - Throws: `MigrationError` for a missing or unreadable folder or file, a bad file name, a
  ///   version 0, a duplicate version, a marker problem or invalid UTF-8, naming the file.
  public init(directory url: URL, displayPath: String? = nil, followSymlinks: Bool = false) throws {
    let shown = displayPath ?? url.path
    switch checkFolder(atPath: url.path) {
    case .listable: break
    case .missing: throw MigrationError.directoryNotFound(path: shown)
    case .unusable(let reason): throw MigrationError.folderUnusable(path: shown, reason: reason)
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: url.path)
    } catch {
      throw MigrationError.folderUnusable(
        path: shown,
        reason: "the folder cannot be listed (\((error as NSError).localizedFailureReason ?? "?"))"
      )
    }
    guard let folder = DirectoryReader(url.path) else {
      throw MigrationError.folderUnusable(
        path: shown,
        reason: "the folder cannot be opened (\(DirectoryReader.openError))"
      )
    }
    try self.init(fileNames: names, directory: shown) { name in
      if let problem = folderFileProblem(
        folder: url.path,
        name: name,
        followSymlinks: followSymlinks
      ) {
        return .failure(FileReadFailure(stringLiteral: problem))
      }
      return folder.read(name).map { .success($0) } ?? .failure("permission denied or not a file")
    }
  }

  /// The migrations of files held in memory (name and bytes), with the rules of a folder;
  /// the fuzzer feeds it whole folders this way.
  package init(files: [(name: String, bytes: [UInt8])], directory: String) throws {
    let byName = Dictionary(
      files.map { ($0.name, $0.bytes) },
      uniquingKeysWith: { first, _ in first }
    )
    try self.init(fileNames: Array(byName.keys), directory: directory) { name in
      byName[name].map { .success($0) } ?? .failure("no such file")
    }
  }

  /// A file's bytes, or why they cannot be read.
  typealias FileRead = @Sendable (String) -> Result<[UInt8], FileReadFailure>

  /// Why a migration file cannot be read, in words.
  struct FileReadFailure: Error, ExpressibleByStringLiteral {
    let reason: String
    init(stringLiteral reason: String) { self.reason = reason }
  }

  /// Groups the `.sql` names of a folder into migrations (a whole file, or an up/down pair),
  /// then reads and parses them.
  private init(fileNames: [String], directory shown: String, read readFile: FileRead) throws {
    /// A file of the folder: its name on disk, how messages show it, what its name says.
    struct File: Sendable {
      let name: String
      let shown: String
      let parsed: MigrationParser.FileName
    }
    struct Parts: Sendable {
      let version: Int64
      var whole: [File] = []
      var up: File?
      var down: File?
    }
    var byVersion: [Int64: Parts] = [:]
    for name in fileNames.sorted() where !name.hasPrefix(".") && name.lowercased().hasSuffix(".sql")
    {
      let file = shown + "/" + name
      guard let parsed = MigrationParser.parseFileName(name) else {
        if MigrationParser.hasOversizedVersion(name) {
          throw MigrationError.versionTooLarge(file: file)
        }
        throw MigrationError.invalidFileName(file: file)
      }
      guard parsed.version > 0 else { throw MigrationError.versionZero(file: file) }
      let entry = File(name: name, shown: file, parsed: parsed)
      var parts = byVersion[parsed.version, default: Parts(version: parsed.version)]
      switch parsed.part {
      case .whole: parts.whole.append(entry)
      case .up:
        if let existing = parts.up {
          throw MigrationError.duplicateVersion(
            version: parsed.version,
            files: [existing.shown, file]
          )
        }
        parts.up = entry
      case .down:
        if let existing = parts.down {
          throw MigrationError.duplicateVersion(
            version: parsed.version,
            files: [existing.shown, file]
          )
        }
        parts.down = entry
      }
      byVersion[parsed.version] = parts
    }
    @Sendable func read(_ file: File) throws -> [UInt8] {
      let bytes: [UInt8]
      switch readFile(file.name) {
      case .success(let read): bytes = read
      case .failure(let failure):
        throw MigrationError.unreadable(file: file.shown, reason: failure.reason)
      }
      guard String(validating: bytes, as: UTF8.self) != nil else {
        throw MigrationError.unreadable(file: file.shown, reason: "not UTF-8 text")
      }
      if let nul = bytes.firstIndex(of: 0) {
        let line = bytes[..<nul].count { $0 == 0x0A } + 1
        throw MigrationError.unreadable(
          file: file.shown,
          reason: "it holds a NUL byte (0x00) on line \(line), so it is not SQL text"
        )
      }
      return bytes
    }
    // Names are checked in order first; reading and parsing the files is spread over the
    // cores, and the first failure in version order is the one reported.
    let versions = byVersion.keys.sorted().compactMap { byVersion[$0] }
    let parsed = versions.concurrentMap { parts -> Migration? in
      let files = parts.whole.map(\.shown) + [parts.up?.shown].compactMap { $0 }
      if files.count > 1 {
        throw MigrationError.duplicateVersion(version: parts.version, files: files)
      }
      if let whole = parts.whole.first {
        if let down = parts.down {
          throw MigrationError.duplicateVersion(
            version: parts.version,
            files: [whole.shown, down.shown]
          )
        }
        let (up, down) = try MigrationParser.parseContent(bytes: try read(whole), file: whole.shown)
        return Self.migration(whole.parsed, up: up, down: down)
      } else if let upFile = parts.up {
        if let downFile = parts.down, downFile.parsed.name != upFile.parsed.name {
          throw MigrationError.mismatchedPair(
            version: parts.version,
            up: upFile.shown,
            down: downFile.shown
          )
        }
        let upBytes = MigrationParser.normalize(try read(upFile))
        try MigrationParser.refuseMarkers(bytes: upBytes, file: upFile.shown)
        guard containsSQL(upBytes) else { throw MigrationError.emptyMigration(file: upFile.shown) }
        let up = MigrationScript(
          sql: String(decoding: upBytes, as: UTF8.self),
          file: upFile.shown,
          firstLine: 1,
          isTransactional: true
        )
        var down: MigrationScript?
        if let downFile = parts.down {
          let downBytes = MigrationParser.normalize(try read(downFile))
          try MigrationParser.refuseMarkers(bytes: downBytes, file: downFile.shown)
          if containsSQL(downBytes) {
            down = MigrationScript(
              sql: String(decoding: downBytes, as: UTF8.self),
              file: downFile.shown,
              firstLine: 1,
              isTransactional: true
            )
          }
        }
        return Self.migration(upFile.parsed, up: up, down: down)
      } else if let downFile = parts.down {
        throw MigrationError.downWithoutUp(file: downFile.shown)
      }
      return nil
    }
    let migrations = try parsed.compactMap { try $0.get() }
    self.migrations = migrations
    self.directory = shown
  }

  /// The migration with `version`, if the folder has it.
  public func migration(version: Int64) -> Migration? {
    migrations.first { $0.version == version }
  }

  private static func migration(
    _ parsed: MigrationParser.FileName,
    up: MigrationScript,
    down: MigrationScript?
  ) -> Migration {
    Migration(
      version: parsed.version,
      name: parsed.name,
      up: up,
      down: down,
      checksum: checksum(ofUp: up.sql)
    )
  }

  /// SHA-256 hex of the up part (already BOM-stripped and CRLF → LF), without the white space
  /// around it: adding a down part, or a blank line before it, is not a change.
  static func checksum(ofUp sql: String) -> String {
    let bytes = Array(sql.utf8)
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return SHA256.hex([UInt8]()) }
    return SHA256.hex(bytes[first...last])
  }

}
