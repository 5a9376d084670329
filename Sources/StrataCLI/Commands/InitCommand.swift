import Strata

/// `strata init`: not built yet.
enum InitCommand: Command {
  static let spec = CommandSpec(name: "init", abstract: "(not available yet)")

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    context.printError("Error: 'strata init' is not available yet")
    return ExitCode.failure
  }
}
