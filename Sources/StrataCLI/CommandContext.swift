import Foundation

/// What a command may touch outside its arguments: the environment, the working directory and
/// the two output streams.
struct CommandContext {
  var environment: [String: String]
  var currentDirectory: String
  var standardOutput: (String) -> Void
  var standardError: (String) -> Void
  /// Progress and colour only go to a terminal, and never when NO_COLOR is set.
  var standardErrorIsTerminal: Bool

  static func process() -> CommandContext {
    let environment = ProcessInfo.processInfo.environment
    return CommandContext(
      environment: environment,
      currentDirectory: FileManager.default.currentDirectoryPath,
      standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
      standardError: { FileHandle.standardError.write(Data($0.utf8)) },
      standardErrorIsTerminal: isatty(2) != 0 && environment["NO_COLOR"] == nil
    )
  }

  /// Prints a line on standard output.
  func print(_ line: String = "") {
    standardOutput(line + "\n")
  }

  /// Prints a line on standard error.
  func printError(_ line: String) {
    standardError(line + "\n")
  }
}
