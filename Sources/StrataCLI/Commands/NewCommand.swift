import Strata
import StrataArguments

/// `strata new NAME`: writes the next migration file, ready to fill in, or with
/// `--from-schema FILE` the migration `strata diff` prints.
enum NewCommand: Command {
  static let fromSchema = Option<String?>(
    "from-schema",
    "file",
    help: "Write the migration to this desired schema, as 'strata diff --schema FILE' prints it."
  )

  static let spec = CommandSpec(
    name: "new",
    abstract: "Create the next migration file with up/down markers.",
    discussion: """
      Writes the next migration in the folder's own format, numbered after its newest, with a
      line in each part that keeps it refused until it is written. With --from-schema FILE it
      writes the migration from the schema the migrations produce (or --database's) to FILE's,
      checked as 'strata diff' checks it (--rename, --allow-destructive and --oldest-sqlite as
      there); nothing is written when it fails its check or changes nothing.
      """,
    positionals: [PositionalSpec(name: "name", help: "What it does: add_email.", isRequired: true)],
    options: [
      CommonOptions.migrations, CommonOptions.format, CommonOptions.quiet,
      CommonOptions.migrationFormat, CommonOptions.exclude, fromSchema,
    ] + SchemaDiffArguments.options
  )

  /// What `--format json` prints: the file (the up file of a pair) and every file written;
  /// with `--from-schema`, the changes it makes.
  struct Report: Encodable {
    let file: String
    let files: [String]
    let changes: [String]?
  }

  /// What `new` reads of its command line.
  struct Options: CommandOptions {
    /// What the migration does: its name.
    let name: String
    let migrations: MigrationsOptions
    let output: OutputOptions
    /// `--from-schema` as given: the desired schema to write the migration to.
    let fromSchema: String?
    /// The options of `--from-schema`.
    let schemaDiff: SchemaDiffArguments

    init(_ arguments: ParsedArguments) throws {
      name = arguments.positionals[0]
      fromSchema = arguments[NewCommand.fromSchema]
      schemaDiff = SchemaDiffArguments(arguments)
      if fromSchema == nil, let option = schemaDiff.firstGiven {
        throw UsageError(
          message: "\(option) is an option of --from-schema, which was not given",
          help:
            "Run 'strata new NAME --from-schema desired.sql \(option) …', or leave \(option) out."
        )
      }
      try CommonOptions.rejectEmptyPaths(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let directory = options.migrations.directory(context)
    let content = try options.fromSchema.map {
      try options.schemaDiff.generate(desiredPath: $0, writing: true, context).migration
    }
    let urls = try MigrationSet.createMigrationFiles(
      in: directory.url,
      name: options.name,
      format: options.migrations.format,
      excluding: options.migrations.exclusion,
      content: content
    )
    // Inside the folder: `0005_x.sql`, or diesel's `<version>_<name>/up.sql`.
    let base = directory.url.path + "/"
    let files = urls.map { url in
      let inside =
        url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.lastPathComponent
      return "\(directory.shown)/\(inside)"
    }
    context.finished("Created \(files.joined(separator: " and ")).")
    switch options.output.format {
    case .json:
      try context.printJSON(Report(file: files[0], files: files, changes: content?.changes))
    case .text:
      if !options.output.quiet {
        for file in files { context.print("Created \(file)") }
        if let content { SchemaDiffArguments.report(content, context) }
      }
    }
    return ExitCode.success
  }
}
