import Foundation
import StrataArguments

/// What a command may touch outside its arguments: the environment, the working directory and
/// the two output streams.
///
/// Everything a person reads goes through `print`, `printError` or `printText`, which write
/// file names, paths and values with their controls escaped (`escapingControls`, the rule usage
/// errors follow), so that a name cannot add a line or drive the terminal. JSON goes through
/// `printJSON`, which escapes as JSON does, and SQL through `printSQL`, exact to a file or a
/// pipe and escaped on a terminal.
struct CommandContext {
  var environment: EnvironmentVariables
  var currentDirectory: String
  let output: OutputChannel
  let errors: OutputChannel
  /// Whether standard error is a terminal (`isatty`).
  var standardErrorIsATerminal: Bool
  /// What the command did, for the message when its output cannot be written.
  let record = RunRecord()

  static func process() -> CommandContext {
    let environment = EnvironmentVariables()
    // Standard input first, so that a closed one is not refilled by the placeholder of another.
    if fcntl(0, F_GETFD) == -1, errno == EBADF { _ = open("/dev/null", O_RDONLY) }
    let output = OutputChannel.standard(1)
    let errors = OutputChannel.standard(2)
    return CommandContext(
      environment: environment,
      currentDirectory: FileManager.default.currentDirectoryPath,
      output: output,
      errors: errors,
      standardErrorIsATerminal: isatty(2) != 0
    )
  }

  /// Progress and colour only go to a terminal, and never when NO_COLOR is set. Asked only by
  /// a command that shows progress, so that no other reads the environment for it.
  var standardErrorIsTerminal: Bool {
    standardErrorIsATerminal && environment["NO_COLOR"] == nil
  }

  /// Prints a line for a person on standard output, its controls escaped.
  func print(_ line: String = "") {
    output.write(escapingControls(line, keepingTabs: true) + "\n")
  }

  /// Prints a line for a person on standard error, its controls escaped.
  func printError(_ line: String) {
    errors.write(escapingControls(line, keepingTabs: true) + "\n")
  }

  /// Prints a block of lines for a person (help, a schema): each line escaped on its own, the
  /// block's own line breaks kept.
  func printText(_ text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if text.hasSuffix("\n") { lines.removeLast() }
    output.write(lines.map { escapingControls(String($0), keepingTabs: true) + "\n" }.joined())
  }

  /// Prints a value as JSON on standard output.
  func printJSON<Value: Encodable>(_ value: Value) throws {
    printJSON(rendered: try JSONOutput.render(value))
  }

  /// Prints JSON rendered elsewhere (the library's schema), with what JSON allows raw but a
  /// terminal acts on (DEL, C1, U+2028/U+2029, bidirectional controls) escaped as `\uXXXX`.
  func printJSON(rendered json: String) {
    let safe = JSONOutput.escapingHiddenControls(json)
    output.write(safe.hasSuffix("\n") ? safe : safe + "\n")
  }

  /// Prints SQL on standard output by the one rule for a language (`SQLOutput`): exactly as
  /// given to a file or a pipe, escaped on a terminal.
  func printSQL(_ sql: String) {
    output.write(SQLOutput.rendered(sql, to: output.isTerminal ? .terminal : .fileOrPipe))
  }

  /// Writes `text` to standard output exactly as given, for text already escaped (a table).
  func standardOutput(_ text: String) {
    output.write(text)
  }

  /// Writes `text` to standard error exactly as given: the progress bar's own escape codes.
  func standardError(_ text: String) {
    errors.write(text)
  }

  /// Records what the command has done by now, in a sentence that stays true if its report is
  /// lost: "The migrations were applied: data.sqlite3 is now at version 3."
  func finished(_ outcome: String) {
    record.outcome = outcome
  }
}

/// What one run of the tool has done so far; shared by the copies of its context.
final class RunRecord {
  var outcome: String?
}
