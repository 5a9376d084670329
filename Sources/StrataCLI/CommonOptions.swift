import Foundation
import Strata
import StrataArguments

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
    help:
      "How long to wait for another process's write lock (default: \(Connection.defaultBusyTimeout))."
  )

  static let followSymlinks = OptionSpec.flag(
    "follow-symlinks",
    help: "Read migration and seed files that are symbolic links to files outside their folder."
  )

  /// The options every database command takes.
  static let databaseOptions = [database, migrations, format, quiet, busyTimeout, followSymlinks]

  /// The database path, checked before any command looks at it: an empty `--database` is a
  /// usage error (it would name the current folder), and a named pipe, a device, a symbolic
  /// link loop or a folder without search permission is reported as what it is, never as "no
  /// database yet".
  static func databaseURL(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws -> (
    url: URL, isDefault: Bool
  ) {
    try rejectEmptyPaths(arguments)
    let location = try DatabaseLocation.resolve(
      explicit: arguments.value("database"),
      environment: context.environment,
      currentDirectory: context.currentDirectory
    )
    try checkDatabasePath(location.url)
    return location
  }

  /// A path option given as an empty string (`--database=`) is a usage error.
  static func rejectEmptyPaths(_ arguments: ParsedArguments) throws {
    for name in ["database", "migrations", "seeds", "template", "output"]
    where arguments.value(name) == "" {
      throw UsageError(
        message: "--\(name) needs a path; it was given an empty value",
        help: "Name a path, such as --\(name)=\(name == "database" ? "data.sqlite3" : name)."
      )
    }
  }

  /// The migrations folder as given (for messages) and as a URL.
  static func migrationsDirectory(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  )
    -> Folder
  {
    folder(option: "migrations", variable: "STRATA_MIGRATIONS", arguments, context)
  }

  static let seeds = OptionSpec.value(
    "seeds",
    "dir",
    help: "The seed CSV folder (default: $STRATA_SEEDS, or ./seeds)."
  )

  static func seedsDirectory(_ arguments: ParsedArguments, _ context: CommandContext) -> Folder {
    folder(option: "seeds", variable: "STRATA_SEEDS", arguments, context)
  }

  /// A folder named by an option, else an environment variable, else its default: the option's
  /// name under the current directory.
  struct Folder {
    let url: URL
    /// As the user gave it, for messages.
    let shown: String
    /// Chosen by the user rather than taken by default: then it must exist.
    let isNamed: Bool

    var exists: Bool {
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }
  }

  private static func folder(
    option: String,
    variable: String,
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) -> Folder {
    let named =
      arguments.value(option) ?? context.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    let shown = named ?? option
    return Folder(
      url: DatabaseLocation.absolute(shown, from: context.currentDirectory),
      shown: shown,
      isNamed: named != nil
    )
  }

  static func loadMigrations(
    _ arguments: ParsedArguments,
    _ context: CommandContext
  ) throws
    -> MigrationSet
  {
    try rejectEmptyPaths(arguments)
    let directory = migrationsDirectory(arguments, context)
    return try MigrationSet(
      directory: directory.url,
      displayPath: directory.shown,
      followSymlinks: arguments.flag("follow-symlinks")
    )
  }

  static func format(_ arguments: ParsedArguments) -> OutputFormat {
    arguments.value("format").flatMap(OutputFormat.init(rawValue:)) ?? .text
  }

  static let maxFieldBytes = OptionSpec.value(
    "max-field-bytes",
    "n",
    help: "The largest CSV field or record, in bytes (default: 16777216, 16 MiB)."
  )

  /// `--max-field-bytes`, at least 1.
  static func maxFieldBytes(_ arguments: ParsedArguments) throws -> Int {
    Int(
      try arguments.integer("max-field-bytes", minimum: 1)
        ?? Int64(CSVReader.defaultMaximumFieldBytes)
    )
  }

  static func busyTimeout(_ arguments: ParsedArguments) throws -> Int {
    Int(try arguments.integer("busy-timeout", minimum: 0) ?? Int64(Connection.defaultBusyTimeout))
  }

  /// The path as the user would recognise it: relative to the working directory when inside it.
  static func shown(_ url: URL, _ context: CommandContext) -> String {
    let base =
      context.currentDirectory.hasSuffix("/")
      ? context.currentDirectory : context.currentDirectory + "/"
    return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
  }
}
