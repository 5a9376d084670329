import Foundation
import Strata
import StrataArguments

/// `strata schema`: writes the schema file from the migrations (no database needed), or from a
/// database with `--database`; `--check` compares it with the migrations and writes nothing.
enum SchemaCommand: Command {
  static let check = Flag(
    "check",
    help: "Write nothing: exit 1 when the schema file is not what the migrations produce."
  )
  /// Not `CommonOptions.database`: only a database named here is read, never the default one.
  static let database = Option<String?>(
    "database",
    "path",
    help: "Write the schema of this database instead of the migrations' (default: none)."
  )

  static let spec = CommandSpec(
    name: "schema",
    abstract: "Write the schema file from the migrations (no database needed).",
    discussion: """
      The schema file is the one --schema-file names, else [schema] file in strata.toml. It
      gets the canonical dump of the schema the migrations produce, replayed in an in-memory
      database (or, with --database, of that database, as 'strata migrate' writes it): a
      temporary file beside it is synced and renamed over it, and a file that would not change
      is not rewritten. Only an empty file or one strata wrote is replaced. With --check,
      nothing is written: exit 1 when the file is missing or differs, naming the first
      differing line, or when the migrations cannot be replayed exactly.
      """,
    options: [
      CommonOptions.schemaFile, CommonOptions.settings, check, database,
      CommonOptions.migrations, CommonOptions.format, CommonOptions.quiet,
      CommonOptions.busyTimeout, CommonOptions.followSymlinks, CommonOptions.loadExtension,
      CommonOptions.migrationFormat, CommonOptions.exclude,
    ]
  )

  struct Report: Encodable {
    let schemaFile: String
    /// `migrations` or `database`.
    let source: String
    /// `written`, `unchanged`, or `current` (`--check`).
    let result: String
  }

  /// What `schema` reads of its command line.
  struct Options: CommandOptions {
    /// `--database` as given: only a database named here is read.
    let database: String?
    let busyTimeout: Int
    /// `--load-extension`, in order.
    let extensions: [SQLiteExtension]
    let migrations: MigrationsOptions
    let output: OutputOptions
    let schemaFile: SchemaFileOptions
    let check: Bool

    init(_ arguments: ParsedArguments) throws {
      database = arguments[SchemaCommand.database]
      check = arguments[SchemaCommand.check]
      if check, database != nil {
        throw UsageError(
          message: "--check compares the schema file with the migrations, not with --database",
          help: "Run 'strata schema --check' without --database."
        )
      }
      if database == "" {
        throw UsageError(message: "--database needs a path; it was given an empty value")
      }
      try CommonOptions.rejectEmptyPaths(arguments)
      schemaFile = try SchemaFileOptions(arguments)
      let connections = DatabaseOptions(arguments)
      busyTimeout = connections.busyTimeout
      extensions = connections.extensions
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
    }

    /// What `strata schema` is given to write the same file again.
    var rewrite: SchemaFileRun.Rewrite {
      SchemaFileRun.Rewrite(schemaFile: schemaFile, migrations: migrations, extensions: extensions)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let settings = try options.schemaFile.projectSettings(context)
    guard let file = options.schemaFile.file(context, settings) else {
      let settingsFile = options.schemaFile.settings ?? ProjectSettings.fileName
      throw UsageError(
        message: "no schema file is named: \(settingsFile) has no [schema] file",
        help: "Pass --schema-file PATH, or add [schema] file = \"schema.sql\" to \(settingsFile)."
      )
    }
    let configuration = try DatabaseOptions.configuration(loading: options.extensions)
    if let named = options.database {
      let database = try ResolvedDatabase.named(named, context)
      let report = try write(file, from: database, named: named, configuration, options)
      render(report, schema: "the schema of \(database.shown)", options.output, context)
      return ExitCode.success
    }
    let migrations = try options.migrations.load(context)
    let report: Report
    do {
      if options.check {
        try file.check(against: migrations, configuration: configuration)
        report = Report(schemaFile: file.displayPath, source: "migrations", result: "current")
      } else {
        let outcome = try file.write(producedBy: migrations, configuration: configuration)
        report = Report(
          schemaFile: file.displayPath,
          source: "migrations",
          result: outcome.rawValue
        )
      }
    } catch let error as SchemaFileError {
      throw SchemaFileRun.failure(error, rewrite: options.rewrite.command())
    }
    render(report, schema: "the schema the migrations produce", options.output, context)
    return ExitCode.success
  }

  /// What was done, in a sentence (text) or as JSON.
  private static func render(
    _ report: Report,
    schema: String,
    _ output: OutputOptions,
    _ context: CommandContext
  ) {
    let path = report.schemaFile
    let sentence =
      switch report.result {
      case "written": "Wrote \(path): \(schema)."
      case "unchanged": "\(path) already holds \(schema); it was not rewritten."
      default: "\(path) is current: it holds \(schema)."
      }
    context.finished(sentence)
    switch output.format {
    case .json: try? context.printJSON(report)
    case .text: if !output.quiet { context.print(sentence) }
    }
  }

  /// `--database PATH`: that database's schema, read without changing it.
  private static func write(
    _ file: SchemaFile,
    from database: ResolvedDatabase,
    named: String,
    _ configuration: ConnectionConfiguration,
    _ options: Options
  ) throws -> Report {
    let connection = try DatabaseSession.open(
      database,
      forWriting: false,
      busyTimeout: options.busyTimeout,
      configuration: configuration,
      mustExist: true
    )
    // The file would hold U+FFFD where the database holds other bytes.
    try SchemaInspector(connection).refuseInvalidUTF8()
    do {
      let outcome = try file.write(schemaOf: connection)
      return Report(schemaFile: file.displayPath, source: "database", result: outcome.rawValue)
    } catch let error as SchemaFileError {
      throw SchemaFileRun.failure(
        error,
        rewrite: options.rewrite.command(database: named),
        source: "the database"
      )
    }
  }
}
