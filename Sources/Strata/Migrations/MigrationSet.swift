import Foundation

/// The migrations of a folder (or a bundle's resource folder), sorted by version.
public struct MigrationSet: Sendable {
  /// Sorted by version, ascending; versions are unique.
  package let migrations: [Migration]
  /// The folder as the user named it, for messages.
  public let directory: String
  /// How the folder's files are written (detected from them unless the caller named it);
  /// strata's own for migrations built in code.
  public let format: MigrationFormat
  /// Flyway's repeatable migrations (`R__<description>.sql`), in the order Flyway runs them
  /// (by description); empty for every other format.
  package private(set) var repeatables: [RepeatableMigration] = []
  /// The folder the files were read from, when they were (whatever `directory` shows): where
  /// adoption reads a file again to compare it with another tool's checksum.
  package private(set) var folder: URL?

  /// Migrations built in code; they must have unique versions. `format` says how their parts
  /// run where formats differ (which parts may manage their own transaction); strata's own by
  /// default.
  ///
  /// - Throws: `MigrationError.duplicateVersion` when two migrations share a version.
  package init(
    _ migrations: [Migration],
    directory: String = "(in code)",
    format: MigrationFormat = .dbmate
  ) throws {
    let sorted = migrations.sorted { $0.version < $1.version }
    for (a, b) in zip(sorted, sorted.dropFirst()) where a.version == b.version {
      throw MigrationError.duplicateVersion(version: a.version, files: [a.up.file, b.up.file])
    }
    self.migrations = sorted
    self.directory = directory
    self.format = format
  }

  /// Migrations already read, sorted and checked.
  init(sorted migrations: [Migration], directory: String, format: MigrationFormat) {
    self.migrations = migrations
    self.directory = directory
    self.format = format
  }

  /// Reads every `.sql` file of `url`, rejecting the whole folder on the first bad file, so
  /// nothing touches the database while the files are wrong.
  ///
  /// - Parameters:
  ///   - url: the folder of `.sql` files.
  ///   - displayPath: how messages name the folder (default: `url`'s path).
  ///   - followSymlinks: read files that are symbolic links to files outside the folder
  ///     (refused by default: a link to a `.env` would print its secrets).
  ///   - format: how the files are written; nil (the default) detects it from the files.
  ///   - exclusion: files to leave out on purpose (see `MigrationFileExclusion`).
  /// - Throws: `MigrationError` for a missing or unreadable folder or file, a bad file name, a
  ///   version 0, a duplicate version, a marker problem or invalid UTF-8, naming the file; a
  ///   file the format does not read (`formatProblem`), a folder that mixes formats, or a file
  ///   with a version that is not SQL and is not excluded (`notSQL`).
  package init(
    directory url: URL,
    displayPath: String? = nil,
    followSymlinks: Bool = false,
    format: MigrationFormat? = nil,
    excluding exclusion: MigrationFileExclusion = MigrationFileExclusion()
  ) throws {
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
    let readFile: MigrationFileRead = { name in
      // A regular file that is not a link is read at once (four system calls); anything else
      // takes the checks that say what it is.
      if let bytes = folder.read(name, followingLinks: false) { return .success(bytes) }
      if let problem = folderFileProblem(
        folder: url.path,
        name: name,
        followSymlinks: followSymlinks
      ) {
        return .failure(MigrationFileReadFailure(stringLiteral: problem))
      }
      return folder.read(name).map { .success($0) } ?? .failure("permission denied or not a file")
    }
    let files = MigrationFolderFiles(
      listed: names,
      shown: shown,
      path: url.path,
      exclusion: exclusion,
      flywaySettings: { try FlywaySettings.read(folder: url, shown: shown).0 },
      read: readFile
    )
    self.init(try files.contents(format: format), directory: shown)
    self.folder = url
  }

  /// Reads every `.sql` file of `url`, rejecting the whole folder on the first bad file, so
  /// nothing touches the database while the files are wrong.
  ///
  /// - Parameters:
  ///   - url: the folder of `.sql` files.
  ///   - displayPath: how messages name the folder (default: `url`'s path).
  ///   - followSymlinks: read files that are symbolic links to files outside the folder
  ///     (refused by default: a link to a `.env` would print its secrets).
  ///   - format: how the files are written; nil (the default) detects it from the files.
  /// - Throws: `MigrationError` for a missing or unreadable folder or file, a bad file name, a
  ///   version 0, a duplicate version, a marker problem or invalid UTF-8, naming the file; a
  ///   file the format does not read (`formatProblem`), a folder that mixes formats, or a file
  ///   with a version that is not SQL (`notSQL`).
  public init(
    directory url: URL,
    displayPath: String? = nil,
    followSymlinks: Bool = false,
    format: MigrationFormat? = nil
  ) throws {
    try self.init(
      directory: url,
      displayPath: displayPath,
      followSymlinks: followSymlinks,
      format: format,
      excluding: MigrationFileExclusion()
    )
  }

  /// The migrations of files held in memory (name and bytes), with the rules of a folder;
  /// the fuzzer feeds it whole folders this way.
  package init(
    files: [(name: String, bytes: [UInt8])],
    directory: String,
    format: MigrationFormat? = nil,
    excluding exclusion: MigrationFileExclusion = MigrationFileExclusion()
  ) throws {
    let byName = Dictionary(
      files.map { ($0.name, $0.bytes) },
      uniquingKeysWith: { first, _ in first }
    )
    let conf = byName["flyway.conf"].map {
      FlywaySettings.ConfigFile(shown: directory + "/flyway.conf", bytes: $0)
    }
    let folder = MigrationFolderFiles(
      listed: Array(byName.keys),
      shown: directory,
      path: nil,
      exclusion: exclusion,
      flywaySettings: { try conf.map(FlywaySettings.settings(of:)) ?? FlywaySettings() }
    ) { name in
      byName[name].map { .success($0) } ?? .failure("no such file")
    }
    self.init(try folder.contents(format: format), directory: directory)
  }

  /// The migrations a reader made of a folder.
  private init(_ contents: MigrationFolderContents, directory: String) {
    self.migrations = contents.migrations
    self.repeatables = contents.repeatables
    self.directory = directory
    self.format = contents.format
  }

  /// How this folder's versions compare: its format's ordering, or sql-migrate's ids where a
  /// sql-migrate folder is known by its file names.
  package var versionOrdering: MigrationVersion.Ordering {
    migrations.first?.version.ordering ?? format.versionOrdering
  }

  /// The version `text` names in this folder (`--to`, `baseline`'s version): a number, a
  /// Flyway or diesel version, or a sql-migrate file name with or without `.sql`.
  /// - Throws: ``MigrationVersionError`` when `text` is not a version of this folder.
  package func version(_ text: String) throws -> MigrationVersion {
    try MigrationVersion(text: text, ordering: versionOrdering)
  }

  /// The migration with `version`, if the folder has it.
  package func migration(version: MigrationVersion) -> Migration? {
    migrations.first { $0.version == version }
  }

  /// SHA-256 hex of the up part (already BOM-stripped and CRLF → LF), without the white space
  /// around it: adding a down part, or a blank line before it, is not a change. The up part is
  /// its SQL lines alone, without the format's markers and annotations (a goose
  /// `StatementBegin`, sqlx's `-- no-transaction`), the sections of a file joined by a newline;
  /// so the same SQL has the same checksum in every format, and a strata file's checksum is the
  /// one strata has always recorded.
  static func checksum(ofUp sql: String) -> String {
    // `-- strata:allow` lines do not count (LintDirective.swift).
    var text = LintDirective.removingDirectives(sql)
    return text.withUTF8 { trimmedDigest($0) }
  }

  /// The same of the UTF-8 bytes of the up part, read where they are; a part that names
  /// `strata:allow` takes the text's way, which removes the directive lines.
  static func checksum(ofUp bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard !containsBytes(bytes, LintDirective.keywordBytes) else {
      return checksum(ofUp: String(decoding: bytes, as: UTF8.self))
    }
    return trimmedDigest(bytes)
  }

  /// SHA-256 hex of `bytes` without the spaces, tabs and line ends around them.
  private static func trimmedDigest(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return SHA256.hex(buffer: UnsafeBufferPointer(rebasing: bytes[0..<0])) }
    return SHA256.hex(buffer: UnsafeBufferPointer(rebasing: bytes[first...last]))
  }

}
