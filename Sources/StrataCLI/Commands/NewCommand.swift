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

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let directory = CommonOptions.migrationsDirectory(arguments, context)
    var content: GeneratedMigration?
    if let desired = arguments[Self.fromSchema] {
      content = try SchemaDiffArguments.generate(
        desiredPath: desired,
        writing: true,
        arguments,
        context
      ).migration
    } else if let option = SchemaDiffArguments.firstGiven(arguments) {
      throw UsageError(
        message: "\(option) is an option of --from-schema, which was not given",
        help: "Run 'strata new NAME --from-schema desired.sql \(option) …', or leave \(option) out."
      )
    }
    let urls = try MigrationSet.createMigrationFiles(
      in: directory.url,
      name: arguments.positionals[0],
      format: arguments[CommonOptions.migrationFormat],
      excluding: MigrationFileExclusion(arguments[CommonOptions.exclude]),
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
    switch arguments[CommonOptions.format] {
    case .json:
      try context.printJSON(Report(file: files[0], files: files, changes: content?.changes))
    case .text:
      if !arguments[CommonOptions.quiet] {
        for file in files { context.print("Created \(file)") }
        if let content { SchemaDiffArguments.report(content, context) }
      }
    }
    return ExitCode.success
  }
}
