import Foundation

/// The one call an app makes at launch: create the database from the bundled template when
/// there is none, apply newer migrations, load seed files not loaded before.
///
/// ```swift
/// var setup = DatabaseSetup(
///   database: try DatabaseSetup.documentsDatabase(),
///   migrations: try DatabaseSetup.resource("migrations", in: .module),
///   template: try DatabaseSetup.resource(
///     "template", withExtension: "sqlite3", subdirectory: "seeds", in: .module))
/// setup.settingsFile = try DatabaseSetup.resource("strata", withExtension: "toml", in: .module)
/// let report = try setup.run()
/// ```
///
/// Safe when two processes call it at once (an app and its extension): one copies the
/// template, the other finds the file; each migration is applied once.
public struct DatabaseSetup: Sendable {
  /// The database file.
  public var database: URL
  /// The migrations folder (on disk or a bundle's resource folder). Not optional: a
  /// resource folder that did not end up in the bundle must fail, not set up an empty
  /// database at version 0 (see `resource(_:withExtension:subdirectory:in:)`).
  public var migrations: URL
  /// A template database to copy when the file does not exist; nil to start empty.
  public var template: URL?
  /// A folder of CSV seed files (file stem = table); nil for none.
  public var seeds: URL?
  /// Create the database's folder when missing (the documents folder may not exist yet).
  public var createsFolder = true
  /// How long to wait for another process's write lock, in milliseconds.
  public var busyTimeout = Connection.defaultBusyTimeout
  /// Read migration and seed files that are symbolic links out of their folder (refused by
  /// default: a link to a `.env` would print its secrets).
  public var followsSymlinks = false
  /// How messages name the migrations folder (default: its path).
  public var migrationsDisplayPath: String?
  /// How the migration files are written; nil (the default) detects it from the files.
  public var migrationFormat: MigrationFormat?
  /// Migration files to leave out on purpose (see `MigrationFileExclusion`).
  public var migrationExclusion = MigrationFileExclusion()
  /// How messages and the report name the seeds folder (default: its path).
  public var seedsDisplayPath: String?
  /// The largest seed field or record in bytes (see `SeedOptions.maximumFieldBytes`).
  public var seedMaximumFieldBytes = CSVReader.defaultMaximumFieldBytes
  /// How seed files meet the rows already there at launch: `sync` (the default) brings each
  /// table with a key up to its file's new version without touching the rows the user changed
  /// or deleted; `missing` loads only files not loaded before. A table without a key is
  /// seeded once whatever the mode (see `SeedMode.sync`).
  public var seedMode: SeedMode = .sync
  /// The extensions and Swift functions every connection this setup opens gets (the
  /// database's, the template's check), so that migrations can call the app's functions.
  public var connectionConfiguration = ConnectionConfiguration.none
  /// The project's settings (each seed file's options), such as a bundled `strata.toml` read
  /// with `ProjectSettings(contentsOf:)`; strata's defaults when not set.
  public var settings = ProjectSettings()
  /// A settings file to read at `run()` instead of `settings` (nil: use `settings`).
  public var settingsFile: URL?
  /// Seed options for this call that override the settings' for every file, field by field.
  public var seedFormatOverrides = SeedFormatSettings()

  /// A setup of `database` from `migrations`, with an optional template and seeds folder; the
  /// other properties keep their defaults until changed.
  public init(database: URL, migrations: URL, template: URL? = nil, seeds: URL? = nil) {
    self.database = database
    self.migrations = migrations
    self.template = template
    self.seeds = seeds
  }

  /// An optional migrations URL (such as `Bundle.url(forResource:…)`) is refused at compile
  /// time: nil used to set up an empty database at version 0 without a word.
  @available(
    *,
    unavailable,
    message: "pass a URL: use DatabaseSetup.resource(_:in:), which throws when it is missing"
  )
  public init(database: URL, migrations: URL?, template: URL? = nil, seeds: URL? = nil) {
    fatalError("unavailable")
  }

  /// The URL of a resource the app bundles (the migrations folder, the template, the seeds
  /// folder), or `SetupError.resourceMissing` naming it: a resource left out of the bundle is
  /// an error at launch, never a silently empty database.
  ///
  /// - Throws: `SetupError.resourceMissing` when the bundle does not have the resource.
  public static func resource(
    _ name: String,
    withExtension fileExtension: String? = nil,
    subdirectory: String? = nil,
    in bundle: Bundle
  ) throws -> URL {
    guard
      let url = bundle.url(
        forResource: name,
        withExtension: fileExtension,
        subdirectory: subdirectory
      )
    else {
      let file = fileExtension.map { "\(name).\($0)" } ?? name
      throw SetupError.resourceMissing(
        name: subdirectory.map { "\($0)/\(file)" } ?? file,
        bundle: bundle.bundlePath
      )
    }
    return url
  }

  /// `data.sqlite3` (or `name`) in the user's documents folder.
  ///
  /// - Throws: `DatabaseOpenError.noDefaultLocation` when the documents folder cannot be
  ///   found (`HOME` is not an absolute path).
  public static func documentsDatabase(
    named name: String = DatabaseLocation.defaultFileName,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> URL {
    try DatabaseLocation.documentsDirectory(environment: environment).appendingPathComponent(name)
  }

  /// Runs template → migrate → seed and says what it did. Throws `SetupError.databaseIsNewer`
  /// when the database has versions these migrations don't know.
  ///
  /// - Throws: `SetupError` (a bad template, a newer database, failed seeding),
  ///   `MigrationError` (a bad file, a failed migration), `DatabaseOpenError` (a bad path), or
  ///   what `connectionConfiguration` throws (`ExtensionLoadError`), or
  ///   `SettingsError` (a bad settings file, before anything is created or changed).
  @discardableResult
  public func run() throws -> SetupReport {
    // Before anything is created: a bad settings file or a misspelled seed file changes nothing.
    let settings = try settingsFile.map { try ProjectSettings(contentsOf: $0) } ?? self.settings
    if let seeds {
      try settings.seeds.checkNamedFiles(existIn: seeds, folderDisplayPath: seedsDisplayPath)
    }
    let set = try MigrationSet(
      directory: migrations,
      displayPath: migrationsDisplayPath,
      followSymlinks: followsSymlinks,
      format: migrationFormat,
      excluding: migrationExclusion
    )
    let path = database.path
    try checkDatabasePath(database)
    switch databaseFileKind(at: path) {
    case .directory: throw DatabaseOpenError.isDirectory(path: path)
    case .notSQLite: throw DatabaseOpenError.notADatabase(path: path)
    case .missing, .empty, .sqlite: break
    }
    var templateCopied = false
    if databaseFileKind(at: path) == .missing {
      try prepareFolder(for: database, creating: createsFolder)
    }
    // Before the template is copied: a read-only folder fails here, with nothing created.
    try checkWritableFolder(for: database)
    TemplateInstaller.removeLeftovers(of: database)
    if databaseFileKind(at: path) == .missing {
      if let template {
        try Self.checkTemplate(template, against: set, configuration: connectionConfiguration)
        templateCopied = try TemplateInstaller.install(
          template,
          at: database,
          prepare: { try Self.stampHistory($0, configuration: connectionConfiguration) }
        )
      }
    }
    // Copied here, or about to be created empty by opening it.
    let created = templateCopied || databaseFileKind(at: path) == .missing
    let connection = try openDatabase(
      at: database,
      access: .create,
      busyTimeout: busyTimeout,
      configuration: connectionConfiguration
    )
    let migrator = Migrator(set)
    let plan = try migrator.plan(connection)
    let unknown = plan.migrations(in: .unknown).map(\.version)
    if !unknown.isEmpty {
      throw SetupError.databaseIsNewer(
        path: path,
        versions: unknown,
        newestKnown: set.migrations.last?.version
      )
    }
    let report = try migrator.migrate(connection)
    let seeded: [String]
    do {
      seeded = try seedNewFiles(connection, settings: settings.seeds)
    } catch let error as SeedError {
      // The seed run rolled back, but this call may have created and migrated the database.
      throw SetupError.seedingFailed(
        path: path,
        created: created,
        version: report.toVersion,
        problem: error.problem,
        help: error.help
      )
    }
    return SetupReport(
      database: path,
      created: created,
      templateCopied: templateCopied,
      template: templateCopied ? template?.path : nil,
      fromVersion: plan.currentVersion,
      version: report.toVersion,
      appliedVersions: report.steps.map(\.version),
      seedFilesLoaded: seeded
    )
  }

  /// The template's history must agree with the files: same checksums, no unknown versions.
  static func checkTemplate(
    _ template: URL,
    against set: MigrationSet,
    configuration: ConnectionConfiguration
  ) throws {
    try TemplateInstaller.verify(template, configuration: configuration)
    let plan: MigrationPlan
    do {
      plan = try Migrator(set).plan(configuration.open(path: template.path, mode: .immutable))
    } catch let error as SQLiteError {
      throw SetupError.templateInvalid(path: template.path, reason: error.message)
    }
    let problems = Migrator(set).problems(in: plan).filter {
      if case .outOfOrder = $0 { return false }
      return true
    }
    if let problem = problems.first {
      throw SetupError.templateDisagrees(path: template.path, problem: problem.message)
    }
  }

  /// Gives the copy's history rows the time this database got them.
  static func stampHistory(_ copy: URL, configuration: ConnectionConfiguration) throws {
    let connection = try configuration.open(path: copy.path, mode: .readWrite)
    guard try History.exists(connection) else { return }
    try connection.run(
      "UPDATE strata_migrations SET applied_at = ? WHERE applied_at = ?",
      [.text(utcTimestamp(Date())), .text(TemplateBuilder.templateTimestamp)]
    )
  }
}

/// What `DatabaseSetup.run()` (and `strata init`) did.
public struct SetupReport: Hashable, Sendable, Codable {
  /// The database file's path.
  public let database: String
  /// This call created the file (from the template or empty).
  public let created: Bool
  /// This call copied the template.
  public let templateCopied: Bool
  /// The template copied, if any.
  public let template: String?
  /// The version before this call (the template's version when it was just copied).
  public let fromVersion: MigrationVersion
  /// The version now.
  public let version: MigrationVersion
  /// The migrations this call applied.
  public let appliedVersions: [MigrationVersion]
  /// The seed files this call loaded.
  public let seedFilesLoaded: [String]

  /// False when the call found everything up to date and wrote nothing.
  public var changedAnything: Bool {
    created || !appliedVersions.isEmpty || !seedFilesLoaded.isEmpty
  }
}
