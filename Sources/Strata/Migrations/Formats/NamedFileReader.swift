/// The formats whose migrations are files named by their versions (`<version>_<name>.sql`,
/// `.up.sql`/`.down.sql` pairs, a bundle's `<version>.sql`): strata's own (dbmate's), goose,
/// sql-migrate, sqlx, golang-migrate and iOS bundles. They share the names, so one reader groups
/// the files; the folder's format is then settled from the files (unless named), and each file is
/// parsed as its format's tool parses it (`LoadedMigrationGroup.migration(format:)`: dbmate's
/// markers, `GooseReader`, `SQLMigrateReader`, or the whole file as one part).
enum NamedFileReader: MigrationFolderReader {
  /// Reads any folder: the last reader asked.
  ///
  /// - Throws: `MigrationError` for a bad file name, a version 0, a duplicate version, a file
  ///   that cannot be read or that its format does not read, a folder that mixes formats, or a
  ///   file with a version that is not SQL and is not excluded (`notSQL`).
  static func read(
    _ folder: MigrationFolderFiles,
    format chosen: MigrationFormat?
  ) throws -> MigrationFolderContents? {
    let (named, nameProblem) = try groups(folder.names, shown: folder.shown)
    var byVersion = named
    if let problem = nameProblem {
      guard chosen == nil || chosen == .sqlMigrate,
        let idGroups = try SQLMigrateReader.groupsByFileName(
          folder.names.filter { !$0.hasPrefix(".") && MigrationParser.isSQLName($0) },
          directory: folder.shown,
          named: chosen == .sqlMigrate,
          read: folder.read
        )
      else { throw problem }
      byVersion = idGroups
    }
    // Names are checked in order first; reading and parsing the files is spread over the
    // cores, and the first failure in version order is the one reported. Each group is parsed
    // in the same pass as the format its own files suggest (the folder's format is known only
    // once every file is read); a guess the folder's format belies is parsed again.
    let groups = inVersionOrder(byVersion.values)
    let readFile = folder.read
    let read = try groups.concurrentMap { group in
      try ReadMigrationGroup(group.load(readFile), guess: chosen)
    }
    .map { try $0.get() }
    let format =
      try chosen
      ?? MigrationFormat.detect(read.flatMap(\.loaded.signals), directory: folder.shown)
    if let problem = nameProblem, format != .sqlMigrate { throw problem }
    let migrations: [Migration]
    if read.allSatisfy({ $0.guess == format }) {
      migrations = try read.compactMap { try $0.parsed.get() }
    } else {
      migrations = try read.concurrentMap { entry in
        entry.guess == format ? try entry.parsed.get() : try entry.loaded.migration(format: format)
      }
      .compactMap { try $0.get() }
    }
    return MigrationFolderContents(migrations: migrations, format: format)
  }

  /// Groups the `.sql` names into migrations (a whole file, or an up/down pair) by the version
  /// each name gives. A name strata's rule refuses, or two files of one version, may still be a
  /// sql-migrate folder's: the first such problem is returned, to be thrown unless the folder is
  /// read as one.
  ///
  /// - Throws: `MigrationError` for a file with a version that is not SQL (`notSQL`), a version
  ///   beyond 64 bits, or two `.up.sql` (or `.down.sql`) files of one version.
  private static func groups(
    _ names: [String],
    shown: String
  ) throws -> ([MigrationVersion: MigrationFileGroup], MigrationError?) {
    var byVersion: [MigrationVersion: MigrationFileGroup] = [:]
    byVersion.reserveCapacity(names.count)
    var nameProblem: MigrationError?
    for name in names where !name.hasPrefix(".") {
      let file = shown + "/" + name
      guard MigrationParser.isSQLName(name) else {
        if MigrationFileExclusion.isUnrunnableMigration(name) {
          throw MigrationError.notSQL(file: file)
        }
        continue
      }
      let bare = MigrationParser.bareVersion(name)
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
      let entry = MigrationFileGroup.File(
        name: name,
        shown: file,
        parsed: parsed,
        isBare: bare != nil
      )
      let version = MigrationVersion(integer: parsed.version)
      if let group = byVersion[version], group.whole.count + (group.up == nil ? 0 : 1) > 0,
        parsed.part != .down
      {
        let files = group.whole.map(\.shown) + [group.up?.shown].compactMap { $0 } + [file]
        nameProblem = nameProblem ?? .duplicateVersion(version: version, files: files)
      }
      // Added in place: a copy taken out of the dictionary would copy its file list too.
      try byVersion[version, default: MigrationFileGroup(version: version)].add(entry)
    }
    return (byVersion, nameProblem)
  }

  /// The groups sorted by version. Numbers (nearly every folder's versions) are sorted as
  /// numbers, the order `<` gives them, and the groups are moved once, not at every swap.
  private static func inVersionOrder(
    _ groups: Dictionary<MigrationVersion, MigrationFileGroup>.Values
  ) -> [MigrationFileGroup] {
    let numbers = groups.compactMap(\.version.integerValue)
    guard numbers.count == groups.count else { return groups.sorted { $0.version < $1.version } }
    let indices = Array(groups.indices)
    return indices.indices.sorted { numbers[$0] < numbers[$1] }.map { groups[indices[$0]] }
  }
}
