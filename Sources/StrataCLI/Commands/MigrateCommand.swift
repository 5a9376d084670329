import Foundation
import Strata
import StrataArguments

/// `strata migrate`: applies pending migrations in order, each in its own transaction.
enum MigrateCommand: Command {
  static let target = VersionOption.declare(
    "to",
    help: "Migrate up or down to this version (0: empty)."
  )
  static let singleTransaction = Flag(
    "single-transaction",
    help: "Apply all pending migrations in one transaction."
  )
  static let dryRun = Flag(
    "dry-run",
    help: "Print the plan and its SQL, and try it on the rows in a transaction rolled back."
  )
  static let allowChanged = Flag(
    "allow-changed",
    help: "Accept applied migrations whose file changed."
  )
  static let allowUnknown = Flag("allow-unknown", help: "Accept applied versions that no file has.")
  static let allowOutOfOrder = Flag(
    "allow-out-of-order",
    help: "Apply pending migrations older than the newest applied."
  )

  static let backup = Flag(
    "backup",
    help: "Copy the database next to it before the first migration of the run."
  )
  static let keepBackups = Option<Int64?>.integer(
    "keep-backups",
    "n",
    help: "With --backup: how many backups of the database to keep "
      + "(default: \(BackupPolicy.defaultKeep)).",
    minimum: 1
  )

  /// The flags `migrate` and `init` share: how pending migrations are applied and which
  /// problems to accept. The one place they become `MigrateOptions`.
  static let applyingOptions: [any OptionDeclaration] = [
    singleTransaction, allowChanged, allowUnknown, allowOutOfOrder,
  ]

  static let spec = CommandSpec(
    name: "migrate",
    abstract: "Apply pending migrations in order.",
    discussion: """
      Each migration runs in its own BEGIN IMMEDIATE transaction together with its history row
      in strata_migrations: a failure leaves the database at the last migration that succeeded.
      A database that does not exist yet is built beside its name and appears when the run
      ends, so a crash during the run leaves none rather than a part-built one.
      With a schema file (--schema-file, or [schema] file in strata.toml), a run that applied
      or rolled back a migration writes the database's schema there afterwards; a run that
      changed nothing (or --dry-run) leaves it alone.
      --dry-run runs every pending migration on the database itself, as a run would, in one
      transaction that is always rolled back: the first failure is reported with its file and
      line (exit 1) and the database is left as it was. A part that cannot run in a transaction
      (transaction:false, or BEGIN ... COMMIT of its own) is not tried, and said so.
      """,
    options: CommonOptions.databaseOptions + [
      target, singleTransaction, dryRun, allowChanged, allowUnknown, allowOutOfOrder, backup,
      keepBackups,
    ] + CommonOptions.schemaFileOptions + CommonOptions.fleetOptions
  )

  /// What `migrate` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    let output: OutputOptions
    let schemaFile: SchemaFileOptions
    let fleet: FleetOptions
    /// `--to` as given: a version is read in the folder's format, once the folder is read.
    let target: String?
    /// How pending migrations are applied, without the target.
    let applying: MigrateOptions

    init(_ arguments: ParsedArguments) throws {
      fleet = try FleetOptions(
        arguments,
        refusing: [
          (arguments[MigrateCommand.dryRun], "dry-run"),
          (arguments[MigrateCommand.backup], "backup"),
          (arguments[CommonOptions.schemaFile] != nil, "schema-file"),
        ]
      )
      try CommonOptions.rejectEmptyPaths(arguments)
      schemaFile = try SchemaFileOptions(arguments)
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
      target = arguments[MigrateCommand.target]
      var applying = MigrateOptions(applying: arguments)
      applying.dryRun = arguments[MigrateCommand.dryRun]
      applying.triesRows = applying.dryRun
      if arguments[MigrateCommand.backup] {
        applying.backup = BackupPolicy(
          keep: arguments[MigrateCommand.keepBackups].map { Int($0) } ?? BackupPolicy.defaultKeep
        )
      } else if arguments[MigrateCommand.keepBackups] != nil {
        // Without --backup nothing would be kept or pruned: said, not ignored.
        throw UsageError(message: "--keep-backups needs --backup")
      }
      self.applying = applying
    }

    /// What `strata schema` is given to write the schema file this run keeps.
    var rewrite: SchemaFileRun.Rewrite {
      SchemaFileRun.Rewrite(
        schemaFile: schemaFile,
        migrations: migrations,
        extensions: database.extensions
      )
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    // Read strictly before anything runs; a fleet never writes the schema file.
    let settings = try options.schemaFile.projectSettings(context)
    let schemaFile = options.fleet.isFleet ? nil : options.schemaFile.file(context, settings)
    let migrations = try options.migrations.load(context)
    try MigrationOrderCheck.refuseDisagreeingOrder(
      migrations,
      formatNamed: options.migrations.formatNamed,
      context
    )
    var applying = options.applying
    applying.target = try VersionOption.parse(
      options.target,
      name: "to",
      in: migrations,
      allowsZero: true
    )
    if options.fleet.isFleet {
      let fleet = try FleetRun.fleet(options.fleet, options.database, context, migrations)
      let summary = FleetRun.withProgress(fleet, context) {
        $0.migrate(options: applying, progress: $1)
      }
      return try FleetRun.report(summary, options.output, context)
    }
    if let cluster = try options.database.cluster(context) {
      return try ClusterRuns.migrate(
        cluster,
        migrations,
        applying,
        keeping: schemaFile,
        options,
        context
      )
    }
    let database = try options.database.resolve(context)
    let (report, connection) = try migrate(database, migrations, applying, options, context)
    try MigrationReportOutput.render(
      report,
      database: database.shown,
      keeping: schemaFile,
      of: connection,
      options.output,
      options.rewrite,
      context
    )
    return ExitCode.success
  }

  /// Runs the migrations on `database`: a new one is built beside its name, an existing one
  /// migrated in place (or tried, for a dry run); returns the report and the connection the
  /// schema file is written from.
  private static func migrate(
    _ database: ResolvedDatabase,
    _ migrations: MigrationSet,
    _ applying: MigrateOptions,
    _ options: Options,
    _ context: CommandContext
  ) throws -> (MigrationReport, Connection) {
    let busyTimeout = options.database.busyTimeout
    let configuration = try options.database.configuration()
    let migrator = Migrator(migrations)
    if let built = try migrator.migrateNewDatabase(
      at: database.url,
      options: applying,
      busyTimeout: busyTimeout,
      configuration: configuration,
      createsFolder: database.location.isDefault
    ) {
      return built
    }
    let connection =
      applying.dryRun
      ? try DatabaseSession.openForTrial(
        database,
        busyTimeout: busyTimeout,
        configuration: configuration
      )
      : try DatabaseSession.open(
        database,
        forWriting: true,
        busyTimeout: busyTimeout,
        configuration: configuration
      )
    do {
      let report = try migrator.migrate(connection, options: applying) { backup in
        // Said before the first migration runs, so a run that then fails still names it.
        if options.output.showsText {
          context.print(MigrationReportOutput.backedUp(backup, context))
        }
      }
      return (report, connection)
    } catch let error as BackupError {
      throw error.shown(context)
    }
  }
}

extension MigrateOptions {
  /// The options from the flags `migrate` and `init` share (`MigrateCommand.applyingOptions`);
  /// no target, no dry run.
  init(applying arguments: ParsedArguments) {
    self.init(
      singleTransaction: arguments[MigrateCommand.singleTransaction],
      allowChanged: arguments[MigrateCommand.allowChanged],
      allowUnknown: arguments[MigrateCommand.allowUnknown],
      allowOutOfOrder: arguments[MigrateCommand.allowOutOfOrder]
    )
  }
}
