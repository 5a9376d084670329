import Strata

/// `strata inspect`: not built yet.
enum InspectCommand: Command {
  static let spec = CommandSpec(name: "inspect", abstract: "(not available yet)")

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    context.printError("Error: 'strata inspect' is not available yet")
    return ExitCode.failure
  }
}
