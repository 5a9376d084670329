import Foundation

/// diesel's migrations: one folder per migration, `<version>_<name>/up.sql` with an optional
/// `down.sql` and `metadata.toml`, read as diesel_migrations reads them
/// (`FileBasedMigrations`): the version is the folder name up to its first `_` with every `-`
/// removed, versions are ordered as text, and `run_in_transaction = false` in `metadata.toml`
/// runs both parts outside a transaction.
enum DieselReader {
  /// The folders diesel would read as migrations: those not hidden that hold an `up.sql`.
  static func migrationFolders(in path: String, names: [String]) -> [String] {
    // A `.sql` name is a migration file's (a folder named so is refused when it is read), so
    // only the other names are looked at on disk.
    names.filter { name in
      !name.hasPrefix(".") && !MigrationParser.isSQLName(name) && isFolder(path + "/" + name)
        && pathStatus(atPath: path + "/" + name + "/up.sql") != .missing
    }.sorted()
  }

  /// The version a folder's name gives: up to its first `_`, `-` removed.
  static func version(ofFolder name: String) -> (version: String, name: String) {
    guard let underscore = name.firstIndex(of: "_") else { return (name, "") }
    return (String(name[..<underscore]), String(name[name.index(after: underscore)...]))
  }

  /// Whether `metadata.toml` (its bytes) lets the migration run in a transaction: true unless
  /// it says `run_in_transaction = false`.
  ///
  /// - Throws: `MigrationError.formatProblem` at the line of anything else: another key (strata
  ///   would not do what it asks), a line that is not `key = value`, a value not `true` or
  ///   `false`.
  static func runsInTransaction(metadata bytes: [UInt8], file: String) throws -> Bool {
    var runsInTransaction = true
    var seenOnLine: Int?
    let text = String(decoding: MigrationParser.normalize(bytes), as: UTF8.self)
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      func problem(_ reason: String) -> MigrationError {
        .formatProblem(file: file, line: index + 1, format: .diesel, reason: reason)
      }
      let line = raw.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
      guard !line.isEmpty else { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw problem(
          "strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, "
            + "and this line is not a key and a value"
        )
      }
      var key = line[..<equals].trimmingCharacters(in: .whitespaces)
      if key.count >= 2, key.first == "\"", key.last == "\"" {
        key = String(key.dropFirst().dropLast())
      }
      let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      guard key == "run_in_transaction" else {
        throw problem(
          "strata reads only run_in_transaction from diesel's metadata.toml; '\(key)' is refused "
            + "rather than ignored, since strata would not do what it asks"
        )
      }
      if let first = seenOnLine {
        throw problem(
          "run_in_transaction is set again here (first on line \(first)); TOML refuses a key "
            + "set twice, and so does diesel"
        )
      }
      seenOnLine = index + 1
      switch value {
      case "true": runsInTransaction = true
      case "false": runsInTransaction = false
      default: throw problem("run_in_transaction takes true or false, not '\(value)'")
      }
    }
    return runsInTransaction
  }

  private static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// Every folder in `names` that is not hidden (diesel reads them all as migrations).
  static func allFolders(in path: String, names: [String]) -> [String] {
    names.filter { !$0.hasPrefix(".") && isFolder(path + "/" + $0) }.sorted()
  }
}

extension MigrationSet {
  /// A diesel folder's migrations, in diesel's order (the versions as text).
  ///
  /// - Throws: `MigrationError`: a top-level `.sql` file beside the migration folders (mixed
  ///   formats), a folder without `up.sql` or without a version, two folders of one version, a
  ///   file that cannot be read, an up part without SQL, a `metadata.toml` key strata does not
  ///   read; a file with a version that is not SQL (`notSQL`) unless `exclusion` leaves it out.
  init(
    dieselFolder path: String,
    names allNames: [String],
    directory shown: String,
    excluding exclusion: MigrationFileExclusion,
    read readFile: FileRead
  ) throws {
    let names = allNames.filter { !exclusion.excludes(name: $0, shown: shown + "/" + $0) }
    let folders = DieselReader.allFolders(in: path, names: names)
    let topLevel = names.sorted().filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".sql") }
    if let file = names.sorted().first(where: MigrationFileExclusion.isUnrunnableMigration) {
      throw MigrationError.notSQL(file: shown + "/" + file)
    }
    if let file = topLevel.first {
      let bytes = (try? readFile(file).get()) ?? []
      let parsed = MigrationParser.parseFileName(file)
      let bare = Self.bareVersion(file)
      let signal = MigrationFormat.signal(
        isPair: (parsed?.part ?? .whole) != .whole,
        isBare: bare != nil,
        bytes: bytes
      )
      guard let folder = folders.first else {
        throw MigrationError.formatProblem(
          file: shown + "/" + file,
          line: 1,
          format: .diesel,
          reason: "diesel reads one folder per migration (<version>_<name>/up.sql), so it "
            + "would not run this file"
        )
      }
      throw MigrationError.mixedFormats(
        directory: shown,
        formats: [MigrationFormat.diesel.rawValue, signal.name],
        files: [shown + "/" + folder + "/up.sql", shown + "/" + file]
      )
    }
    var migrations: [Migration] = []
    for folder in folders {
      migrations.append(
        try Self.dieselMigration(folder, in: path, directory: shown, read: readFile)
      )
    }
    migrations.sort { $0.version < $1.version }
    for (a, b) in zip(migrations, migrations.dropFirst()) where a.version == b.version {
      throw MigrationError.duplicateVersion(version: a.version, files: [a.up.file, b.up.file])
    }
    self.init(sorted: migrations, directory: shown, format: .diesel)
  }

  /// One folder's migration: `up.sql`, `down.sql` when there is one, `metadata.toml`.
  private static func dieselMigration(
    _ folder: String,
    in path: String,
    directory shown: String,
    read readFile: FileRead
  ) throws -> Migration {
    let shownFolder = shown + "/" + folder
    let (versionText, name) = DieselReader.version(ofFolder: folder)
    guard let version = try? MigrationVersion(diesel: versionText) else {
      throw MigrationError.formatProblem(
        file: shownFolder,
        line: 1,
        format: .diesel,
        reason: "the folder's name has no version before its first '_' (diesel names them "
          + "<YYYY-MM-DD-HHMMSS>_<name>)"
      )
    }
    func load(_ file: String, _ part: MigrationParser.FileName.Part) throws -> LoadedFile? {
      let relative = folder + "/" + file
      guard pathStatus(atPath: path + "/" + relative) != .missing else { return nil }
      // The version in `parsed` is not read for a part file; the migration's is `version`.
      let entry = FileGroup.File(
        name: relative,
        shown: shownFolder + "/" + file,
        parsed: MigrationParser.FileName(version: 0, name: name, part: part),
        isBare: false
      )
      return try LoadedFile(file: entry, read: readFile)
    }
    guard let upFile = try load("up.sql", .up) else {
      throw MigrationError.formatProblem(
        file: shownFolder,
        line: 1,
        format: .diesel,
        reason: "this folder has no up.sql, and diesel refuses a migrations folder holding it "
          + "(it reads every folder there as a migration)"
      )
    }
    let up = try upFile.wholePart(format: .diesel)
    var upScript = up.script
    var downScript = try load("down.sql", .down)?.wholePart(format: .diesel).script
    if let metadata = try load("metadata.toml", .whole),
      try !DieselReader.runsInTransaction(metadata: metadata.bytes, file: metadata.file.shown)
    {
      upScript = upScript.outsideTransaction
      downScript = downScript?.outsideTransaction
    }
    return Migration(
      version: version,
      name: name,
      up: upScript,
      down: downScript,
      checksum: up.checksum
    )
  }
}

extension MigrationScript {
  /// The same part, run outside a transaction.
  fileprivate var outsideTransaction: MigrationScript {
    MigrationScript(sql: sql, file: file, firstLine: firstLine, isTransactional: false)
  }
}
