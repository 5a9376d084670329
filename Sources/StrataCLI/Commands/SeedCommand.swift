import Strata

/// `strata seed`: not built yet.
enum SeedCommand: Command {
  static let spec = CommandSpec(name: "seed", abstract: "(not available yet)")

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    context.printError("Error: 'strata seed' is not available yet")
    return ExitCode.failure
  }
}
