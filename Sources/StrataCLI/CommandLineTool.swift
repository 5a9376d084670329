import Foundation
import Strata
import StrataArguments

/// `strata`: picks the command, runs it, and maps every error to a message and an exit code.
public enum CommandLineTool {
  /// The program's name, in usage lines and hints.
  static let name = "strata"
  static let version = strataVersion

  static var commands: [CommandEntry] {
    [
      CommandEntry(InitCommand.self),
      CommandEntry(MigrateCommand.self),
      CommandEntry(RollbackCommand.self),
      CommandEntry(RestoreCommand.self),
      CommandEntry(BackupCommand.self),
      CommandEntry(StatusCommand.self),
      CommandEntry(ValidateCommand.self),
      CommandEntry(LintCommand.self),
      CommandEntry(NewCommand.self),
      CommandEntry(DiffCommand.self),
      CommandEntry(BaselineCommand.self),
      CommandEntry(TemplateCommand.self),
      CommandEntry(SeedCommand.self),
      CommandEntry(InspectCommand.self),
      CommandEntry(SchemaCommand.self),
    ]
  }

  /// The tool's own `--help`: the commands and the options in one aligned table.
  static var helpText: String {
    let commandRows = commands.map { [$0.spec.name, $0.spec.abstract] }
    let optionRows = [
      ["--version", "Show the version."], ["-h, --help", "Show help information."],
    ]
    let rows = alignedRows(commandRows + optionRows, indent: "  ", droppingEmptyColumns: false)
    let lines =
      [
        "OVERVIEW: Create, migrate, seed and inspect SQLite databases.",
        "",
        "USAGE: \(name) <command> [<options>]",
        "",
        "COMMANDS:",
      ]
      + rows.prefix(commandRows.count) + ["", "OPTIONS:"] + rows.dropFirst(commandRows.count)
      + ["", "See '\(name) <command> --help' for a command's options."]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The whole program, for each executable's `main.swift`: the two differ only in how they
  /// are linked.
  public static func main() -> Never {
    let code = run(
      arguments: Array(CommandLine.arguments.dropFirst()),
      context: CommandContext.process()
    )
    exit(code)
  }

  static func run(arguments: [String], context: CommandContext) -> Int32 {
    let code = dispatch(arguments, context)
    ClusterSnapshotFolder.removeAll()
    return ErrorOutput.reportOutputFailure(context, code: code)
  }

  private static func dispatch(_ arguments: [String], _ context: CommandContext) -> Int32 {
    let json = ErrorOutput.wantsJSON(arguments)
    guard let first = arguments.first else {
      context.errors.write(helpText)
      return ExitCode.usage
    }
    if first == "--help" || first == "-h" || first == "help" || first == "--version" {
      // `strata --version x` and `strata help migrate extra`: an argument nothing reads is a
      // usage error, as it is after any command.
      let allowed = first == "--version" ? 1 : 2
      if arguments.count > allowed {
        return ErrorOutput.report(
          UsageError(
            message: "unexpected argument \(quotedArgument(arguments[allowed])) after '\(first)'",
            help: first == "--version"
              ? "Run '\(name) --version' alone."
              : "Ask for one command's help at a time, such as '\(name) help migrate'."
          ),
          json: json,
          context
        )
      }
    }
    if first == "--help" || first == "-h" || first == "help" {
      if arguments.count > 1 {
        // `strata help NAME` (or `--help NAME`) for a command that does not exist is a usage
        // error, as `strata NAME` is.
        guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
          return run(arguments: Array(arguments.dropFirst()), context: context)
        }
        context.printText(command.spec.helpText(toolName: name))
      } else {
        context.printText(helpText)
      }
      return ExitCode.success
    }
    if first == "--version" {
      context.print(version)
      return ExitCode.success
    }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
      let names = commands.map(\.spec.name)
      let hint = closestName(to: first, in: names).map { "Did you mean '\($0)'?" }
      return ErrorOutput.report(
        UsageError(
          message: "unknown command \(quotedArgument(first))",
          help: hint ?? "Commands: \(names.joined(separator: ", "))."
        ),
        json: json,
        context
      )
    }
    do {
      let parsed = try ParsedArguments(
        Array(arguments.dropFirst()),
        spec: command.spec,
        toolName: name
      )
      return try command.run(parsed, context)
    } catch is HelpRequested {
      context.printText(command.spec.helpText(toolName: name))
      return ExitCode.success
    } catch var usage as UsageError {
      usage.help = usage.help ?? command.spec.helpHint(toolName: name)
      return ErrorOutput.report(usage, json: json, context)
    } catch {
      return ErrorOutput.report(error, json: json, context)
    }
  }
}
