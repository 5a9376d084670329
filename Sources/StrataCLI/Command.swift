import StrataArguments

/// A `strata` subcommand: a thin shell that parses, calls one library function and renders
/// its report.
protocol Command {
  static var spec: CommandSpec { get }
  /// Runs with parsed arguments; returns the exit code (0 or 1). Throws to report an error.
  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32
}

/// A command in the tool's list: its spec and how to run it.
struct CommandEntry {
  let spec: CommandSpec
  let run: (ParsedArguments, CommandContext) throws -> Int32

  init<C: Command>(_ command: C.Type) {
    spec = C.spec
    run = { try C.run($0, $1) }
  }
}

/// Exit codes, in one place: sysexits' 64 for usage errors.
enum ExitCode {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 64
}
