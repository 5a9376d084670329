import StrataArguments

/// A `strata` subcommand: a thin shell that parses, calls one library function and renders
/// its report.
///
/// Its arguments become one typed value, `Options`, before anything runs: every usage error
/// that the command line alone shows is thrown there, and `run` reads only that value.
protocol Command {
  associatedtype Options: CommandOptions
  static var spec: CommandSpec { get }
  /// Runs with its options; returns the exit code (0 or 1). Throws to report an error.
  static func run(_ options: Options, _ context: CommandContext) throws -> Int32
}

/// What a command reads of its command line, as typed values: built once from the parsed
/// arguments, as swift-argument-parser's `ParsableArguments` are, with the options several
/// commands share in groups (`DatabaseOptions`, `MigrationsOptions`, `OutputOptions`, …).
protocol CommandOptions {
  /// Reads every option and positional the command takes.
  ///
  /// - Throws: `UsageError` for a combination of options the command refuses, or a path
  ///   option given as an empty string.
  init(_ arguments: ParsedArguments) throws
}

/// A command in the tool's list: its spec and how to run it.
struct CommandEntry {
  let spec: CommandSpec
  let run: (ParsedArguments, CommandContext) throws -> Int32

  init<C: Command>(_ command: C.Type) {
    spec = C.spec
    run = { arguments, context in try C.run(C.Options(arguments), context) }
  }
}

/// Exit codes, in one place: sysexits' 64 for usage errors.
enum ExitCode {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 64
}
