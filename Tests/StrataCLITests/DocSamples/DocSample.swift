import Foundation
import Strata
import StrataTestSupport

/// One sample output of the docs and how to make it: a fixture folder, commands run there
/// first (their output is not shown; each must succeed), and the commands whose output the
/// docs show.
///
/// Everything runs in one `/bin/sh` in the fixture folder, with `HOME` set to that folder and
/// `strata` a function that runs the built binary. So every path strata prints is relative and
/// the same on every machine (the default database is `Documents/data.sqlite3`), by
/// construction. What still varies is rewritten before the comparison (`normalized`).
struct DocSample: Sendable {
  enum Style: Sendable {
    /// `$ command` then its output, for each command: a `console` fence.
    case console
    /// The outputs alone, separated by a blank line.
    case output
  }

  let name: String
  let style: Style
  let fixture: @Sendable (TemporaryDirectory) throws -> Void
  var setup: [String] = []
  let commands: [String]
  /// Shows only the first lines of a long output, then a line `…`.
  var firstLines: Int? = nil

  /// The block's text, as the docs must show it (no trailing line break).
  func produce() throws -> String {
    let dir = try TemporaryDirectory()
    try fixture(dir)
    if !setup.isEmpty {
      let prepared = try SpawnedProcess.shell(
        "strata() { \"$STRATA\" \"$@\"; }\nset -e\n" + setup.joined(separator: "\n"),
        in: dir.url
      )
      guard prepared.exitCode == 0 else {
        throw SpawnError(
          "sample \(name): setup failed (\(prepared.exitCode)): "
            + prepared.standardOutput + prepared.standardError
        )
      }
    }
    // A record separator after each command splits the outputs; `$?` stays the command's.
    let separator = "\u{1E}"
    let script =
      "strata() { \"$STRATA\" \"$@\"; }\n"
      + commands.map {
        "{ \($0)\n} 2>&1; __status=$?; printf '\(separator)'; (exit $__status)"
      }.joined(separator: "\n")
    let run = try SpawnedProcess.shell(script, in: dir.url)
    guard run.finished, run.standardError.isEmpty else {
      throw SpawnError("sample \(name): the shell failed: \(run.standardError)")
    }
    let outputs = run.standardOutput.components(separatedBy: separator).dropLast()
    guard outputs.count == commands.count else {
      throw SpawnError("sample \(name): \(outputs.count) outputs for \(commands.count) commands")
    }
    if run.standardOutput.contains(dir.url.path) {
      throw SpawnError("sample \(name): an output holds the fixture's path, which varies")
    }
    let text: String
    switch style {
    case .console:
      text = zip(commands, outputs).map { "$ \($0)\n\($1)" }.joined()
    case .output:
      text = outputs.map { $0.trimmingTrailingLineBreaks() }.joined(separator: "\n\n")
    }
    return Self.normalized(trimmed(text.trimmingTrailingLineBreaks()))
  }

  private func trimmed(_ text: String) -> String {
    guard let firstLines else { return text }
    let lines = text.components(separatedBy: "\n")
    guard lines.count > firstLines else { return text }
    return (lines.prefix(firstLines) + ["…"]).joined(separator: "\n")
  }

  /// The SQLite version the docs were written with; the linked one is shown as this.
  static let documentedSQLiteVersion = "3.40.1"

  /// What varies from run to run or machine to machine, written as the docs show it:
  /// - a time in milliseconds at the end of a line (the seed report's TIME column, a
  ///   migration's duration) is `0 ms`;
  /// - a backup's time in its name, a time to the second (`restore --list`) and one to the
  ///   millisecond (`status`'s APPLIED AT) are fixed ones;
  /// - the linked SQLite's version is `documentedSQLiteVersion`.
  static func normalized(_ text: String) -> String {
    var text = text.components(separatedBy: "\n")
      .map {
        $0.replacingOccurrences(
          of: #"\b[0-9]+ ms(\)?)$"#,
          with: "0 ms$1",
          options: .regularExpression
        )
      }
      .joined(separator: "\n")
      .replacingOccurrences(
        of: #"\.backup-[0-9]{8}T[0-9]{6}\.[0-9]{3}Z-"#,
        with: ".backup-20261201T053012.345Z-",
        options: .regularExpression
      )
      .replacingOccurrences(
        of: #"\b[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\b"#,
        with: "2026-12-01T05:30:12Z",
        options: .regularExpression
      )
      .replacingOccurrences(
        of: #"\b[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z\b"#,
        with: "2026-12-01T05:30:12.345Z",
        options: .regularExpression
      )
    if let version = linkedSQLiteVersion, version != documentedSQLiteVersion {
      text = text.replacingOccurrences(of: version, with: documentedSQLiteVersion)
    }
    return text
  }

  static let linkedSQLiteVersion: String? = {
    try? Connection(path: ":memory:").scalar("SELECT sqlite_version()")?.textValue
  }()
}

extension String {
  func trimmingTrailingLineBreaks() -> String {
    var text = self
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
