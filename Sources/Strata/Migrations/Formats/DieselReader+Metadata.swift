import Foundation

/// diesel's `metadata.toml`: read by the settings' TOML reader, refused in the words strata
/// has always used for the line at fault, so a message a user or script knows stays the same.
extension DieselReader {
  /// Whether `metadata.toml` (its bytes) lets the migration run in a transaction: true unless
  /// it says `run_in_transaction = false`. Read by the settings' TOML reader (`TOMLParser`).
  ///
  /// - Throws: `MigrationError.formatProblem` at the line of anything else: another key (strata
  ///   would not do what it asks), a table, a value not `true` or `false`, a key set twice, or
  ///   what is not TOML (or not the subset strata reads).
  static func runsInTransaction(metadata bytes: [UInt8], file: String) throws -> Bool {
    let lines = MetadataLines(bytes)
    func problem(_ line: Int, otherwise reason: String) -> MigrationError {
      .formatProblem(
        file: file,
        line: line,
        format: .diesel,
        reason: lines.refusal(ofLine: line) ?? reason
      )
    }
    let document: TOMLDocument
    do {
      document = try TOMLParser.parse(String(decoding: bytes, as: UTF8.self))
    } catch let error as TOMLSyntaxError {
      throw problem(
        error.position.line,
        otherwise: "column \(error.position.column): \(error.reason) (strata reads only "
          + "run_in_transaction from diesel's metadata.toml, and it takes true or false)"
      )
    }
    var runsInTransaction = true
    // The top table's keys come before the first [header], so the first problem in line order
    // is the first of its keys, else the first header.
    for entry in document.tables[0].entries {
      guard entry.key == "run_in_transaction" else {
        throw problem(
          entry.position.line,
          otherwise: "strata reads only run_in_transaction from diesel's metadata.toml; "
            + "'\(entry.key)' is refused rather than ignored, since strata would not do what "
            + "it asks"
        )
      }
      guard case .boolean(let flag) = entry.value else {
        throw problem(
          entry.position.line,
          otherwise: "run_in_transaction takes true or false, not \(Self.shown(entry.value))"
        )
      }
      runsInTransaction = flag
    }
    if let table = document.tables.dropFirst().first {
      throw problem(
        table.position.line,
        otherwise: "strata reads only 'run_in_transaction = true|false' from diesel's "
          + "metadata.toml, and this line is not a key and a value but the table [\(table.header)]"
      )
    }
    return runsInTransaction
  }

  /// A value as a message shows it: as written for a string or number, else what it is.
  private static func shown(_ value: TOMLValue) -> String {
    switch value {
    case .string(let text): "'\(tomlQuoted(text))'"
    case .integer(let number): "'\(number)'"
    case .boolean, .strings, .table: value.kind
    }
  }
}

/// `metadata.toml`'s lines as strata has always judged them, one line at a time: what is
/// before a `#`, split at the first `=` into a key (its double quotes dropped) and a value as
/// written. The TOML reader finds the line at fault; this says why in the same words as ever.
private struct MetadataLines {
  let lines: [Substring]

  init(_ bytes: [UInt8]) {
    let text = String(decoding: MigrationParser.normalize(bytes), as: UTF8.self)
    lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// A line as strata has always split it.
  private enum Line {
    /// Blank, a comment, or beyond the file.
    case blank
    /// No `=` before a `#`.
    case notKeyAndValue
    case pair(key: String, value: String)
  }

  /// What is wrong with line `number` (1-based), or nil when it is a blank line, a comment,
  /// or the first `run_in_transaction = true|false`.
  func refusal(ofLine number: Int) -> String? {
    let key: String
    let value: String
    switch line(number) {
    case .blank: return nil
    case .notKeyAndValue:
      return "strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, "
        + "and this line is not a key and a value"
    case .pair(let written, let text): (key, value) = (written, text)
    }
    guard key == "run_in_transaction" else {
      return "strata reads only run_in_transaction from diesel's metadata.toml; '\(key)' is "
        + "refused rather than ignored, since strata would not do what it asks"
    }
    if let first = (1..<number).first(where: { isSetting(line($0)) }) {
      return "run_in_transaction is set again here (first on line \(first)); TOML refuses a "
        + "key set twice, and so does diesel"
    }
    guard value == "true" || value == "false" else {
      return "run_in_transaction takes true or false, not '\(value)'"
    }
    return nil
  }

  private func isSetting(_ line: Line) -> Bool {
    guard case .pair(let key, _) = line else { return false }
    return key == "run_in_transaction"
  }

  /// Line `number`: what is before a `#`, trimmed, split at its first `=`.
  private func line(_ number: Int) -> Line {
    guard lines.indices.contains(number - 1) else { return .blank }
    let line = lines[number - 1].prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
    guard !line.isEmpty else { return .blank }
    guard let equals = line.firstIndex(of: "=") else { return .notKeyAndValue }
    var key = line[..<equals].trimmingCharacters(in: .whitespaces)
    if key.count >= 2, key.first == "\"", key.last == "\"" {
      key = String(key.dropFirst().dropLast())
    }
    return .pair(
      key: key,
      value: line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    )
  }
}
