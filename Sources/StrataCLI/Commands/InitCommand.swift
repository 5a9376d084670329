import Foundation
import Strata
import StrataArguments
import StrataDqlite

/// `strata init`: the first-launch job. Copy the template when there is no database, apply
/// newer migrations, load seed files not loaded before. A second run changes nothing.
enum InitCommand: Command {
  static let template = Option<String?>(
    "template",
    "path",
    help: "Template database (default: seeds/template.sqlite3 if present)."
  )

  static let spec = CommandSpec(
    name: "init",
    abstract: "Create the database (from the template), migrate it and load seeds.",
    discussion: """
      When the database file does not exist, the template (--template, or
      seeds/template.sqlite3 when present) is verified and copied into place atomically;
      without one the database is built from its migrations beside its name and appears when
      they are done. Pending migrations are applied (to an existing file or the template's
      copy), and seed files whose checksum is not recorded in strata_seeds are loaded in the sync mode (new
      rows in, changed rows updated, dropped rows deleted, the user's edits and deletions
      kept; a table without a key syncs by rowid). A seed file that fails is rolled back with
      the whole seed run (the migrations stay applied and the database usable) and init exits 1
      with its error; the next run tries again. An existing file is never overwritten, and
      a database that is up to date is not written at all. With a schema file (--schema-file,
      or [schema] file in strata.toml), a run that created the database or applied migrations
      writes its schema there afterwards.
      """,
    options: CommonOptions.databaseOptions + [
      template,
      CommonOptions.seeds,
      CommonOptions.maxFieldBytes,
    ] + CommonOptions.schemaFileOptions + MigrateCommand.applyingOptions
  )

  /// `--format json`: the setup's report, and the schema file when one is kept.
  struct Report: Encodable {
    let report: SetupReport
    let schemaFile: SchemaFileRun.WriteReport?

    func encode(to encoder: any Encoder) throws {
      try report.encode(to: encoder)
      var container = encoder.container(keyedBy: Key.self)
      try container.encodeIfPresent(schemaFile, forKey: .schemaFile)
    }

    enum Key: String, CodingKey { case schemaFile }
  }

  /// What `init` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    let output: OutputOptions
    let schemaFile: SchemaFileOptions
    /// `--template` as given; nil takes `seeds/template.sqlite3` when present.
    let template: String?
    /// `--seeds` as given; nil takes `$STRATA_SEEDS`, else `./seeds`.
    let seeds: String?
    let seedMaximumFieldBytes: Int
    /// How pending migrations are applied.
    let applying: MigrateOptions

    init(_ arguments: ParsedArguments) throws {
      try CommonOptions.rejectEmptyPaths(arguments)
      schemaFile = try SchemaFileOptions(arguments)
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
      template = arguments[InitCommand.template]
      seeds = arguments[CommonOptions.seeds]
      seedMaximumFieldBytes = arguments[CommonOptions.maxFieldBytes]
      applying = MigrateOptions(applying: arguments)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    if let cluster = options.database.named(context), DqliteURL.names(cluster) {
      throw ClusterRefusal(
        url: cluster,
        reason: "init creates a database file from the bundled template when none exists; "
          + "run migrate, then seed, against a cluster"
      )
    }
    let location = try options.database.resolve(context)
    let setup = try setup(location, options, context)
    let schemaFile = options.schemaFile.file(context, setup.settings)
    let report = try setup.run()
    let database = location.shown
    context.finished(
      report.seedProblem != nil
        ? "\(database) was set up and is at version \(report.version), but its seed files failed."
        : report.changedAnything
          ? "\(database) was set up and is at version \(report.version)."
          : "Nothing was changed: \(database) is up to date at version \(report.version)."
    )
    let text = options.output.showsText
    let written: SchemaFileRun.WriteReport?
    do {
      written = try SchemaFileRun.write(
        schemaFile,
        changed: report.created || !report.appliedVersions.isEmpty,
        .init(database: database, done: "was set up at version \(report.version)"),
        connection: {
          try DatabaseSession.open(
            location,
            forWriting: false,
            busyTimeout: options.database.busyTimeout,
            configuration: setup.connectionConfiguration
          )
        },
        SchemaFileRun.Rewrite(
          schemaFile: options.schemaFile,
          migrations: options.migrations,
          extensions: options.database.extensions
        )
      )
    } catch {
      // The database is set up: the report says what was done before the error.
      if text { render(report, database: database, context) }
      throw error
    }
    switch options.output.format {
    case .json where report.seedProblem != nil:
      // Standard output stays one JSON document: the error's, which names the version.
      break
    case .json:
      try context.printJSON(Report(report: report, schemaFile: written))
    case .text:
      guard text else { break }
      render(report, database: database, context)
      if let line = SchemaFileRun.line(written, source: database) { context.print(line) }
    }
    // The library opens a database whose seed files failed (the app's launch goes on); the
    // tool says what was done, then fails with the seed error: the file needs fixing.
    if case .seedingFailed(_, let created, let version, let error) = report.seedProblem {
      throw SetupError.seedingFailed(
        path: database,
        created: created,
        version: version,
        error: error
      )
    }
    return ExitCode.success
  }

  /// The library's setup from the options: the folders, the template, the settings, and how
  /// to migrate; a dbmate folder whose order is in doubt is refused here.
  private static func setup(
    _ location: ResolvedDatabase,
    _ options: Options,
    _ context: CommandContext
  ) throws -> DatabaseSetup {
    let migrations = options.migrations.directory(context)
    let seeds = CommonOptions.seedsFolder(options.seeds, context)
    var setup = DatabaseSetup(
      database: location.url,
      migrations: migrations.url,
      template: template(options.template, seeds: seeds, context),
      seeds: try existingSeeds(seeds)
    )
    setup.migrationsDisplayPath = migrations.shown
    setup.seedsDisplayPath = seeds.shown
    setup.createsFolder = location.location.isDefault
    setup.busyTimeout = options.database.busyTimeout
    setup.followsSymlinks = options.migrations.followSymlinks
    setup.migrationFormat = options.migrations.format
    // A folder that cannot be read is reported by the setup itself, in its own words.
    if let folder = try? options.migrations.load(context) {
      try MigrationOrderCheck.refuseDisagreeingOrder(
        folder,
        formatNamed: options.migrations.formatNamed,
        context
      )
    }
    setup.migrationExclusion = options.migrations.exclusion
    setup.seedMaximumFieldBytes = options.seedMaximumFieldBytes
    setup.connectionConfiguration = try options.database.configuration()
    setup.settings = try options.schemaFile.projectSettings(context)
    setup.migrateOptions = options.applying
    return setup
  }

  private static func render(_ report: SetupReport, database: String, _ context: CommandContext) {
    guard report.changedAnything else {
      context.print("\(database) is up to date at version \(report.version); nothing was changed.")
      return
    }
    if let template = report.template {
      context.print(
        "Created \(database) from the template \(shownPath(template, context)) "
          + "(version \(report.fromVersion))."
      )
    } else if report.created {
      // Built beside its name from its migrations, or empty when there are none to apply.
      context.print(
        report.appliedVersions.isEmpty
          ? "Created \(database) (empty)." : "Created \(database) from its migrations."
      )
    }
    if !report.appliedVersions.isEmpty {
      let versions = report.appliedVersions.map(String.init).joined(separator: ", ")
      context.print("Applied \(report.appliedVersions.count) migration(s): \(versions).")
    }
    for file in report.seedFilesLoaded {
      context.print("Loaded \(file).")
    }
    context.print(
      "\(database) is at version \(report.version). "
        + "See 'strata status' for migrations and 'strata inspect' for the schema."
    )
  }

  private static func shownPath(_ path: String, _ context: CommandContext) -> String {
    CommonOptions.shown(URL(fileURLWithPath: path), context)
  }

  /// `--template`; else `seeds/template.sqlite3` when present.
  private static func template(
    _ given: String?,
    seeds: CommonOptions.Folder,
    _ context: CommandContext
  ) -> URL? {
    if let given {
      return DatabaseLocation.absolute(given, from: context.currentDirectory)
    }
    let url = seeds.url.appendingPathComponent("template.sqlite3")
    return pathStatus(atPath: url.path) == .missing ? nil : url
  }

  /// The seeds folder: one named with --seeds or $STRATA_SEEDS must exist; the default
  /// `./seeds` is skipped when there is none.
  private static func existingSeeds(_ directory: CommonOptions.Folder) throws -> URL? {
    switch checkFolder(atPath: directory.url.path) {
    case .listable: return directory.url
    case .missing where directory.isNamed:
      throw SeedError.directoryNotFound(path: directory.shown)
    case .missing: return nil
    // A device, a file or a folder that cannot be listed, named or default: said as it is.
    case .unusable(let reason):
      throw SeedError.folderUnusable(path: directory.shown, reason: reason)
    }
  }
}
