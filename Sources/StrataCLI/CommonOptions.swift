import Foundation
import Strata

/// Options most commands share, and how they resolve against the environment.
enum CommonOptions {
  static let database = OptionSpec.value(
    "database",
    "path",
    help: "The database file (default: $STRATA_DATABASE, or data.sqlite3 in the documents folder)."
  )
  static let migrations = OptionSpec.value(
    "migrations",
    "dir",
    help: "The migrations folder (default: $STRATA_MIGRATIONS, or ./migrations)."
  )
  static let format = OptionSpec.value(
    "format",
    "format",
    help: "Output format.",
    choices: ["text", "json"]
  )
  static let quiet = OptionSpec.flag("quiet", short: "q", help: "Print nothing on success.")
  static let busyTimeout = OptionSpec.value(
    "busy-timeout",
    "ms",
    help: "How long to wait for another process's write lock (default: 10000)."
  )

  /// The options every database command takes.
  static let databaseOptions = [database, migrations, format, quiet, busyTimeout]

  static func databaseURL(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) -> (
    url: URL, isDefault: Bool
  ) {
    DatabaseLocation.resolve(
      explicit: arguments.value("database"),
      environment: context.environment,
      currentDirectory: context.currentDirectory
    )
  }

  /// The migrations folder as given (for messages) and as a URL.
  static func migrationsDirectory(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) -> (
    url: URL, shown: String
  ) {
    let given =
      arguments.value("migrations")
      ?? context.environment["STRATA_MIGRATIONS"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "migrations"
    return (DatabaseLocation.absolute(given, from: context.currentDirectory), given)
  }

  static let seeds = OptionSpec.value(
    "seeds",
    "dir",
    help: "The seed CSV folder (default: $STRATA_SEEDS, or ./seeds)."
  )

  /// The seeds folder as given (for messages) and as a URL; `isNamed` when the user chose it
  /// (with --seeds or STRATA_SEEDS) rather than taking the default `./seeds`.
  static func seedsDirectory(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) -> (
    url: URL, shown: String, isNamed: Bool
  ) {
    let named =
      arguments.value("seeds")
      ?? context.environment["STRATA_SEEDS"].flatMap { $0.isEmpty ? nil : $0 }
    let shown = named ?? "seeds"
    return (DatabaseLocation.absolute(shown, from: context.currentDirectory), shown, named != nil)
  }

  static func loadMigrations(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws
    -> MigrationSet
  {
    let directory = migrationsDirectory(arguments, context)
    return try MigrationSet(directory: directory.url, displayPath: directory.shown)
  }

  static func format(_ arguments: ParsedArguments) -> OutputFormat {
    arguments.value("format").flatMap(OutputFormat.init(rawValue:)) ?? .text
  }

  static func busyTimeout(_ arguments: ParsedArguments) throws -> Int {
    Int(try arguments.integer("busy-timeout", minimum: 0) ?? 10_000)
  }

  /// The path as the user would recognise it: relative to the working directory when inside it.
  static func shown(_ url: URL, _ context: CommandContext) -> String {
    let base =
      context.currentDirectory.hasSuffix("/")
      ? context.currentDirectory : context.currentDirectory + "/"
    return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
  }
}
