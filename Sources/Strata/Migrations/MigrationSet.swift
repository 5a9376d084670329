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
    let readFile: FileRead = { name in
      // A regular file that is not a link is read at once (four system calls); anything else
      // takes the checks that say what it is.
      if let bytes = folder.read(name, followingLinks: false) { return .success(bytes) }
      if let problem = folderFileProblem(
        folder: url.path,
        name: name,
        followSymlinks: followSymlinks
      ) {
        return .failure(FileReadFailure(stringLiteral: problem))
      }
      return folder.read(name).map { .success($0) } ?? .failure("permission denied or not a file")
    }
    let isDiesel =
      format == .diesel
      || (format == nil && !DieselReader.migrationFolders(in: url.path, names: names).isEmpty)
    if isDiesel {
      try self.init(
        dieselFolder: url.path,
        names: names,
        directory: shown,
        excluding: exclusion,
        read: readFile
      )
    } else {
      try self.init(
        fileNames: names,
        directory: shown,
        format: format,
        excluding: exclusion,
        flyway: { try FlywaySettings.read(folder: url, shown: shown).0 },
        read: readFile
      )
    }
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
    try self.init(
      fileNames: Array(byName.keys),
      directory: directory,
      format: format,
      excluding: exclusion,
      flyway: { try conf.map(FlywaySettings.settings(of:)) ?? FlywaySettings() }
    ) { name in
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
  /// reads them, settles the folder's format (`format`, or detected from the files), then parses
  /// each file as that format's tool does.
  private init(
    fileNames: [String],
    directory shown: String,
    format chosen: MigrationFormat?,
    excluding exclusion: MigrationFileExclusion,
    flyway: () throws -> FlywaySettings,
    read readFile: FileRead
  ) throws {
    // Sorted once here: the readers below take the names in this order.
    let fileNames = MigrationParser.sortedNames(
      exclusion.patterns.isEmpty
        ? fileNames : fileNames.filter { !exclusion.excludes(name: $0, shown: shown + "/" + $0) }
    )
    if let (migrations, repeatables) = try Self.flywayFolder(
      names: fileNames,
      directory: shown,
      chosen: chosen,
      settings: flyway,
      read: readFile
    ) {
      self.migrations = migrations
      self.repeatables = repeatables
      self.directory = shown
      self.format = .flyway
      return
    }
    var byVersion: [MigrationVersion: FileGroup] = [:]
    byVersion.reserveCapacity(fileNames.count)
    // A name strata's rule refuses, or two files of one version, may still be a sql-migrate
    // folder's: the first such problem is kept and thrown unless the folder is read as one.
    var nameProblem: MigrationError?
    var sqlNames: [String] = []
    for name in fileNames where !name.hasPrefix(".") {
      let file = shown + "/" + name
      guard MigrationParser.isSQLName(name) else {
        if MigrationFileExclusion.isUnrunnableMigration(name) {
          throw MigrationError.notSQL(file: file)
        }
        continue
      }
      sqlNames.append(name)
      let bare = Self.bareVersion(name)
      guard let parsed = MigrationParser.parseFileName(name) ?? bare else {
        if MigrationParser.hasOversizedVersion(name) {
          throw MigrationError.versionTooLarge(file: file)
        }
        nameProblem = nameProblem ?? .invalidFileName(file: file)
        continue
      }
      guard parsed.version > 0 else {
        nameProblem = nameProblem ?? .versionZero(file: file)
        continue
      }
      let entry = FileGroup.File(name: name, shown: file, parsed: parsed, isBare: bare != nil)
      let version = MigrationVersion(integer: parsed.version)
      if let group = byVersion[version], group.whole.count + (group.up == nil ? 0 : 1) > 0,
        parsed.part != .down
      {
        let files = group.whole.map(\.shown) + [group.up?.shown].compactMap { $0 } + [file]
        nameProblem = nameProblem ?? .duplicateVersion(version: version, files: files)
      }
      // Added in place: a copy taken out of the dictionary would copy its file list too.
      try byVersion[version, default: FileGroup(version: version)].add(entry)
    }
    if let problem = nameProblem {
      guard chosen == nil || chosen == .sqlMigrate,
        let idGroups = try Self.sqlMigrateGroups(
          sqlNames,
          directory: shown,
          named: chosen == .sqlMigrate,
          read: readFile
        )
      else { throw problem }
      byVersion = idGroups
    }
    // Names are checked in order first; reading and parsing the files is spread over the
    // cores, and the first failure in version order is the one reported. Each group is parsed
    // in the same pass as the format its own files suggest (the folder's format is known only
    // once every file is read); a guess the folder's format belies is parsed again.
    let groups = Self.inVersionOrder(byVersion.values)
    let read = try groups.concurrentMap { group in
      try ReadGroup(group.load(readFile), guess: chosen)
    }
    .map { try $0.get() }
    let format =
      try chosen
      ?? MigrationFormat.detect(read.flatMap(\.loaded.signals), directory: shown)
    if let problem = nameProblem, format != .sqlMigrate { throw problem }
    if read.allSatisfy({ $0.guess == format }) {
      self.migrations = try read.compactMap { try $0.parsed.get() }
    } else {
      self.migrations = try read.concurrentMap { entry in
        entry.guess == format ? try entry.parsed.get() : try entry.loaded.migration(format: format)
      }
      .compactMap { try $0.get() }
    }
    self.directory = shown
    self.format = format
  }

  /// The groups sorted by version. Numbers (nearly every folder's versions) are sorted as
  /// numbers, the order `<` gives them, and the groups are moved once, not at every swap.
  private static func inVersionOrder(
    _ groups: Dictionary<MigrationVersion, FileGroup>.Values
  ) -> [FileGroup] {
    let numbers = groups.compactMap(\.version.integerValue)
    guard numbers.count == groups.count else { return groups.sorted { $0.version < $1.version } }
    let indices = Array(groups.indices)
    return indices.indices.sorted { numbers[$0] < numbers[$1] }.map { groups[indices[$0]] }
  }

  /// `1.sql` as an iOS bundle names it (SQLiteMigrationManager): the version, no name.
  static func bareVersion(_ name: String) -> MigrationParser.FileName? {
    if let ascii = MigrationParser.asciiBareVersion(name) { return ascii }
    let stem = name.dropLast(4)
    guard !stem.isEmpty, stem.allSatisfy({ $0.isASCII && $0.isNumber }),
      let version = Int64(stem)
    else { return nil }
    return MigrationParser.FileName(version: version, name: "", part: .whole)
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
