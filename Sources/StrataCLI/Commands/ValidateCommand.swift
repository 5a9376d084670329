import Strata
import StrataArguments

/// `strata validate`: the files parse, the history agrees with them, the schema is what the
/// applied migrations produce (no drift), and every pending migration runs after the ones
/// before it. The migrations run only in a fenced in-memory replay.
enum ValidateCommand: Command {
  static let filesOnly = Flag(
    "files-only",
    help: "Check only the migration files (each runs in the replay); ignore the database."
  )

  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check the migration files, the history and the schema (drift); exit 1 on a problem.",
    discussion: """
      Replays the migrations into an in-memory database (the replay) to compare the schema
      with the database's and to check that each pending migration runs after the ones before
      it; the database itself is only read. The replay never reaches a file: a statement that
      would (ATTACH of a file, VACUUM INTO, load_extension()) is skipped and reported as not
      checked, with its file and line, as is one that fails there only for want of the
      database's rows or of a skipped statement. Statements not checked are warnings: validate
      lists them and still exits 0 when nothing else is wrong. A --database that does not exist
      is an error, unless --files-only asks to check the migration files alone.
      """,
    options: CommonOptions.databaseOptions + [filesOnly] + CommonOptions.fleetOptions
  )

  struct Report: Encodable {
    let migrations: Int
    /// How the migration files are written (`MigrationFormat`'s name).
    let migrationFormat: String
    let database: String?
    let problems: [ValidationProblem]
    let notChecked: [UncheckedStatement]
    /// Versions that order differently as numbers and as text (warnings).
    let versionWidthWarnings: [VersionWidthWarning]
    /// Whether the database's schema was compared with the migrations'.
    let schemaCompared: Bool
    /// What `strata lint` finds in the pending migrations (warnings: they never fail validate).
    let warnings: [LintFinding]
  }

  /// `--database` names no file, and the user did not ask for the files alone.
  struct MissingDatabase: StrataError {
    let path: String
    var message: String {
      "no database at \(path), so there is nothing to validate the migrations against; "
        + "nothing was created"
    }
    var help: String {
      "Check --database (or STRATA_DATABASE), run 'strata migrate' to create the database, or "
        + "pass --files-only to check the migration files alone."
    }
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let isFleet = try FleetRun.isFleet(
      arguments,
      refusing: [(arguments[Self.filesOnly], "files-only")]
    )
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    if isFleet {
      let fleet = try FleetRun.fleet(arguments, context, migrations)
      let summary = FleetRun.withProgress(fleet, context) { $0.validate(progress: $1) }
      return try FleetRun.report(summary, arguments, context)
    }
    let filesOnly = arguments[Self.filesOnly]
    let location = try CommonOptions.databaseURL(arguments, context)
    let database = CommonOptions.shown(location.url, context)
    let configuration = try CommonOptions.connectionConfiguration(arguments)
    var connection: Connection?
    if !filesOnly {
      if databaseFileKind(at: location.url.path) == .missing {
        throw MissingDatabase(path: database)
      }
      connection = try DatabaseSession.open(
        location,
        forWriting: false,
        busyTimeout: arguments[CommonOptions.busyTimeout],
        configuration: configuration
      )
    }
    let result = try Validator(migrations, configuration: configuration).validate(
      connection,
      databaseName: filesOnly ? nil : database
    )
    let problems = Self.problems(result)
    // The replay's own failures are problems above; the lint adds its findings as warnings.
    let warnings = try MigrationLinter(migrations, configuration: configuration).lint(connection)
      .findings
    switch arguments[CommonOptions.format] {
    case .json:
      try context.printJSON(
        Report(
          migrations: migrations.migrations.count,
          migrationFormat: migrations.format.rawValue,
          database: filesOnly ? nil : database,
          problems: problems,
          notChecked: result.notChecked,
          versionWidthWarnings: migrations.versionWidthWarnings,
          schemaCompared: result.schemaCompared,
          warnings: warnings
        )
      )
    case .text:
      for problem in problems {
        context.printError("Error: \(problem.message)")
        context.printError("Help: \(problem.help)")
      }
      for statement in result.notChecked {
        context.printError("Warning: \(statement)")
      }
      for warning in migrations.versionWidthWarnings {
        context.printError("Warning: \(warning.message)")
      }
      for finding in warnings {
        context.printError("Warning: \(finding.description)")
        context.printError("Help: \(finding.help)")
      }
      if problems.isEmpty, !arguments[CommonOptions.quiet] {
        context.print(summary(migrations, database: filesOnly ? nil : database, result))
      }
    }
    return problems.isEmpty ? ExitCode.success : ExitCode.failure
  }

  /// The problems found, their help in the CLI's words (its flags), in text and JSON alike.
  static func problems(
    _ result: ValidationResult,
    saying say: (Remedy) -> String = \.commandLineWords
  ) -> [ValidationProblem] {
    result.problems.map { ValidationProblem(message: $0.message, help: $0.help(saying: say)) }
  }

  /// The success line; it never says more was checked than was.
  private static func summary(
    _ migrations: MigrationSet,
    database: String?,
    _ result: ValidationResult
  ) -> String {
    // strata's own format goes unsaid, as before formats were read; another is named.
    let format = migrations.format == .dbmate ? "" : "\(migrations.format.rawValue) "
    let checked =
      "\(migrations.migrations.count) \(format)migrations in \(migrations.directory) are valid"
    let unchecked = result.notChecked.count
    guard let database else {
      let files = "\(checked) (files only; no database was read)"
      return unchecked == 0
        ? "OK: \(files)."
        : "OK, except what was not checked: \(files), but \(unchecked) not checked (warnings above)."
    }
    if unchecked == 0 { return "OK: \(checked); \(database) agrees with them." }
    let subject =
      result.schemaCompared
      ? "\(checked); \(database) agrees with them"
      : "\(checked) and the history of \(database) agrees with them, but its schema was not "
        + "compared"
    return "OK, except what was not checked: \(subject); \(unchecked) not checked "
      + "(warnings above)."
  }
}
