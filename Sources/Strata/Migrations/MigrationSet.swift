import Foundation

/// The migrations of a folder (or a bundle's resource folder), sorted by version.
public struct MigrationSet: Sendable {
  /// Sorted by version, ascending; versions are unique.
  public let migrations: [Migration]
  /// The folder as the user named it, for messages.
  public let directory: String

  /// Migrations built in code; they must have unique versions.
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
  /// - Parameter displayPath: how messages name the folder (default: `url`'s path).
  public init(directory url: URL, displayPath: String? = nil) throws {
    let shown = displayPath ?? url.path
    guard isDirectory(atPath: url.path) else {
      throw MigrationError.directoryNotFound(path: shown)
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    } catch {
      throw MigrationError.unreadable(file: shown, reason: error.localizedDescription)
    }
    struct Parts {
      var whole: [(String, MigrationParser.FileName)] = []
      var up: (String, MigrationParser.FileName)?
      var down: (String, MigrationParser.FileName)?
    }
    var byVersion: [Int64: Parts] = [:]
    for name in names where !name.hasPrefix(".") && name.lowercased().hasSuffix(".sql") {
      let file = shown + "/" + name
      guard let parsed = MigrationParser.parseFileName(name) else {
        throw MigrationError.invalidFileName(file: file)
      }
      var parts = byVersion[parsed.version, default: Parts()]
      switch parsed.part {
      case .whole: parts.whole.append((file, parsed))
      case .up:
        if let existing = parts.up {
          throw MigrationError.duplicateVersion(version: parsed.version, files: [existing.0, file])
        }
        parts.up = (file, parsed)
      case .down:
        if let existing = parts.down {
          throw MigrationError.duplicateVersion(version: parsed.version, files: [existing.0, file])
        }
        parts.down = (file, parsed)
      }
      byVersion[parsed.version] = parts
    }
    let folder = url.path.hasSuffix("/") ? url.path : url.path + "/"
    var migrations: [Migration] = []
    for version in byVersion.keys.sorted() {
      guard let parts = byVersion[version] else { continue }
      let files = parts.whole.map(\.0) + [parts.up?.0].compactMap { $0 }
      if files.count > 1 {
        throw MigrationError.duplicateVersion(version: version, files: files)
      }
      if let (file, parsed) = parts.whole.first {
        if let down = parts.down {
          throw MigrationError.duplicateVersion(version: version, files: [file, down.0])
        }
        let bytes = try Self.read(folder + parsed.fileNameOnDisk(file), file)
        let (up, down) = try MigrationParser.parseContent(bytes: bytes, file: file)
        migrations.append(Self.migration(parsed, up: up, down: down))
      } else if let (upFile, parsed) = parts.up {
        let upBytes = MigrationParser.normalize(
          try Self.read(folder + parsed.fileNameOnDisk(upFile), upFile)
        )
        guard containsSQL(upBytes) else { throw MigrationError.emptyMigration(file: upFile) }
        let upText = String(decoding: upBytes, as: UTF8.self)
        let up = MigrationScript(sql: upText, file: upFile, firstLine: 1, isTransactional: true)
        var down: MigrationScript?
        if let (downFile, downParsed) = parts.down {
          let downBytes = MigrationParser.normalize(
            try Self.read(folder + downParsed.fileNameOnDisk(downFile), downFile)
          )
          if containsSQL(downBytes) {
            let downText = String(decoding: downBytes, as: UTF8.self)
            down = MigrationScript(
              sql: downText,
              file: downFile,
              firstLine: 1,
              isTransactional: true
            )
          }
        }
        migrations.append(Self.migration(parsed, up: up, down: down))
      } else if let (downFile, _) = parts.down {
        throw MigrationError.downWithoutUp(file: downFile)
      }
    }
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

  /// The file's bytes, which must be UTF-8 text.
  private static func read(_ path: String, _ file: String) throws -> [UInt8] {
    guard let bytes = readFile(atPath: path) else {
      throw MigrationError.unreadable(file: file, reason: "permission denied or not a file")
    }
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw MigrationError.unreadable(file: file, reason: "not UTF-8 text")
    }
    return bytes
  }
}

extension MigrationParser.FileName {
  /// The name on disk: the last component of the displayed path.
  fileprivate func fileNameOnDisk(_ displayed: String) -> String {
    displayed.split(separator: "/").last.map(String.init) ?? displayed
  }
}
