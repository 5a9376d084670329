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

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let named = arguments[Self.database]
    if arguments[Self.check], named != nil {
      throw UsageError(
        message: "--check compares the schema file with the migrations, not with --database",
        help: "Run 'strata schema --check' without --database."
      )
    }
    if named == "" {
      throw UsageError(message: "--database needs a path; it was given an empty value")
    }
    let settings = try CommonOptions.projectSettings(arguments, context)
    guard let file = try CommonOptions.schemaFile(arguments, context, settings) else {
      let settingsFile = arguments[CommonOptions.settings] ?? ProjectSettings.fileName
      throw UsageError(
        message: "no schema file is named: \(settingsFile) has no [schema] file",
        help: "Pass --schema-file PATH, or add [schema] file = \"schema.sql\" to \(settingsFile)."
      )
    }
    let configuration = try CommonOptions.connectionConfiguration(arguments)
    let report: Report
    if let named {
      report = try write(file, fromDatabase: named, configuration, arguments, context)
    } else {
      let migrations = try CommonOptions.loadMigrations(arguments, context)
      let rewrite = SchemaFileRun.command(arguments)
      do {
        if arguments[Self.check] {
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
        throw SchemaFileRun.failure(error, rewrite: rewrite)
      }
    }
    render(report, database: named, arguments, context)
    return ExitCode.success
  }

  /// What was done, in a sentence (text) or as JSON.
  private static func render(
    _ report: Report,
    database: String?,
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) {
    let schema =
      database.map { named in
        let url = DatabaseLocation.absolute(named, from: context.currentDirectory)
        return "the schema of \(CommonOptions.shown(url, context))"
      } ?? "the schema the migrations produce"
    let path = report.schemaFile
    let sentence =
      switch report.result {
      case "written": "Wrote \(path): \(schema)."
      case "unchanged": "\(path) already holds \(schema); it was not rewritten."
      default: "\(path) is current: it holds \(schema)."
      }
    context.finished(sentence)
    switch arguments[CommonOptions.format] {
    case .json: try? context.printJSON(report)
    case .text: if !arguments[CommonOptions.quiet] { context.print(sentence) }
    }
  }

  /// `--database PATH`: that database's schema, read without changing it.
  private static func write(
    _ file: SchemaFile,
    fromDatabase named: String,
    _ configuration: ConnectionConfiguration,
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws -> Report {
    let location = try DatabaseLocation.resolve(
      explicit: named,
      environment: context.environment.forDefaultLocation,
      currentDirectory: context.currentDirectory
    )
    try checkDatabasePath(location.url)
    let connection = try DatabaseSession.open(
      location,
      forWriting: false,
      busyTimeout: arguments[CommonOptions.busyTimeout],
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
        rewrite: SchemaFileRun.command(arguments, database: named),
        source: "the database"
      )
    }
  }
}
