import Strata
import StrataArguments

/// `strata rollback`: reverts the newest migration (or several) with its down part.
enum RollbackCommand: Command {
  static let steps = Option<Int64?>.integer(
    "steps",
    "n",
    help: "How many migrations to revert (default: 1).",
    minimum: 1
  )
  static let target = VersionOption.declare(
    "to",
    help: "Revert every migration above this version (0: all)."
  )
  static let dryRun = Flag(
    "dry-run",
    help: "Print what would be reverted and its SQL; change nothing."
  )
  static let allowChanged = Flag(
    "allow-changed",
    help: "Revert a migration whose file changed after it was applied."
  )

  static let spec = CommandSpec(
    name: "rollback",
    abstract: "Revert the newest applied migration (or more).",
    discussion: """
      With a schema file (--schema-file, or [schema] file in strata.toml), a run that rolled
      back a migration writes the database's schema there afterwards; --dry-run writes nothing.
      """,
    options: CommonOptions.databaseOptions + [steps, target, dryRun, allowChanged]
      + CommonOptions.schemaFileOptions + CommonOptions.fleetOptions
  )

  /// What `rollback` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    let output: OutputOptions
    let schemaFile: SchemaFileOptions
    let fleet: FleetOptions
    let steps: Int64?
    /// `--to` as given: a version is read in the folder's format, once the folder is read.
    let target: String?
    let dryRun: Bool
    let allowChanged: Bool

    init(_ arguments: ParsedArguments) throws {
      steps = arguments[RollbackCommand.steps]
      target = arguments[RollbackCommand.target]
      dryRun = arguments[RollbackCommand.dryRun]
      if steps != nil, target != nil {
        throw UsageError(message: "--steps and --to cannot be used together")
      }
      fleet = try FleetOptions(
        arguments,
        refusing: [
          (steps != nil, "steps"), (dryRun, "dry-run"),
          (arguments[CommonOptions.schemaFile] != nil, "schema-file"),
        ]
      )
      if fleet.isFleet, target == nil {
        throw UsageError(message: "--databases needs --to VERSION: rollback goes to one version")
      }
      try CommonOptions.rejectEmptyPaths(arguments)
      schemaFile = try SchemaFileOptions(arguments)
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
      allowChanged = arguments[RollbackCommand.allowChanged]
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
    let version = try VersionOption.parse(
      options.target,
      name: "to",
      in: migrations,
      allowsZero: true
    )
    if options.fleet.isFleet, let version {
      let fleet = try FleetRun.fleet(options.fleet, options.database, context, migrations)
      let allowChanged = options.allowChanged
      let summary = FleetRun.withProgress(fleet, context) {
        $0.rollback(to: version, allowChanged: allowChanged, progress: $1)
      }
      return try FleetRun.report(summary, done: "rolled back", options.output, context)
    }
    let target = version.map(RollbackTarget.version) ?? .steps(Int(options.steps ?? 1))
    if let cluster = try options.database.cluster(context) {
      return try ClusterRuns.rollback(
        cluster,
        migrations,
        target,
        keeping: schemaFile,
        options,
        context
      )
    }
    let database = try options.database.resolve(context)
    let connection = try DatabaseSession.open(
      database,
      forWriting: !options.dryRun,
      busyTimeout: options.database.busyTimeout,
      configuration: try options.database.configuration(),
      mustExist: true
    )
    let report = try Migrator(migrations).rollback(
      connection,
      target,
      dryRun: options.dryRun,
      allowChanged: options.allowChanged
    )
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
}
