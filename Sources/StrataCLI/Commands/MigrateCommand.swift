import Foundation
import Strata
import StrataArguments

/// `strata migrate`: applies pending migrations in order, each in its own transaction.
enum MigrateCommand: Command {
  static let spec = CommandSpec(
    name: "migrate",
    abstract: "Apply pending migrations in order.",
    discussion: """
      Each migration runs in its own BEGIN IMMEDIATE transaction together with its history row
      in strata_migrations: a failure leaves the database at the last migration that succeeded.
      """,
    options: CommonOptions.databaseOptions + [
      .value("to", "version", help: "Migrate up or down to this version (0: empty)."),
      .flag("single-transaction", help: "Apply all pending migrations in one transaction."),
      .flag("dry-run", help: "Print the plan and its SQL; change nothing."),
      .flag("allow-changed", help: "Accept applied migrations whose file changed."),
      .flag("allow-unknown", help: "Accept applied versions that no file has."),
      .flag("allow-out-of-order", help: "Apply pending migrations older than the newest applied."),
    ]
  )

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let options = MigrateOptions(
      target: try arguments.integer("to", minimum: 0),
      singleTransaction: arguments.flag("single-transaction"),
      dryRun: arguments.flag("dry-run"),
      allowChanged: arguments.flag("allow-changed"),
      allowUnknown: arguments.flag("allow-unknown"),
      allowOutOfOrder: arguments.flag("allow-out-of-order")
    )
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    let location = try CommonOptions.databaseURL(arguments, context)
    let connection = try DatabaseSession.open(
      location,
      forWriting: !options.dryRun,
      busyTimeout: try CommonOptions.busyTimeout(arguments)
    )
    let report = try Migrator(migrations).migrate(connection, options: options)
    MigrationReportOutput.render(
      report,
      database: CommonOptions.shown(location.url, context),
      format: CommonOptions.format(arguments),
      quiet: arguments.flag("quiet"),
      context
    )
    return ExitCode.success
  }
}
