import Strata
import StrataArguments

/// `strata validate`: the files parse, the history agrees with them, the schema is what the
/// applied migrations produce (no drift), and every pending migration runs after the ones
/// before it. The migrations run in a fenced in-memory replay; with `--rows`, the pending ones
/// also run on the database's rows, as `migrate --dry-run` runs them (rolled back).
enum ValidateCommand: Command {
  static let filesOnly = Flag(
    "files-only",
    help: "Check only the migration files (each runs in the replay); ignore the database."
  )

  static let rows = Flag(
    "rows",
    help: "Also run the pending migrations on the database's rows, as migrate --dry-run does "
      + "(rolled back; needs write access)."
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
      The replay has none of the database's rows, so a pending migration the rows make fail (a
      UNIQUE index over duplicates, a NOT NULL column without a default) passes it: --rows also
      runs the pending migrations on the database itself, as migrate --dry-run does, in a
      transaction that is always rolled back, and reports the first failure. The last line says
      what was checked: the files, the history and schema, and the rows or not.
      """,
    options: CommonOptions.databaseOptions + [filesOnly, rows] + CommonOptions.fleetOptions
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
    /// Whether the pending migrations ran on the database's rows (`--rows`), rolled back.
    let rowsTried: Bool
    /// With `--rows`: the parts that could not run on the rows (warnings).
    let notTriedOnRows: [UncheckedStatement]
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

  /// What `validate` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    let output: OutputOptions
    let fleet: FleetOptions
    let filesOnly: Bool
    let tryRows: Bool

    init(_ arguments: ParsedArguments) throws {
      filesOnly = arguments[ValidateCommand.filesOnly]
      tryRows = arguments[ValidateCommand.rows]
      fleet = try FleetOptions(arguments, refusing: [(filesOnly, "files-only"), (tryRows, "rows")])
      try CommonOptions.rejectEmptyPaths(arguments)
      if filesOnly, tryRows {
        throw UsageError(
          message: "--rows tries the migrations on a database's rows, so it cannot "
            + "be used with --files-only"
        )
      }
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let migrations = try options.migrations.load(context)
    if options.fleet.isFleet {
      let fleet = try FleetRun.fleet(options.fleet, options.database, context, migrations)
      let summary = FleetRun.withProgress(fleet, context) { $0.validate(progress: $1) }
      return try FleetRun.report(summary, options.output, context)
    }
    let database = try options.database.resolveReading(context)
    let configuration = try options.database.configuration()
    let connection = options.filesOnly ? nil : try open(database, configuration, options)
    let checked = try check(
      migrations,
      connection,
      database: options.filesOnly ? nil : database.shown,
      tryingRows: options.tryRows,
      configuration
    )
    try render(checked, migrations, options, context)
    return checked.problems.isEmpty ? ExitCode.success : ExitCode.failure
  }

  /// The database, which must exist; `--rows` opens it as migrate --dry-run does: for writing
  /// when it can be, else read-only (and then says the rows were not tried).
  private static func open(
    _ database: ResolvedDatabase,
    _ configuration: ConnectionConfiguration,
    _ options: Options
  ) throws -> Connection {
    let kind = database.kind()
    if kind == .missing {
      throw MissingDatabase(path: database.shown)
    }
    return options.tryRows
      ? try DatabaseSession.openForTrial(
        database,
        busyTimeout: options.database.busyTimeout,
        configuration: configuration,
        kind: kind
      )
      : try DatabaseSession.open(
        database,
        forWriting: false,
        busyTimeout: options.database.busyTimeout,
        configuration: configuration,
        kind: kind
      )
  }

  /// What one database's validation found.
  private struct Checked {
    /// The database as shown; nil with `--files-only`.
    let database: String?
    let result: ValidationResult
    let problems: [ValidationProblem]
    /// The pending migrations; nil with `--files-only`.
    let pending: [MigrationStatus]?
    /// With `--rows`, when the pending migrations ran on the rows.
    let trial: DryRunTrial?
    /// What `strata lint` finds in the pending migrations.
    let warnings: [LintFinding]
  }

  /// The replay, the history and schema, the rows with `--rows`, and the lint's warnings.
  private static func check(
    _ migrations: MigrationSet,
    _ connection: Connection?,
    database: String?,
    tryingRows: Bool,
    _ configuration: ConnectionConfiguration
  ) throws -> Checked {
    let result = try Validator(migrations, configuration: configuration).validate(
      connection,
      databaseName: database
    )
    var problems = Self.problems(result)
    let pending = try connection.map { try Migrator(migrations).plan($0).migrations(in: .pending) }
    var trial: DryRunTrial?
    if tryingRows, problems.isEmpty, let connection, let database {
      (trial, problems) = Self.tryRows(migrations, connection, database: database)
    }
    // The replay's own failures are problems above; the lint adds its findings as warnings.
    let warnings = try MigrationLinter(migrations, configuration: configuration).lint(connection)
      .findings
    return Checked(
      database: database,
      result: result,
      problems: problems,
      pending: pending,
      trial: trial,
      warnings: warnings
    )
  }

  /// The problems and warnings on standard error and the summary line (text), or the report.
  private static func render(
    _ checked: Checked,
    _ migrations: MigrationSet,
    _ options: Options,
    _ context: CommandContext
  ) throws {
    let result = checked.result
    let trial = checked.trial
    switch options.output.format {
    case .json:
      try context.printJSON(
        Report(
          migrations: migrations.migrations.count,
          migrationFormat: migrations.format.rawValue,
          database: checked.database,
          problems: checked.problems,
          notChecked: result.notChecked,
          versionWidthWarnings: migrations.versionWidthWarnings,
          schemaCompared: result.schemaCompared,
          warnings: checked.warnings,
          rowsTried: trial != nil,
          notTriedOnRows: trial?.notTried ?? []
        )
      )
    case .text:
      for problem in checked.problems {
        context.printError("Error: \(problem.message)")
        context.printError("Help: \(problem.help)")
      }
      for statement in result.notChecked {
        context.printError("Warning: \(statement)")
      }
      for place in trial?.notTried ?? [] {
        let at = place.line.map { "\(place.file):\($0)" } ?? place.file
        context.printError("Warning: \(at): not tried on the rows: \(place.reason)")
      }
      let refused = migrations.format == .dbmate && !options.migrations.formatNamed
      for warning in migrations.versionWidthWarnings {
        let note = refused ? MigrationOrderCheck.refusalNote : ""
        context.printError("Warning: \(warning.message)\(note)")
      }
      for finding in checked.warnings {
        context.printError("Warning: \(finding.description)")
        context.printError("Help: \(finding.help)")
      }
      if checked.problems.isEmpty, !options.output.quiet {
        context.print(
          summary(
            migrations,
            database: checked.database,
            result,
            pending: checked.pending?.count ?? 0,
            trial: trial
          )
        )
      }
    }
  }

  /// The problems found, their help in the CLI's words (its flags), in text and JSON alike.
  static func problems(
    _ result: ValidationResult,
    saying say: (Remedy) -> String = \.commandLineWords
  ) -> [ValidationProblem] {
    result.problems.map { ValidationProblem(message: $0.message, help: $0.help(saying: say)) }
  }

  /// `--rows`: the pending migrations run on the database's rows, as `migrate --dry-run` runs
  /// them; the trial, or the problem its failure is.
  private static func tryRows(
    _ migrations: MigrationSet,
    _ connection: Connection,
    database: String
  ) -> (DryRunTrial?, [ValidationProblem]) {
    do {
      let report = try Migrator(migrations).migrate(
        connection,
        options: MigrateOptions(dryRun: true, triesRows: true)
      )
      guard let trial = report.trial, trial.ranOnTheDatabase else {
        return (
          nil,
          [
            ValidationProblem(
              message: "\(database) could only be opened read-only, so the pending migrations "
                + "were not tried on its rows; nothing was changed",
              help: "Make the file and its folder writable, or run without --rows."
            )
          ]
        )
      }
      return (trial, [])
    } catch let error as MigrationError {
      return (
        nil,
        [
          ValidationProblem(
            message: "\(database): \(error.message)",
            help: error.help(saying: \.commandLineWords)
          )
        ]
      )
    } catch {
      return (
        nil,
        [
          ValidationProblem(
            message: "\(database): the pending migrations could not be tried on its rows: "
              + "\(error); nothing was changed",
            help: "Check that the database file is writable and intact, then try again."
          )
        ]
      )
    }
  }

  /// The success line; it never says more was checked than was: the files, the history and
  /// schema, and whether the pending migrations met the database's rows.
  private static func summary(
    _ migrations: MigrationSet,
    database: String?,
    _ result: ValidationResult,
    pending: Int,
    trial: DryRunTrial?
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
    let agreement =
      result.schemaCompared
      ? "the history and schema of \(database) agree with them"
      : "the history of \(database) agrees with them, but its schema was not compared"
    let subject = "\(checked); \(agreement); \(pendingWords(pending, database, trial))"
    if unchecked == 0 { return "OK: \(subject)." }
    return "OK, except what was not checked: \(subject); \(unchecked) not checked "
      + "(warnings above)."
  }

  /// Whether the pending migrations met the database's rows, in words.
  private static func pendingWords(
    _ pending: Int,
    _ database: String,
    _ trial: DryRunTrial?
  )
    -> String
  {
    guard pending > 0 else { return "nothing is pending" }
    let migrations = pending == 1 ? "1 pending migration" : "\(pending) pending migrations"
    guard let trial else {
      return "\(migrations) ran in the replay only, not on the rows of \(database) (--rows "
        + "tries them there)"
    }
    let tried = trial.tried.count
    let skipped = trial.notTried.count
    let notTried =
      skipped == 0
      ? "" : " (\(skipped == 1 ? "1 part" : "\(skipped) parts") not tried, warnings above)"
    let subject = tried >= pending ? migrations : "\(tried) of \(migrations)"
    return "\(subject) tried on its rows in a transaction that was rolled back\(notTried)"
  }
}
