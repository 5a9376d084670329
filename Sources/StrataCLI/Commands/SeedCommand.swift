import Foundation
import Strata
import StrataArguments
import StrataDqlite

/// `strata seed`: loads CSV files into their tables in one transaction.
enum SeedCommand: Command {
  static let table = Option<String?>(
    "table",
    "name",
    help: "The table for a single FILE whose name is not the table's."
  )
  static let mode = Option<SeedMode>(
    "mode",
    "mode",
    help: "How rows meet existing ones (default: missing).",
    default: .missing
  )
  static let dryRun = Flag("dry-run", help: "Load and check everything, report, then roll back.")
  static let force = Flag(
    "force",
    help: "Let --mode replace empty a table that others reference with CASCADE."
  )

  static let null = RepeatedOption<String>(
    "null",
    "token",
    help: "An unquoted field equal to TOKEN is NULL, such as NA or \\N (repeatable)."
  )
  static let column = RepeatedOption<SeedColumnFlag>(
    "column",
    "header=column",
    help: "Load CSV header HEADER into column COLUMN (repeatable; split at the last =).",
    parse: SeedColumnFlag.init
  )

  static let spec = CommandSpec(
    name: "seed",
    abstract: "Load CSV seed files into their tables.",
    discussion: """
      Each CSV file loads into the table named by its stem (seeds/person_info.csv →
      person_info); its header names the columns. Values are checked against each column's
      type: an INTEGER column takes whole numbers only (00501 is an error, never 501); an
      unquoted empty field is NULL and a quoted "" is the empty string. Every file of a run
      loads in one transaction, parents before children: any bad row, constraint or orphan
      fails the run with its file:line, and the database is left exactly as it was.

      Modes: missing (default) inserts rows whose key is absent and never touches existing
      rows; upsert also updates the CSV's columns of existing rows; replace empties the table
      first; append inserts every row; sync (for bundled reference data, init's and an app
      launch's default) inserts new rows, updates changed ones and deletes those that left the
      file, but never touches a row the user changed or deleted (KEPT counts them). The key is
      the primary key, or a UNIQUE constraint whose columns are all in the header; in sync, a
      table without one syncs by rowid. Each loaded file is recorded in strata_seeds.

      Real data files: --null NA makes each unquoted NA NULL (a quoted "NA" stays text; the
      report counts the fields each token made NULL, per column); --column "CSV header=column"
      loads a header into a column of another name. A BOOLEAN or BOOL column takes true/false
      in any case, 1 or 0.

      A .tsv file is tab-separated; a gzipped file (people.csv.gz, by its magic bytes) is read
      as it is and loads table people. --delimiter and --encoding read other files.
      """,
    positionals: [
      PositionalSpec(
        name: "file",
        help: "CSV files to load (default: every *.csv, *.tsv, *.csv.gz and *.tsv.gz in the "
          + "seeds folder); - reads standard input (with --table).",
        isRepeated: true
      )
    ],
    options: [
      CommonOptions.database,
      CommonOptions.seeds,
      table,
      mode,
      dryRun,
      force,
      null,
      column,
      CommonOptions.maxFieldBytes,
      CommonOptions.settings,
      SeedFormatOptions.delimiter,
      SeedFormatOptions.encoding,
      CommonOptions.format,
      CommonOptions.quiet,
      CommonOptions.busyTimeout,
      CommonOptions.followSymlinks,
      CommonOptions.loadExtension,
    ]
  )

  /// What `seed` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let output: OutputOptions
    let seed: SeedOptions
    /// `--seeds` as given; nil takes `$STRATA_SEEDS`, else `./seeds`.
    let seeds: String?
    /// `--settings`: the project settings name seed files' formats (`seed` keeps no schema
    /// file).
    let project: SchemaFileOptions
    /// The files named, as given; empty loads the seeds folder.
    let files: [String]
    let table: String?
    let followSymlinks: Bool
    /// How the flags change every file's format (`--null`, `--column`, `--delimiter`,
    /// `--encoding`).
    let format: SeedFormatOptions

    init(_ arguments: ParsedArguments) throws {
      seed = SeedOptions(
        mode: arguments[SeedCommand.mode],
        dryRun: arguments[SeedCommand.dryRun],
        force: arguments[SeedCommand.force],
        maximumFieldBytes: arguments[CommonOptions.maxFieldBytes]
      )
      files = arguments.positionals
      table = arguments[SeedCommand.table]
      if table != nil, files.count != 1 {
        throw UsageError(
          message: "--table needs exactly one FILE; got \(files.count)",
          help: "Usage: strata seed people.csv --table person_info"
        )
      }
      if files.contains("-"), table == nil {
        throw UsageError(
          message: "- (standard input) has no file name to take the table from",
          help: "Name the table: cat people.csv | strata seed - --table person_info"
        )
      }
      format = try SeedFormatOptions(arguments)
      try CommonOptions.rejectEmptyPaths(arguments)
      database = DatabaseOptions(arguments)
      output = OutputOptions(arguments)
      seeds = arguments[CommonOptions.seeds]
      project = try SchemaFileOptions(arguments)
      followSymlinks = arguments[CommonOptions.followSymlinks]
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let (files, folder) = try files(options, context)
    let cluster = try options.database.cluster(context)
    let location = cluster == nil ? try options.database.resolve(context) : nil
    let shown = cluster?.description ?? location?.shown ?? ""
    if files.isEmpty {
      let report = SeedReport(tables: [], dryRun: options.seed.dryRun, durationMs: 0)
      render(report, shown, emptyFolder: folder, options, context)
      return ExitCode.success
    }
    let seeder = try seeder(cluster, location, options, context)
    let bar =
      context.standardErrorIsTerminal && options.output.showsText ? SeedProgressBar(context) : nil
    let report: SeedReport
    do {
      report = try seeder.seed(files, options: options.seed) { progress in
        bar?.update(progress)
      }
    } catch {
      bar?.clear()
      throw error
    }
    bar?.clear()
    render(report, shown, emptyFolder: nil, options, context)
    return ExitCode.success
  }

  /// The seeder for the cluster's database (which must hold tables already) or the file.
  private static func seeder(
    _ cluster: DqliteURL?,
    _ location: ResolvedDatabase?,
    _ options: Options,
    _ context: CommandContext
  ) throws -> Seeder {
    if let cluster {
      return Seeder(database: try ClusterRuns.openExisting(cluster, options.database))
    }
    let connection = try DatabaseSession.open(
      try location ?? options.database.resolve(context),
      forWriting: true,
      busyTimeout: options.database.busyTimeout,
      configuration: try options.database.configuration(),
      mustExist: true
    )
    return Seeder(connection: connection)
  }

  /// The files to load, each with its format (the settings', then the flags'), and the seeds
  /// folder when it was read (for the report of an empty one).
  private static func files(
    _ options: Options,
    _ context: CommandContext
  ) throws -> ([SeedFile], folder: String?) {
    let settings = try options.project.projectSettings(context)
    let directory = CommonOptions.seedsFolder(options.seeds, context)
    var files: [SeedFile]
    var folder: String?
    if options.files.isEmpty {
      folder = directory.shown
      files = try Seeder.files(
        in: directory.url,
        displayPath: directory.shown,
        followSymlinks: options.followSymlinks
      )
    } else {
      files = options.files.map { path in
        if path == "-", let table = options.table { return SeedFile.standardInput(table: table) }
        return SeedFile(
          url: DatabaseLocation.absolute(path, from: context.currentDirectory),
          table: options.table,
          displayPath: path
        )
      }
    }
    // The settings' options first: options given for this run override them.
    try settings.seeds.checkNamedFiles(
      existIn: directory.exists ? directory.url : nil,
      folderDisplayPath: directory.shown,
      besides: files
    )
    files = settings.seeds.applied(to: files)
    return (options.format.apply(to: files), folder)
  }

  private static func render(
    _ report: SeedReport,
    _ database: String,
    emptyFolder: String?,
    _ options: Options,
    _ context: CommandContext
  ) {
    SeedReportOutput.render(
      report,
      database: database,
      mode: options.seed.mode,
      emptyFolder: emptyFolder,
      format: options.output.format,
      quiet: options.output.quiet,
      context
    )
  }
}
