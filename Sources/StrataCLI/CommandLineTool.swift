import Strata
import StrataArguments

/// `strata`: picks the command, runs it, and maps every error to a message and an exit code.
enum CommandLineTool {
  static let version = "0.1.0"

  static var commands: [CommandEntry] {
    [
      CommandEntry(InitCommand.self),
      CommandEntry(MigrateCommand.self),
      CommandEntry(RollbackCommand.self),
      CommandEntry(StatusCommand.self),
      CommandEntry(ValidateCommand.self),
      CommandEntry(NewCommand.self),
      CommandEntry(BaselineCommand.self),
      CommandEntry(TemplateCommand.self),
      CommandEntry(SeedCommand.self),
      CommandEntry(InspectCommand.self),
    ]
  }

  static var helpText: String {
    var lines = [
      "OVERVIEW: Create, migrate, seed and inspect SQLite databases.",
      "",
      "USAGE: strata <command> [<options>]",
      "",
      "COMMANDS:",
    ]
    for command in commands {
      let name = command.spec.name
      lines.append(
        "  " + name + String(repeating: " ", count: max(1, 12 - name.count))
          + command.spec.abstract
      )
    }
    lines += [
      "",
      "OPTIONS:",
      "  --version   Show the version.",
      "  -h, --help  Show help information.",
      "",
      "See 'strata <command> --help' for a command's options.",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  static func run(arguments: [String], context: CommandContext) -> Int32 {
    guard let first = arguments.first else {
      context.standardError(helpText)
      return ExitCode.usage
    }
    if first == "--help" || first == "-h" || first == "help" {
      if first == "help", arguments.count > 1 {
        // `strata help NAME` for a command that does not exist is a usage error, as
        // `strata NAME` is.
        guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
          return run(arguments: Array(arguments.dropFirst()), context: context)
        }
        context.standardOutput(command.spec.helpText)
      } else {
        context.standardOutput(helpText)
      }
      return ExitCode.success
    }
    if first == "--version" {
      context.print(version)
      return ExitCode.success
    }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
      let names = commands.map(\.spec.name)
      let hint = ParsedArguments.closest(to: first, in: names).map { "Did you mean '\($0)'?" }
      return report(
        UsageError(
          message: "unknown command \(quotedArgument(first))",
          help: hint ?? "Commands: \(names.joined(separator: ", "))."
        ),
        context
      )
    }
    do {
      let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec)
      return try command.run(parsed, context)
    } catch is HelpRequested {
      context.standardOutput(command.spec.helpText)
      return ExitCode.success
    } catch var usage as UsageError {
      usage.help = usage.help ?? "See 'strata \(command.spec.name) --help'."
      return report(usage, context)
    } catch {
      return report(error, context)
    }
  }

  /// Prints `Error: …` and `Help: …` on standard error and picks the exit code.
  static func report(_ error: any Error, _ context: CommandContext) -> Int32 {
    switch error {
    case let usage as UsageError:
      context.printError("Error: \(usage.message)")
      if let help = usage.help { context.printError("Help: \(help)") }
      return ExitCode.usage
    case let failure as any StrataError:
      context.printError("Error: \(failure.message)")
      context.printError("Help: \(failure.help)")
      return ExitCode.failure
    case let failure as SQLiteError:
      context.printError("Error: \(failure)")
      context.printError("Help: Check the database file and run the command again.")
      return ExitCode.failure
    default:
      context.printError("Error: \(error)")
      return ExitCode.failure
    }
  }
}
