import Foundation

/// The one call an app makes at launch: create the database from the bundled template when
/// there is none, apply newer migrations, bring the bundled seed data up to date
/// (`seedMode`, `sync` by default: the user's own edits and deletions are kept).
///
/// ```swift
/// var setup = DatabaseSetup(
///   database: try DatabaseSetup.documentsDatabase(),
///   migrations: try DatabaseSetup.resource("migrations", in: .module),
///   template: try DatabaseSetup.resource(
///     "template", withExtension: "sqlite3", subdirectory: "seeds", in: .module))
/// setup.settingsFile = try DatabaseSetup.resource("strata", withExtension: "toml", in: .module)
/// let report = try await setup.run()   // off the main thread, cancellable
/// if let problem = report.seedProblem { log(problem.message) }  // the database is usable
/// ```
///
/// Safe when two processes call it at once on one file: one copies the template, the other
/// finds the file; each migration is applied once. An app and its extension share a file only
/// in an App Group container (`appGroupDatabase(group:)`; `documentsDatabase()` is each one's
/// own), and an extension should read it with `DatabaseQueue.readOnly(url:)` rather than set
/// it up (docs/library.md, "An app and its extensions").
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
  /// The Data Protection class given, on every run, to the database's folder (so every file
  /// SQLite creates there gets it), to the database and its `-wal`, `-shm` and `-journal` when
  /// they exist (each only when its class differs), and to the template's copy before it takes
  /// the database's name; nil (the default) keeps the system's. Keep the database in a folder
  /// of its own (`applicationSupportDatabase`): the folder's class is every new file's there.
  /// Apple platforms only: elsewhere it changes nothing. See `FileProtection`.
  public var fileProtection: FileProtection?
  /// Puts the database in WAL mode (once: it stays in the file), before this run's migrations
  /// of an existing file (a new one is switched once built), so that readers in other
  /// processes (an app extension) never wait for a write and a write never waits for them.
  /// Off by default: the journal mode the file has.
  public var usesWriteAheadLog = false
  /// Told each path `fileProtection` is given to, in order (tests: the folder first, the copy
  /// before it is linked).
  var protectionApplied: (@Sendable (URL) -> Void)?
  /// Read migration and seed files that are symbolic links out of their folder (refused by
  /// default: a link to a `.env` would print its secrets).
  public var followsSymlinks = false
  /// How messages name the migrations folder (default: its path).
  public var migrationsDisplayPath: String?
  /// How the migration files are written; nil (the default) detects it from the files.
  public var migrationFormat: MigrationFormat?
  /// Migration files to leave out on purpose (see `MigrationFileExclusion`).
  package var migrationExclusion = MigrationFileExclusion()
  /// How the seeding's progress, report and errors name the seeds folder (default: the
  /// folder's name, so a file reads `seeds/person_info.csv`, not a path on the machine that
  /// built the bundle; a missing or unreadable folder is named by its path).
  public var seedsDisplayPath: String?
  /// The largest seed field or record in bytes (see `SeedOptions.maximumFieldBytes`).
  public var seedMaximumFieldBytes = CSVReader.defaultMaximumFieldBytes
  /// How seed files meet the rows already there at launch: `sync` (the default) brings each
  /// table with a key up to its file's new version without touching the rows the user changed
  /// or deleted; `missing` loads only files not loaded before. A table without a key syncs by
  /// rowid at launch whatever the mode (see `SeedMode.sync`).
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
  package var seedFormatOverrides = SeedFormatSettings()
  /// How the migrations are applied: `singleTransaction` (all or none), `target`, and which
  /// problems to accept (`allowChanged`, `allowOutOfOrder`, `allowUnknown`, which also lets
  /// the app run on a database newer than it). `dryRun` is refused
  /// (`SetupError.dryRunNotSupported`).
  public var migrateOptions = MigrateOptions()
  /// Called as the setup goes (`SetupProgress`: the step, each migration, rows seeded), on the
  /// thread doing the work and only a few times per file while seeding, so it costs nothing
  /// measurable; hop to the main actor to update a screen. A rollback-journal database stays
  /// locked from the first migration to the last, so reading it from here (another connection,
  /// the app's queue included) waits out its busy timeout and fails. Nil for none.
  public var progress: (@Sendable (SetupProgress) -> Void)?

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
  /// A folder (no extension) that is missing while `.sql`, `.csv` or `.tsv` files sit loose
  /// where it should be was flattened when bundled (`.process` instead of `.copy`).
  ///
  /// - Throws: `SetupError.resourceMissing` when the bundle does not have the resource;
  ///   `SetupError.folderFlattened` when it has the folder's files instead of the folder.
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
      if fileExtension == nil, let root = bundle.resourceURL {
        let folder = subdirectory.map { root.appendingPathComponent($0) } ?? root
        try FlattenedFolder.check(
          folder.appendingPathComponent(name),
          holding: .any,
          name: name,
          container: "the bundle \(bundle.bundlePath)"
        )
      }
      throw SetupError.resourceMissing(
        name: subdirectory.map { "\($0)/\(file)" } ?? file,
        bundle: bundle.bundlePath
      )
    }
    return url
  }

  /// The database's file name when the app names none, `data.sqlite3`: where the `strata`
  /// tool looks by default too, so both find one file.
  public static let defaultFileName = DatabaseLocation.defaultFileName

  /// `data.sqlite3` (or `name`) in the user's documents folder.
  ///
  /// - Throws: `DatabaseOpenError.noDefaultLocation` when the documents folder cannot be
  ///   found (`HOME` is not an absolute path).
  public static func documentsDatabase(
    named name: String = DatabaseSetup.defaultFileName,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> URL {
    try DatabaseLocation.documentsDirectory(environment: environment).appendingPathComponent(name)
  }

  /// Runs template → migrate → seed and says what it did. Throws `SetupError.databaseIsNewer`
  /// when the database has versions these migrations don't know (unless
  /// `migrateOptions.allowUnknown`). Every URL is checked first: a missing, unreadable or
  /// flattened migrations or seeds folder, or a template that is not a file, fails before the
  /// database is created or changed. Reports to `progress` on the calling thread.
  ///
  /// A seed file that fails to load never throws: no bundled data can lock an app out of its
  /// database. The seed run is rolled back as a whole (the seed rows and their ledger are as
  /// before this call, so the next launch tries again), the migrations stay applied, and the
  /// report says it in `SetupReport.seedProblem`, the `SeedError` with its `file:line` inside.
  /// A failed migration still throws (`MigrationError`, naming the version the database is at).
  ///
  /// In an `async` context the cancellable form (`run() async`) is the one called.
  ///
  /// - Throws: `SetupError` (a flattened folder, a bad template, a newer database, a dry
  ///   run), `MigrationError` (a missing or unusable folder, a bad file, a failed migration),
  ///   `SeedError` (a missing or unusable seeds folder or file, before anything is created),
  ///   `DatabaseOpenError` (a bad path), or what
  ///   `connectionConfiguration` throws (`ExtensionLoadError`), or `SettingsError` (a bad
  ///   settings file, before anything is created or changed).
  @discardableResult
  public func run() throws -> SetupReport {
    try run(isCancelled: nil)
  }

  /// `run()`'s work. With `isCancelled`, it is asked before each step and each migration, and
  /// while a statement runs (`Connection.withInterruptCheck`): when it answers true the
  /// running migration or seed run rolls back and this throws `CancellationError`. The launch
  /// itself: every entry point (`run()`, `run() async`, `open()`, any other opener) goes
  /// through here, so a seed problem is reported, never thrown, whichever the app calls.
  func run(isCancelled: (@Sendable () -> Bool)?) throws -> SetupReport {
    let cancelled = { isCancelled?() == true }
    func checkCancellation() throws { if cancelled() { throw CancellationError() } }
    progress?(.checking)
    try checkCancellation()
    // Before anything is created: a bad settings file, a bad URL or a misspelled seed file
    // changes nothing.
    let settings = try settingsFile.map { try ProjectSettings(contentsOf: $0) } ?? self.settings
    if migrateOptions.dryRun { throw SetupError.dryRunNotSupported }
    let set = try checkedMigrations()
    if let seeds {
      try FlattenedFolder.check(
        seeds,
        holding: .seeds,
        name: seeds.lastPathComponent,
        container: seeds.deletingLastPathComponent().path
      )
      _ = try Seeder.files(
        in: seeds,
        displayPath: seedsDisplayPath,
        followSymlinks: followsSymlinks
      )
      try settings.seeds.checkNamedFiles(existIn: seeds, folderDisplayPath: seedsDisplayPath)
    }
    if let template, pathStatus(atPath: template.path) != .regular {
      // Checked fully (`checkTemplate`) only when it is copied; a missing one fails every launch.
      try TemplateInstaller.verify(template, configuration: connectionConfiguration)
    }
    let path = database.path
    try checkDatabasePath(database)
    switch databaseFileKind(at: path) {
    case .directory: throw DatabaseOpenError.isDirectory(path: path)
    case .notSQLite: throw DatabaseOpenError.notADatabase(path: path)
    case .protectedDataUnavailable: throw DatabaseOpenError.protectedDataUnavailable(path: path)
    case .missing, .empty, .sqlite: break
    }
    var templateCopied = false
    if databaseFileKind(at: path) == .missing {
      // A stale or broken template fails before even the database's folder is made.
      if let template {
        try Self.checkTemplate(template, against: set, configuration: connectionConfiguration)
      }
      try prepareFolder(for: database, creating: createsFolder)
    }
    // Before the template is copied: a read-only folder fails here, with nothing created.
    try checkWritableFolder(for: database)
    try protect(database.deletingLastPathComponent())
    for suffix in ["", "-wal", "-shm", "-journal"] where fileProtection != nil {
      let file = URL(fileURLWithPath: path + suffix)
      if pathStatus(atPath: file.path) == .regular { try protect(file) }
    }
    TemplateInstaller.removeLeftovers(of: database)
    if databaseFileKind(at: path) == .missing {
      if let template {
        try checkCancellation()
        progress?(.copyingTemplate)
        templateCopied = try TemplateInstaller.install(
          template,
          at: database,
          busyTimeout: busyTimeout,
          prepare: { copy in
            try protect(copy)
            try Self.stampHistory(copy, configuration: connectionConfiguration)
          }
        )
      }
    }
    try checkCancellation()
    let migrator = Migrator(set)
    let progress = self.progress
    let willRun: Migrator.WillRun = { part, number, count in
      try checkCancellation()
      progress?(
        .migrating(
          MigrationProgress(
            version: part.migration.version,
            name: part.migration.name,
            number: number,
            count: count
          )
        )
      )
    }
    // A database that does not exist yet (no template) is built beside its name, as
    // `strata migrate` builds one, and appears when its migrations are done.
    let built = try migrator.migrateNewDatabase(
      at: database,
      options: migrateOptions,
      busyTimeout: busyTimeout,
      configuration: connectionConfiguration,
      createsFolder: false,
      willRun: willRun,
      around: { connection, run in try Self.interruptible(connection, isCancelled, run) }
    )
    // Copied here, built here, or about to be created empty by opening it (another process
    // may have made it meanwhile: then it is not this call's).
    let created = templateCopied || built != nil || databaseFileKind(at: path) == .missing
    let connection =
      try built?.connection
      ?? Connection.open(
        at: database,
        access: .create,
        busyTimeout: busyTimeout,
        configuration: connectionConfiguration
      )
    if usesWriteAheadLog { try Self.useWriteAheadLog(connection, path: path) }
    let plan = try migrator.plan(connection)
    let unknown = plan.migrations(in: .unknown).map(\.version)
    if !unknown.isEmpty, !migrateOptions.allowUnknown {
      throw SetupError.databaseIsNewer(
        path: path,
        versions: unknown,
        newestKnown: set.migrations.last?.version
      )
    }
    // The one rule (docs/decisions.md, "Issue 31: no bundled data can lock an app out"): the
    // seed run rolled back as a whole, the migrations stay, and the launch goes on to open
    // the database; the next launch tries the seed files again.
    func reportedProblem(_ error: SeedError, version: MigrationVersion) -> SetupError {
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
      return SetupError.seedingFailed(path: path, created: created, version: version, error: error)
    }
    let (report, seeded, seedProblem) = try Self.interruptible(connection, isCancelled) {
      let report =
        try built?.report
        ?? migrator.migrate(connection, options: migrateOptions, willRun: willRun)
      try checkCancellation()
      do {
        let seeded = try seedNewFiles(
          connection,
          settings: settings.seeds,
          progress: progress.map { report in { report(.seeding($0)) } }
        )
        return (report, seeded, nil as SetupError?)
      } catch let error as SeedError where !cancelled() {
        return (report, [String](), reportedProblem(error, version: report.toVersion))
      } catch let error as SQLiteError where !cancelled() {
        // An SQLite error the seeder did not wrap (setting up its run) is the seed step's too.
        let problem = reportedProblem(.database(file: nil, error: error), version: report.toVersion)
        return (report, [String](), problem)
      }
    }
    progress?(.done)
    return SetupReport(
      database: path,
      created: created,
      templateCopied: templateCopied,
      template: templateCopied ? template?.path : nil,
      fromVersion: built?.report.fromVersion ?? plan.currentVersion,
      version: report.toVersion,
      appliedVersions: report.steps.map(\.version),
      seedFilesLoaded: seeded,
      seedProblem: seedProblem
    )
  }
}
