import Foundation
import Strata
import StrataArguments

/// `strata inspect`: the schema for people (text, Markdown, Mermaid) and machines (JSON, SQL);
/// `--diff` compares it with what the migrations produce and exits 1 on drift.
///
/// Opens the database read-only: it never creates or changes a file.
enum InspectCommand: Command {
  static let format = Option<SchemaFormat>(
    "format",
    "format",
    help: "Output format (default: text).",
    default: .text
  )
  static let diff = Flag(
    "diff",
    help: "Compare the schema with what the migrations produce; exit 1 on drift."
  )

  static let spec = CommandSpec(
    name: "inspect",
    abstract: "Show the schema: tables, columns, keys, indexes, views, triggers, migration state.",
    discussion: """
      Reads the database without changing it. With table names, shows only those tables (and
      the triggers on them). --diff replays the applied migrations into an in-memory database,
      compares tables, columns, indexes, foreign keys, checks, triggers and views with the
      file, prints each difference and exits 1 when there is any. The replay never reaches a
      file: a statement that would (ATTACH of a file, VACUUM INTO, load_extension()) is skipped
      and reported as not checked; when the replay cannot go on, nothing is compared (exit 1).
      """,
    positionals: [
      PositionalSpec(
        name: "table",
        help: "A table or view to show (default: all).",
        isRepeated: true
      )
    ],
    options: [
      CommonOptions.database, CommonOptions.migrations, format,
      diff,
      CommonOptions.quiet, CommonOptions.busyTimeout, CommonOptions.followSymlinks,
      CommonOptions.loadExtension,
      CommonOptions.migrationFormat, CommonOptions.exclude,
    ]
  )

  /// What `inspect` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    /// `--format`: `inspect` has more than text and JSON.
    let format: SchemaFormat
    let quiet: Bool
    let diff: Bool
    /// The tables named; empty shows them all.
    let tables: [String]

    init(_ arguments: ParsedArguments) throws {
      format = arguments[InspectCommand.format]
      diff = arguments[InspectCommand.diff]
      tables = arguments.positionals
      if diff, format != .text, format != .json {
        throw UsageError(
          message: "--diff prints text or json, not \(format.rawValue)",
          help: "Run 'strata inspect --diff' or 'strata inspect --diff --format json'."
        )
      }
      if diff, !tables.isEmpty {
        throw UsageError(
          message: "--diff compares the whole schema; it takes no table names",
          help: "Run 'strata inspect --diff' without table names."
        )
      }
      try CommonOptions.rejectEmptyPaths(arguments)
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      quiet = arguments[CommonOptions.quiet]
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let location = try options.database.resolveReading(context)
    let busyTimeout = options.database.busyTimeout
    let shown = location.shown
    let configuration = try options.database.configuration()
    let connection = try open(
      location.url,
      shown: shown,
      busyTimeout: busyTimeout,
      configuration: configuration
    )
    do {
      if options.diff {
        let migrations = try options.migrations.load(context)
        let report = try DriftCheck(migrations, configuration: configuration).check(connection)
        return try DriftReportOutput.render(
          report,
          database: shown,
          json: options.format == .json,
          quiet: options.quiet,
          context
        )
      }
      let schema = try SchemaInspector(connection).inspect(
        tables: options.tables,
        migrations: try migrations(options.migrations, context)
      )
      let chosen = options.format
      switch chosen {
      // SQL stays exactly SQLite's text in a file or a pipe, so that the dump recreates the
      // schema; a terminal gets it escaped. Invalid UTF-8 would be written as U+FFFD: refused
      // to a file or a pipe, shown so on a terminal.
      case .sql:
        if !context.output.isTerminal { try SchemaInspector(connection).refuseInvalidUTF8() }
        context.printSQL(try schema.rendered(as: .sql))
      case .json: context.printJSON(rendered: try schema.rendered(as: .json))
      case .text, .markdown, .mermaid:
        context.printText(
          // The path escaped as the names are: a line break in it must not start a line.
          try SchemaDisplay.rendered(
            schema,
            as: chosen,
            databaseName: escapingControls(shown)
          )
        )
      }
      return ExitCode.success
    } catch let error as SQLiteError where error.isBusy {
      throw InspectionError.locked(path: shown, busyTimeoutMs: busyTimeout)
    }
  }

  /// Read-only; a lock held past the busy timeout is reported as such.
  private static func open(
    _ url: URL,
    shown: String,
    busyTimeout: Int,
    configuration: ConnectionConfiguration
  ) throws -> Connection {
    do {
      return try Connection.open(
        at: url,
        access: .read,
        busyTimeout: busyTimeout,
        configuration: configuration
      )
    } catch DatabaseOpenError.sqlite(_, let error) where error.isBusy {
      throw InspectionError.locked(path: shown, busyTimeoutMs: busyTimeout)
    }
  }

  /// The migrations folder, to count pending migrations: required when named with
  /// --migrations or STRATA_MIGRATIONS, used when ./migrations exists and reads cleanly.
  private static func migrations(
    _ options: MigrationsOptions,
    _ context: CommandContext
  ) throws -> MigrationSet? {
    let directory = options.directory(context)
    if directory.isNamed { return try options.load(context) }
    guard directory.exists else { return nil }
    do {
      return try options.load(context)
    } catch let error as any StrataError {
      // The schema can still be shown; say why the migration state is not.
      context.printError("Warning: \(error.message); the migration state is not shown.")
      return nil
    }
  }
}
