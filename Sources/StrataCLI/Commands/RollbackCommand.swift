import Strata
import StrataArguments

/// `strata rollback`: reverts the newest migration (or several) with its down part.
enum RollbackCommand: Command {
  static let spec = CommandSpec(
    name: "rollback",
    abstract: "Revert the newest applied migration (or more).",
    options: CommonOptions.databaseOptions + [
      .value("steps", "n", help: "How many migrations to revert (default: 1)."),
      .value("to", "version", help: "Revert every migration above this version (0: all)."),
      .flag("dry-run", help: "Print what would be reverted and its SQL; change nothing."),
      .flag("allow-changed", help: "Revert a migration whose file changed after it was applied."),
    ]
  )

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let steps = try arguments.integer("steps", minimum: 1)
    let target = try arguments.integer("to", minimum: 0)
    if steps != nil, target != nil {
      throw UsageError(message: "--steps and --to cannot be used together")
    }
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    let location = try CommonOptions.databaseURL(arguments, context)
    let connection = try DatabaseSession.open(
      location,
      forWriting: !arguments.flag("dry-run"),
      busyTimeout: try CommonOptions.busyTimeout(arguments),
      mustExist: true
    )
    let report = try Migrator(migrations).rollback(
      connection,
      steps: Int(steps ?? 1),
      to: target,
      dryRun: arguments.flag("dry-run"),
      allowChanged: arguments.flag("allow-changed")
    )
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
