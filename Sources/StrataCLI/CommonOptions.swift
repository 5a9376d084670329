import Strata
import StrataArguments

/// The options most commands share, each declared once: commands list these in their
/// `CommandSpec` and read them back with `arguments[CommonOptions.x]`.
enum CommonOptions {
  static let database = Option<String?>(
    "database",
    "path",
    help: "The database file (default: $STRATA_DATABASE, or data.sqlite3 in the documents folder)."
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
  /// The largest CSV field or record, at least 1.
  static let maxFieldBytes = Option<Int>.integer(
    "max-field-bytes",
    "n",
    help: "The largest CSV field or record, in bytes (default: 16777216, 16 MiB).",
    minimum: 1,
    default: CSVReader.defaultMaximumFieldBytes
  )

  /// The options every database command takes.
  static let databaseOptions: [any OptionDeclaration] = [
    database, migrations, format, quiet, busyTimeout, followSymlinks, migrationFormat,
  ]

  /// The options that name a file or folder, in the order their emptiness is reported.
  static var pathOptions: [Option<String?>] {
    [database, migrations, seeds, InitCommand.template, TemplateCommand.output]
  }
}
