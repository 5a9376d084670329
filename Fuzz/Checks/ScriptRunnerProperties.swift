import Strata

/// The script runner's promises, checked by running the input as SQL on an in-memory
/// database (fenced in: no attached files, bounded strings, a step budget per statement):
/// - the statements cover the script exactly once: in order, never overlapping, each the
///   script's own bytes, with only white space, comments and `;` between them (and after the
///   last one, when the script succeeds);
/// - each statement's line is the line its first byte is on;
/// - an error names the statement that failed and a line inside the script.
enum ScriptRunnerProperties {
  static let firstLine = 1

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    let script = String(decoding: input, as: UTF8.self)
    let bytes = Array(script.utf8)
    let connection: Connection
    do {
      connection = try Connection.inMemory()
    } catch {
      fatalError("cannot open an in-memory database: \(error)")
    }
    connection.restrictForUntrustedSQL(instructionBudget: 200_000)
    var started: [ScriptStatement] = []
    let outcome: Result<[ScriptStatement], ScriptError>
    do {
      outcome = .success(
        try connection.executeScript(script, firstLine: firstLine) { started.append($0) }
      )
    } catch let error as ScriptError {
      outcome = .failure(error)
    } catch {
      throw PropertyViolation("executeScript threw something other than a ScriptError: \(error)")
    }
    try checkCoverage(started, of: bytes, complete: (try? outcome.get()) != nil)
    switch outcome {
    case .success(let ran):
      try require(ran == started, "it returned \(ran) but ran \(started)")
    case .failure(let error):
      try checkError(error, started: started, of: bytes)
    }
  }

  /// The statements lie in order in `bytes`, apart, each one the bytes it claims, with only
  /// white space, comments and `;` around them; `complete` says the whole script ran.
  static func checkCoverage(
    _ statements: [ScriptStatement],
    of bytes: [UInt8],
    complete: Bool
  ) throws(PropertyViolation) {
    var end = 0
    for (index, statement) in statements.enumerated() {
      let range = statement.byteRange
      try require(
        range.lowerBound >= end && range.upperBound <= bytes.count && !range.isEmpty,
        "statement \(index + 1) at bytes \(range) overlaps the one before (ending at \(end)) or leaves the script (\(bytes.count) bytes)"
      )
      try require(
        isOnlySpaceAndComments(bytes[end..<range.lowerBound]),
        "SQL between statements \(index) and \(index + 1) was skipped: \(Array(bytes[end..<range.lowerBound]))"
      )
      try require(
        Array(statement.sql.utf8) == Array(bytes[range]),
        "statement \(index + 1) says '\(statement.sql)' but bytes \(range) differ"
      )
      let head = bytes[range.lowerBound...]
      try require(
        !isOnlySpaceAndComments(head.prefix(1)) && !head.starts(with: [0x2D, 0x2D])
          && !head.starts(with: [0x2F, 0x2A]),
        "statement \(index + 1) starts with white space, `;` or a comment: \(statement.sql.debugDescription)"
      )
      let line = firstLine + bytes[..<range.lowerBound].count { $0 == 0x0A }
      try require(
        statement.line == line,
        "statement \(index + 1) is on line \(line), not \(statement.line)"
      )
      end = range.upperBound
    }
    if complete {
      try require(
        isOnlySpaceAndComments(bytes[end...]),
        "the script succeeded but SQL after its last statement never ran: \(Array(bytes[end...]))"
      )
    }
  }

  static func checkError(
    _ error: ScriptError,
    started: [ScriptStatement],
    of bytes: [UInt8]
  ) throws(PropertyViolation) {
    let lastLine = firstLine + bytes.count { $0 == 0x0A }
    try require(
      error.line >= firstLine && error.line <= lastLine,
      "error at line \(error.line) of a script of lines \(firstLine)...\(lastLine)"
    )
    // A statement fails when it is prepared (it never started) or while it runs (it did).
    try require(
      error.statementNumber == started.count || error.statementNumber == started.count + 1,
      "error in statement \(error.statementNumber) after \(started.count) started"
    )
    // The SQL the error quotes is the failing statement, as it stands in the script: when the
    // statement started (it failed while running) exactly that statement's text.
    if let quoted = error.underlying.sql {
      if error.statementNumber == started.count, let last = started.last {
        try require(
          quoted == last.sql,
          "statement \(started.count) failed, but the error quotes \(quoted.debugDescription)"
        )
      }
      let from =
        error.statementNumber == started.count
        ? started.last?.byteRange.lowerBound ?? 0 : started.last?.byteRange.upperBound ?? 0
      let text = Array(quoted.utf8)
      try require(
        !text.isEmpty && bytes[from...].firstRange(of: text) != nil,
        "the error quotes \(quoted.debugDescription), which is not in the script after byte \(from)"
      )
    }
    if let last = started.last {
      if error.statementNumber == started.count {
        try require(
          error.line == last.line,
          "statement \(started.count) on line \(last.line) failed at line \(error.line)"
        )
      } else {
        try require(
          error.line >= last.line,
          "a statement after line \(last.line) failed at line \(error.line)"
        )
      }
    }
  }

  /// True when `bytes` holds only SQLite's white space, comments and `;`. Written apart from
  /// the runner's own scanner, so that the two check each other.
  static func isOnlySpaceAndComments(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      let next: UInt8? = index + 1 < bytes.endIndex ? bytes[index + 1] : nil
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0C, 0x0D, UInt8(ascii: ";"):
        index += 1
      case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
        index = bytes[index...].firstIndex(of: 0x0A) ?? bytes.endIndex
      case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
        var close = index + 2
        while close + 1 < bytes.endIndex,
          !(bytes[close] == UInt8(ascii: "*") && bytes[close + 1] == UInt8(ascii: "/"))
        {
          close += 1
        }
        index = close + 1 < bytes.endIndex ? close + 2 : bytes.endIndex
      default:
        return false
      }
    }
    return true
  }
}
