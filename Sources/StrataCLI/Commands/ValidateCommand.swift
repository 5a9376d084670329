import Strata
import StrataArguments

/// `strata validate`: the files parse, the history agrees with them, and the schema is what
/// the applied migrations produce (no drift).
enum ValidateCommand: Command {
  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check the migration files, the history and the schema (drift); exit 1 on a problem.",
    options: CommonOptions.databaseOptions
  )

  struct Report: Encodable {
    let migrations: Int
    let database: String
    let problems: [ValidationProblem]
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    let location = try CommonOptions.databaseURL(arguments, context)
    var problems: [ValidationProblem] = []
    if databaseFileKind(at: location.url.path) != .missing {
      let connection = try DatabaseSession.open(
        location,
        forWriting: false,
        busyTimeout: try CommonOptions.busyTimeout(arguments)
      )
      problems = try Validator(migrations).problems(in: connection)
    }
    let database = CommonOptions.shown(location.url, context)
    switch CommonOptions.format(arguments) {
    case .json:
      context.print(
        try JSONOutput.render(
          Report(migrations: migrations.migrations.count, database: database, problems: problems)
        )
      )
    case .text:
      for problem in problems {
        context.printError("Error: \(problem.message)")
        context.printError("Help: \(problem.help)")
      }
      if problems.isEmpty, !arguments.flag("quiet") {
        context.print(
          "OK: \(migrations.migrations.count) migrations in \(migrations.directory) are valid; "
            + "\(database) agrees with them."
        )
      }
    }
    return problems.isEmpty ? ExitCode.success : ExitCode.failure
  }
}
