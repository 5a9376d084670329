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
    ]
  )

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let chosen = arguments[Self.format]
    let diff = arguments[Self.diff]
    if diff, chosen != .text, chosen != .json {
      throw UsageError(
        message: "--diff prints text or json, not \(chosen.rawValue)",
        help: "Run 'strata inspect --diff' or 'strata inspect --diff --format json'."
      )
    }
    if diff, !arguments.positionals.isEmpty {
      throw UsageError(
        message: "--diff compares the whole schema; it takes no table names",
        help: "Run 'strata inspect --diff' without table names."
      )
    }
    let location = try CommonOptions.databaseURL(arguments, context)
    let busyTimeout = arguments[CommonOptions.busyTimeout]
    let shown = CommonOptions.shown(location.url, context)
    let connection = try open(location.url, shown: shown, busyTimeout: busyTimeout)
    do {
      if diff {
        let migrations = try CommonOptions.loadMigrations(arguments, context)
        let report = try DriftCheck(migrations).check(connection)
        return try renderDrift(report, database: shown, arguments, context)
      }
      let schema = try SchemaInspector(connection).inspect(
        tables: arguments.positionals,
        migrations: try migrations(arguments, context)
      )
      switch chosen {
      // SQL stays exactly SQLite's text, so that the dump recreates the schema.
      case .sql: context.standardOutput(try schema.rendered(as: .sql))
      case .json: context.printJSON(rendered: try schema.rendered(as: .json))
      case .text, .markdown, .mermaid:
        context.printText(
          try SchemaDisplay.shown(schema).rendered(as: chosen, databaseName: shown)
        )
      }
      return ExitCode.success
    } catch let error as SQLiteError where error.isBusy {
      throw InspectionError.locked(path: shown, busyTimeoutMs: busyTimeout)
    }
  }

  /// Read-only; a lock held past the busy timeout is reported as such.
  private static func open(_ url: URL, shown: String, busyTimeout: Int) throws -> Connection {
    do {
      return try openDatabase(at: url, access: .read, busyTimeout: busyTimeout)
    } catch DatabaseOpenError.sqlite(_, let error) where error.isBusy {
      throw InspectionError.locked(path: shown, busyTimeoutMs: busyTimeout)
    }
  }

  /// The migrations folder, to count pending migrations: required when named with
  /// --migrations or STRATA_MIGRATIONS, used when ./migrations exists and reads cleanly.
  private static func migrations(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws -> MigrationSet? {
    let directory = CommonOptions.migrationsDirectory(arguments, context)
    if directory.isNamed { return try CommonOptions.loadMigrations(arguments, context) }
    guard directory.exists else { return nil }
    do {
      return try MigrationSet(directory: directory.url, displayPath: directory.shown)
    } catch let error as any StrataError {
      // The schema can still be shown; say why the migration state is not.
      context.printError("Warning: \(error.message); the migration state is not shown.")
      return nil
    }
  }

  private static func renderDrift(
    _ report: DriftReport,
    database: String,
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws -> Int32 {
    // Without a comparison there is no answer: not "no drift".
    let code = report.hasDrift || !report.schemaCompared ? ExitCode.failure : ExitCode.success
    if arguments[Self.format] == .json {
      struct Output: Encodable {
        let format = 1
        let database: String
        let drift: Bool
        let report: DriftReport
      }
      try context.printJSON(Output(database: database, drift: report.hasDrift, report: report))
      return code
    }
    for statement in report.notChecked {
      context.printError("Warning: \(statement)")
    }
    if arguments[CommonOptions.quiet] { return code }
    let replayed = plural(report.replayedVersions.count, "migration")
    guard report.schemaCompared else {
      context.print(
        "Not compared: the replay of \(report.migrationsDirectory) (in memory) stopped, so "
          + "drift between \(database) and its migrations is unknown; \(database) was only read."
      )
      return code
    }
    for version in report.unreplayableVersions {
      context.print(
        "Warning: version \(version) is applied but has no file in "
          + "\(report.migrationsDirectory); it was not replayed."
      )
    }
    guard report.hasDrift else {
      let unchecked = report.notChecked.count
      let caveat =
        unchecked == 0
        ? "" : "; \(plural(unchecked, "statement")) not checked in the replay (warnings above)"
      context.print(
        "No drift: \(database) matches its migrations (\(report.migrationsDirectory), "
          + "\(replayed) replayed in memory\(caveat))."
      )
      return code
    }
    context.print(
      "Drift: \(plural(report.differences.count, "difference")) between \(database) and its "
        + "migrations"
    )
    context.print("(\(replayed) from \(report.migrationsDirectory) replayed in memory)")
    for difference in report.differences {
      let mark =
        switch difference.change {
        case .missing: "-"
        case .unexpected: "+"
        case .changed: "~"
        }
      context.print("  \(mark) \(difference)")
    }
    context.print(
      "Help: Put schema changes in a new migration ('strata new NAME') instead of changing the "
        + "database directly, or undo the change in the database."
    )
    return code
  }

  private static func plural(_ count: Int, _ word: String) -> String {
    "\(count) \(word)\(count == 1 ? "" : "s")"
  }
}
