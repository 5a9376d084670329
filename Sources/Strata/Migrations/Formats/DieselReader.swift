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

extension DieselReader: MigrationFolderReader {
  /// A diesel folder's migrations, in diesel's order (the versions as text): a folder on disk
  /// that the caller names diesel's, or (naming none) one holding a migration folder; nil
  /// otherwise.
  ///
  /// - Throws: `MigrationError`: a top-level `.sql` file beside the migration folders (mixed
  ///   formats), a folder without `up.sql` or without a version, two folders of one version, a
  ///   file that cannot be read, an up part without SQL, a `metadata.toml` key strata does not
  ///   read; a file with a version that is not SQL (`notSQL`) unless excluded.
  static func read(
    _ files: MigrationFolderFiles,
    format chosen: MigrationFormat?
  ) throws -> MigrationFolderContents? {
    guard let path = files.path,
      chosen == .diesel
        || (chosen == nil && !migrationFolders(in: path, names: files.listed).isEmpty)
    else { return nil }
    let (shown, readFile) = (files.shown, files.read)
    let names = files.listed.filter { !files.exclusion.excludes(name: $0, shown: shown + "/" + $0) }
    let folders = allFolders(in: path, names: names)
    let topLevel = names.sorted().filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".sql") }
    if let file = names.sorted().first(where: MigrationFileExclusion.isUnrunnableMigration) {
      throw MigrationError.notSQL(file: shown + "/" + file)
    }
    if let file = topLevel.first {
      let bytes = (try? readFile(file).get()) ?? []
      let parsed = MigrationParser.parseFileName(file)
      let bare = MigrationParser.bareVersion(file)
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
        try migration(folder, in: path, directory: shown, read: readFile)
      )
    }
    migrations.sort { $0.version < $1.version }
    for (a, b) in zip(migrations, migrations.dropFirst()) where a.version == b.version {
      throw MigrationError.duplicateVersion(version: a.version, files: [a.up.file, b.up.file])
    }
    return MigrationFolderContents(migrations: migrations, format: .diesel)
  }

  /// One folder's migration: `up.sql`, `down.sql` when there is one, `metadata.toml`.
  private static func migration(
    _ folder: String,
    in path: String,
    directory shown: String,
    read readFile: MigrationFileRead
  ) throws -> Migration {
    let shownFolder = shown + "/" + folder
    let (versionText, name) = version(ofFolder: folder)
    guard let version = try? MigrationVersion(diesel: versionText) else {
      throw MigrationError.formatProblem(
        file: shownFolder,
        line: 1,
        format: .diesel,
        reason: "the folder's name has no version before its first '_' (diesel names them "
          + "<YYYY-MM-DD-HHMMSS>_<name>)"
      )
    }
    func load(_ file: String, _ part: MigrationParser.FileName.Part) throws -> LoadedMigrationFile?
    {
      let relative = folder + "/" + file
      guard pathStatus(atPath: path + "/" + relative) != .missing else { return nil }
      // The version in `parsed` is not read for a part file; the migration's is `version`.
      let entry = MigrationFileGroup.File(
        name: relative,
        shown: shownFolder + "/" + file,
        parsed: MigrationParser.FileName(version: 0, name: name, part: part),
        isBare: false
      )
      return try LoadedMigrationFile(file: entry, read: readFile)
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
      try !runsInTransaction(metadata: metadata.bytes, file: metadata.file.shown)
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
