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

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let steps = arguments[Self.steps]
    let target = arguments[Self.target]
    if steps != nil, target != nil {
      throw UsageError(message: "--steps and --to cannot be used together")
    }
    let isFleet = try FleetRun.isFleet(
      arguments,
      refusing: [
        (steps != nil, "steps"), (arguments[Self.dryRun], "dry-run"),
        (arguments[CommonOptions.schemaFile] != nil, "schema-file"),
      ]
    )
    if isFleet, target == nil {
      throw UsageError(message: "--databases needs --to VERSION: rollback goes to one version")
    }
    // Read strictly before anything runs; a fleet never writes the schema file.
    let settings = try CommonOptions.projectSettings(arguments, context)
    let schemaFile = isFleet ? nil : try CommonOptions.schemaFile(arguments, context, settings)
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    try MigrationOrderCheck.refuseDisagreeingOrder(
      migrations,
      formatNamed: arguments[CommonOptions.migrationFormat] != nil,
      context
    )
    let version = try VersionOption.parse(target, name: "to", in: migrations, allowsZero: true)
    if isFleet, let version {
      let fleet = try FleetRun.fleet(arguments, context, migrations)
      let allowChanged = arguments[Self.allowChanged]
      let summary = FleetRun.withProgress(fleet, context) {
        $0.rollback(to: version, allowChanged: allowChanged, progress: $1)
      }
      return try FleetRun.report(summary, done: "rolled back", arguments, context)
    }
    let location = try CommonOptions.databaseURL(arguments, context)
    let connection = try DatabaseSession.open(
      location,
      forWriting: !arguments[Self.dryRun],
      busyTimeout: arguments[CommonOptions.busyTimeout],
      configuration: try CommonOptions.connectionConfiguration(arguments),
      mustExist: true
    )
    let report = try Migrator(migrations).rollback(
      connection,
      version.map(RollbackTarget.version) ?? .steps(Int(steps ?? 1)),
      dryRun: arguments[Self.dryRun],
      allowChanged: arguments[Self.allowChanged]
    )
    let database = CommonOptions.shown(location.url, context)
    try MigrationReportOutput.render(
      report,
      database: database,
      keeping: schemaFile,
      of: connection,
      arguments,
      context
    )
    return ExitCode.success
  }
}
