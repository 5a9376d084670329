import Strata
import StrataArguments

/// `strata new NAME`: writes the next migration file, ready to fill in.
enum NewCommand: Command {
  static let spec = CommandSpec(
    name: "new",
    abstract: "Create the next migration file with up/down markers.",
    positionals: [PositionalSpec(name: "name", help: "What it does: add_email.", isRequired: true)],
    options: [
      CommonOptions.migrations, CommonOptions.format, CommonOptions.quiet,
      CommonOptions.migrationFormat,
    ]
  )

  /// What `--format json` prints: the file (the up file of a pair) and every file written.
  struct Report: Encodable {
    let file: String
    let files: [String]
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let directory = CommonOptions.migrationsDirectory(arguments, context)
    let urls = try MigrationSet.createMigrationFiles(
      in: directory.url,
      name: arguments.positionals[0],
      format: arguments[CommonOptions.migrationFormat]
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
      try context.printJSON(Report(file: files[0], files: files))
    case .text:
      if !arguments[CommonOptions.quiet] {
        for file in files { context.print("Created \(file)") }
      }
    }
    return ExitCode.success
  }
}
