/// How one format's files become migrations (golang-migrate's `source.Driver`, goose's
/// `Provider`): `MigrationSet` says what a folder is, and each reader how its tool finds, groups
/// and parses the files. `MigrationSet` asks the readers in turn (`MigrationFolderFiles.readers`);
/// the first that claims the folder reads it.
protocol MigrationFolderReader {
  /// The folder's migrations as this reader's tool reads them, or nil when the folder is not
  /// this reader's: the caller named another format, or (naming none) the files do not say so.
  ///
  /// - Throws: `MigrationError` for a folder that is this reader's and does not read.
  static func read(
    _ folder: MigrationFolderFiles,
    format chosen: MigrationFormat?
  ) throws -> MigrationFolderContents?
}

/// A folder as the readers see it: its names, how messages show it, and how to read a file.
struct MigrationFolderFiles {
  /// Every name the folder lists, in no order (diesel's reader looks at them all).
  let listed: [String]
  /// The names without those `exclusion` leaves out, sorted once here
  /// (`MigrationParser.sortedNames`): the file readers take them in this order.
  let names: [String]
  /// How messages name the folder.
  let shown: String
  /// The folder on disk; nil for files held in memory (which have no subfolders).
  let path: String?
  /// Files left out on purpose.
  let exclusion: MigrationFileExclusion
  /// The folder's `flyway.conf` or `flyway.toml` settings, read only when a reader asks.
  let flywaySettings: () throws -> FlywaySettings
  /// A file's bytes by its name (a path below the folder for diesel's).
  let read: MigrationFileRead

  init(
    listed: [String],
    shown: String,
    path: String?,
    exclusion: MigrationFileExclusion,
    flywaySettings: @escaping () throws -> FlywaySettings,
    read: @escaping MigrationFileRead
  ) {
    self.listed = listed
    self.names = MigrationParser.sortedNames(
      exclusion.patterns.isEmpty
        ? listed : listed.filter { !exclusion.excludes(name: $0, shown: shown + "/" + $0) }
    )
    self.shown = shown
    self.path = path
    self.exclusion = exclusion
    self.flywaySettings = flywaySettings
    self.read = read
  }

  /// The readers, in the order they are asked: diesel's folders and Flyway's names are told
  /// apart by their names alone; the named files' reader (every other format) reads any folder.
  static var readers: [any MigrationFolderReader.Type] {
    [DieselReader.self, FlywayReader.self, NamedFileReader.self]
  }

  /// The folder read by the first reader that claims it.
  func contents(format chosen: MigrationFormat?) throws -> MigrationFolderContents {
    for reader in Self.readers {
      if let contents = try reader.read(self, format: chosen) { return contents }
    }
    preconditionFailure("NamedFileReader reads every folder")
  }
}

/// What a reader makes of a folder.
struct MigrationFolderContents {
  /// Sorted by version, ascending; versions are unique.
  let migrations: [Migration]
  /// Flyway's repeatable migrations, in the order Flyway runs them; empty for other formats.
  var repeatables: [RepeatableMigration] = []
  /// The format the folder was read as.
  let format: MigrationFormat
}

/// A file's bytes, or why they cannot be read.
typealias MigrationFileRead = @Sendable (String) -> Result<[UInt8], MigrationFileReadFailure>

/// Why a migration file cannot be read, in words.
struct MigrationFileReadFailure: Error, ExpressibleByStringLiteral {
  let reason: String
  init(stringLiteral reason: String) { self.reason = reason }
}
