import Strata

/// `strata validate`: the files parse, the history agrees with them, and the schema is what
/// the applied migrations produce (no drift).
enum ValidateCommand: Command {
  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check the migration files, the history and the schema (drift); exit 1 on a problem.",
    options: CommonOptions.databaseOptions
  )

  struct Problem: Encodable {
    let message: String
    let help: String
  }

  struct Report: Encodable {
    let migrations: Int
    let database: String
    let problems: [Problem]
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    let location = CommonOptions.databaseURL(arguments, context)
    var problems: [Problem] = []
    if databaseFileKind(at: location.url.path) != .missing {
      let connection = try DatabaseSession.open(
        location,
        forWriting: false,
        busyTimeout: try CommonOptions.busyTimeout(arguments)
      )
      let migrator = Migrator(migrations)
      problems = migrator.problems(in: try migrator.plan(connection)).map {
        Problem(message: $0.message, help: $0.help)
      }
      problems += try driftProblems(migrations, connection)
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

  /// Each difference between the schema and what the applied migrations produce.
  private static func driftProblems(
    _ migrations: MigrationSet,
    _ connection: Connection
  ) throws -> [Problem] {
    let report: DriftReport
    do {
      report = try DriftCheck(migrations).check(connection)
    } catch let error as InspectionError {
      return [Problem(message: error.message, help: error.help)]
    }
    return report.differences.map {
      Problem(
        message: "schema drift: \($0)",
        help: "Put schema changes in a new migration ('strata new NAME') rather than changing "
          + "the database directly; 'strata inspect --diff' lists every difference."
      )
    }
  }
}
