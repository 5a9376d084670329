import Strata
import StrataArguments

/// The options most commands share, each declared once: commands list these in their
/// `CommandSpec`, and the option groups (`DatabaseOptions`, `MigrationsOptions`,
/// `OutputOptions`, `SchemaFileOptions`, `FleetOptions`) read them back, once per run.
enum CommonOptions {
  static let database = Option<String?>(
    "database",
    "path",
    help: "The database file, or a dqlite cluster's as dqlite://HOST:PORT[,HOST:PORT...]/NAME "
      + "(default: $STRATA_DATABASE, or data.sqlite3 in the documents folder)."
  )
  static let migrations = Option<String?>(
    "migrations",
    "dir",
    help: "The migrations folder (default: $STRATA_MIGRATIONS, or ./migrations)."
  )
  static let seeds = Option<String?>(
    "seeds",
    "dir",
    help: "The seed CSV folder (default: $STRATA_SEEDS, or ./seeds)."
  )
  static let settings = Option<String?>(
    "settings",
    "path",
    help: "The project settings file (default: strata.toml in the current folder, if any)."
  )
  /// `--schema-file PATH`: the schema file to keep current (over `[schema] file`).
  static let schemaFile = Option<String?>(
    "schema-file",
    "path",
    help: "The schema file kept beside the migrations, such as schema.sql (default: [schema] "
      + "file in strata.toml, else none)."
  )
  static let noSchemaFile = Flag(
    "no-schema-file",
    help: "Leave the schema file of strata.toml alone on this run (neither written nor checked)."
  )
  /// The options of a command that keeps the schema file current, and the settings file that
  /// may name it.
  static let schemaFileOptions: [any OptionDeclaration] = [schemaFile, noSchemaFile, settings]
  static let format = Option<OutputFormat>(
    "format",
    "format",
    help: "Output format.",
    default: .text
  )
  static let quiet = Flag("quiet", short: "q", help: "Print nothing on success.")
  static let busyTimeout = Option<Int>.integer(
    "busy-timeout",
    "ms",
    help:
      "How long to wait for another process's write lock (default: \(Connection.defaultBusyTimeout)).",
    minimum: 0,
    default: Connection.defaultBusyTimeout
  )
  static let followSymlinks = Flag(
    "follow-symlinks",
    help: "Read migration and seed files that are symbolic links to files outside their folder."
  )
  /// How the migration files are written; nil detects it from the files. Not `--format`,
  /// which already names the output format (text or JSON) on these commands.
  static let migrationFormat = Option<MigrationFormat?>(
    "migration-format",
    "name",
    help: "How the migration files are written (default: detected from the files).",
    default: nil,
    choices: MigrationFormat.allCases.map(\.rawValue) + ["strata"]
  ) { text in
    guard let format = MigrationFormat(named: text) else {
      let names = (MigrationFormat.allCases.map(\.rawValue) + ["strata"]).joined(separator: ", ")
      throw UsageError(
        message: "--migration-format must be one of \(names); got \(quotedArgument(text))"
      )
    }
    return format
  }
  /// `--exclude GLOB`: migration files to leave out on purpose (a `.go` migration of goose's).
  static let exclude = RepeatedOption<String>(
    "exclude",
    "glob",
    help: "Leave out migration files whose name matches GLOB (* and ?), such as '*.go' "
      + "(repeatable)."
  )
  /// The largest CSV field or record, at least 1.
  static let maxFieldBytes = Option<Int>.integer(
    "max-field-bytes",
    "n",
    help: "The largest CSV field or record, in bytes (default: 16777216, 16 MiB).",
    minimum: 1,
    default: CSVReader.defaultMaximumFieldBytes
  )

  /// `--load-extension PATH[:ENTRY]`, as the sqlite3 shell's `.load PATH ENTRY`.
  static let loadExtension = RepeatedOption<SQLiteExtension>(
    "load-extension",
    "path[:entry]",
    help: "Load an SQLite extension into every connection, as sqlite3's .load (repeatable).",
    parse: parseExtension
  )

  /// `--databases GLOB` or `@FILE` (repeatable): a fleet instead of one `--database`.
  static let databases = RepeatedOption<String>(
    "databases",
    "glob",
    help: "Many databases: a quoted glob (* ? **) or @FILE with a path per line (repeatable)."
  )
  /// How many databases of a fleet are worked on at once.
  static let jobs = Option<Int>.integer(
    "jobs",
    "n",
    help: "With --databases: how many databases at once (default: \(MigrationFleet.defaultJobs)).",
    minimum: 1,
    default: MigrationFleet.defaultJobs
  )
  static let failFast = Flag(
    "fail-fast",
    help: "With --databases: start no further database after one fails."
  )
  /// The options a command that works on a fleet adds.
  static let fleetOptions: [any OptionDeclaration] = [databases, jobs, failFast]

  /// The options every database command takes.
  static let databaseOptions: [any OptionDeclaration] = [
    database, migrations, format, quiet, busyTimeout, followSymlinks, loadExtension,
    migrationFormat, exclude,
  ]

  /// `PATH[:ENTRY]`: the entry point is the text after the last colon when it is a C name and
  /// a path comes before it; otherwise the whole text is the path. As in the sqlite3 shell, a
  /// path without a slash is looked for in the system's library folders.
  private static func parseExtension(_ text: String) throws -> SQLiteExtension {
    guard !text.isEmpty else {
      throw UsageError(message: "--load-extension needs the path of a shared library")
    }
    if let colon = text.lastIndex(of: ":") {
      let path = String(text[..<colon])
      let entry = String(text[text.index(after: colon)...])
      let isName =
        entry.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
        && entry.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
      if isName, !path.isEmpty { return SQLiteExtension(path: path, entryPoint: entry) }
    }
    return SQLiteExtension(path: text)
  }
}
