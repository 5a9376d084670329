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

  /// `MigrateOptions` from the shared flags (`applyingOptions`); no target, no dry run.
  static func options(_ arguments: ParsedArguments) -> MigrateOptions {
    MigrateOptions(
      singleTransaction: arguments[Self.singleTransaction],
      allowChanged: arguments[Self.allowChanged],
      allowUnknown: arguments[Self.allowUnknown],
      allowOutOfOrder: arguments[Self.allowOutOfOrder]
    )
  }

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

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let isFleet = try FleetRun.isFleet(
      arguments,
      refusing: [
        (arguments[Self.dryRun], "dry-run"), (arguments[Self.backup], "backup"),
        (arguments[CommonOptions.schemaFile] != nil, "schema-file"),
      ]
    )
    // Read strictly before anything runs; a fleet never writes the schema file.
    let settings = try CommonOptions.projectSettings(arguments, context)
    let schemaFile = isFleet ? nil : try CommonOptions.schemaFile(arguments, context, settings)
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    try MigrationOrderCheck.refuseDisagreeingOrder(
      migrations,
      formatNamed: arguments[CommonOptions.migrationFormat] != nil,
      context
    )
    var options = Self.options(arguments)
    options.target = try VersionOption.parse(
      arguments[Self.target],
      name: "to",
      in: migrations,
      allowsZero: true
    )
    options.dryRun = arguments[Self.dryRun]
    options.triesRows = options.dryRun
    if arguments[Self.backup] {
      options.backup = BackupPolicy(
        keep: arguments[Self.keepBackups].map { Int($0) } ?? BackupPolicy.defaultKeep
      )
    } else if arguments[Self.keepBackups] != nil {
      // Without --backup nothing would be kept or pruned: said, not ignored.
      throw UsageError(message: "--keep-backups needs --backup")
    }
    if isFleet {
      let fleet = try FleetRun.fleet(arguments, context, migrations)
      let summary = FleetRun.withProgress(fleet, context) {
        $0.migrate(options: options, progress: $1)
      }
      return try FleetRun.report(summary, arguments, context)
    }
    let location = try CommonOptions.databaseURL(arguments, context)
    let busyTimeout = arguments[CommonOptions.busyTimeout]
    let configuration = try CommonOptions.connectionConfiguration(arguments)
    let migrator = Migrator(migrations)
    let database = CommonOptions.shown(location.url, context)
    let textOutput = arguments[CommonOptions.format] == .text && !arguments[CommonOptions.quiet]
    let report: MigrationReport
    let connection: Connection
    if let built = try migrator.migrateNewDatabase(
      at: location.url,
      options: options,
      busyTimeout: busyTimeout,
      configuration: configuration,
      createsFolder: location.isDefault
    ) {
      (report, connection) = built
    } else {
      connection =
        options.dryRun
        ? try DatabaseSession.openForTrial(
          location,
          busyTimeout: busyTimeout,
          configuration: configuration
        )
        : try DatabaseSession.open(
          location,
          forWriting: true,
          busyTimeout: busyTimeout,
          configuration: configuration
        )
      do {
        report = try migrator.migrate(connection, options: options) { backup in
          // Said before the first migration runs, so a run that then fails still names it.
          if textOutput { context.print(MigrationReportOutput.backedUp(backup, context)) }
        }
      } catch let error as BackupError {
        throw error.shown(context)
      }
    }
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
