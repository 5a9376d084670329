import Strata
import StrataArguments

/// `strata new NAME`: writes the next migration file, ready to fill in.
enum NewCommand: Command {
  static let spec = CommandSpec(
    name: "new",
    abstract: "Create the next migration file with up/down markers.",
    positionals: [PositionalSpec(name: "name", help: "What it does: add_email.", isRequired: true)],
    options: [CommonOptions.migrations, CommonOptions.format, CommonOptions.quiet]
  )

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let directory = CommonOptions.migrationsDirectory(arguments, context)
    let url = try MigrationSet.createMigrationFile(
      in: directory.url,
      name: arguments.positionals[0]
    )
    let file = "\(directory.shown)/\(url.lastPathComponent)"
    context.finished("Created \(file).")
    switch arguments[CommonOptions.format] {
    case .json:
      try context.printJSON(["file": file])
    case .text:
      if !arguments[CommonOptions.quiet] { context.print("Created \(file)") }
    }
    return ExitCode.success
  }
}
