import Strata
import StrataArguments

/// How the tool reports an error: `Error: …` and `Help: …` on standard error, and with
/// `--format json` the same as JSON on standard output, so that a program reading standard
/// output always gets JSON.
enum ErrorOutput {
  /// `{"error": {"message": …, "help": …, "exitCode": …}}`; `help` is null when there is none.
  struct JSONError: Encodable {
    struct Body: Encodable {
      let message: String
      let help: String?
      let exitCode: Int32

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message, forKey: .message)
        try container.encode(help, forKey: .help)
        try container.encode(exitCode, forKey: .exitCode)
      }

      enum CodingKeys: String, CodingKey {
        case message, help, exitCode
      }
    }

    let error: Body
  }

  /// Prints the error and returns its exit code: 64 for usage errors, 1 otherwise.
  static func report(_ error: any Error, json: Bool, _ context: CommandContext) -> Int32 {
    let (message, help, code) = describe(error)
    context.printError("Error: \(message)")
    if let help { context.printError("Help: \(help)") }
    if json {
      try? context.printJSON(JSONError(error: .init(message: message, help: help, exitCode: code)))
    }
    return code
  }

  static func describe(
    _ error: any Error,
    saying say: (Remedy) -> String = \.commandLineWords
  ) -> (message: String, help: String?, code: Int32) {
    switch error {
    case let usage as UsageError:
      (usage.message, usage.help, ExitCode.usage)
    case let failure as SQLiteError:
      // Before `StrataError`: its `message` is SQLite's words alone, its description adds
      // the statement.
      ("\(failure)", failure.commandLineHelp(saying: say), ExitCode.failure)
    case let failure as any StrataError:
      (failure.message, failure.commandLineHelp(saying: say), ExitCode.failure)
    default:
      ("\(error)", nil, ExitCode.failure)
    }
  }

  /// After the command finished: a write to standard output failed (a full disk, a closed
  /// descriptor, a reader that left while SIGPIPE is ignored). Says what the command did,
  /// which is done whatever happened to its report, and exits 1.
  static func reportOutputFailure(_ context: CommandContext, code: Int32) -> Int32 {
    guard let reason = context.output.failureReason else { return code }
    let outcome = context.record.outcome ?? "Nothing was changed."
    context.printError(
      "Error: could not write to standard output (\(reason)); only the output was lost. "
        + outcome
    )
    context.printError(
      "Help: Send standard output to a file or pipe that takes all of it (a disk with free "
        + "space, a reader that reads to the end) and run the command again, or see the "
        + "database's state with 'strata status'."
    )
    return ExitCode.failure
  }

  /// `--format json` among the raw arguments, so that even a usage error comes out as JSON.
  /// Every command's `--format` (`CommonOptions.format`, `InspectCommand.format`) is named
  /// alike and spells JSON alike.
  static func wantsJSON(_ arguments: [String]) -> Bool {
    let option = "--" + CommonOptions.format.spec.name
    let jsonName = OutputFormat.json.rawValue
    var json = false
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" { break }
      if argument == option, index + 1 < arguments.count {
        json = arguments[index + 1] == jsonName
        index += 1
      } else if argument.hasPrefix(option + "=") {
        json = argument.dropFirst(option.count + 1) == jsonName
      }
      index += 1
    }
    return json
  }
}
