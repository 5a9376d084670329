import Strata

/// `strata template`: not built yet.
enum TemplateCommand: Command {
  static let spec = CommandSpec(name: "template", abstract: "(not available yet)")

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    context.printError("Error: 'strata template' is not available yet")
    return ExitCode.failure
  }
}
