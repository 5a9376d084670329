import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// One statement of a script, with where it starts.
package struct ScriptStatement: Hashable, Sendable {
  /// The statement's text, without the comments and blank lines before it.
  package let sql: String
  /// The 1-based line on which the statement starts, counted from the script's `firstLine`.
  package let line: Int
  /// Where `sql` sits in the script's UTF-8 bytes: the statements of a script never overlap,
  /// and only white space, comments and empty statements (`;`) lie between them.
  package let byteRange: Range<Int>

  package init(sql: String, line: Int, byteRange: Range<Int>) {
    self.sql = sql
    self.line = line
    self.byteRange = byteRange
  }
}

/// A statement of a script failed; `line` locates it in its file.
package struct ScriptError: Error, Hashable, Sendable {
  /// The 1-based line on which the failing statement starts.
  package let line: Int
  /// The 1-based position of the statement in the script.
  package let statementNumber: Int
  /// SQLite's error.
  package let underlying: SQLiteError

  package init(line: Int, statementNumber: Int, underlying: SQLiteError) {
    self.line = line
    self.statementNumber = statementNumber
    self.underlying = underlying
  }
}

extension Connection {
  /// Runs every statement of `script` in order, walking `sqlite3_prepare_v2`'s tail so that
  /// each statement's line is known (a `;` inside a trigger body or a string never splits).
  ///
  /// - Parameters:
  ///   - script: the SQL text, one statement or many.
  ///   - firstLine: the line of the file on which `script` starts.
  ///   - willRun: called before each statement runs; it may throw to stop the script.
  /// - Returns: the statements that ran.
  /// - Throws: `ScriptError` naming the statement and line that failed, or the error `willRun`
  ///   threw.
  @discardableResult
  package func executeScript(
    _ script: String,
    firstLine: Int = 1,
    willRun: ((ScriptStatement) throws -> Void)? = nil
  ) throws -> [ScriptStatement] {
    var bytes = Array(script.utf8)
    var lineCounter = LineCounter(firstLine: firstLine)
    // SQLite stops reading at a NUL byte, so what follows one would run as if it were a new
    // script; SQL text never holds one, so refuse the script before anything runs.
    if let nul = bytes.firstIndex(of: 0) {
      let line = bytes.withUnsafeBufferPointer { lineCounter.line(at: nul, in: $0) }
      throw ScriptError(
        line: line,
        statementNumber: 1,
        underlying: SQLiteError(
          extendedCode: SQLITE_ERROR,
          message: "the SQL holds a NUL byte (0x00) on line \(line); SQL text never does, "
            + "so the file is binary or damaged, and none of it was run"
        )
      )
    }
    bytes.append(0)
    var ran: [ScriptStatement] = []
    try bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let total = buffer.count - 1
      var offset = 0
      while offset < total {
        // SQLite skips white space, comments and empty statements too, so a statement's line is
        // its first word's.
        let start = SQLScanner.skipTrivia(buffer, from: offset, end: total, semicolons: true)
        if start >= total { break }
        let line = lineCounter.line(at: start, in: buffer)
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        clearFenceAudit()
        // -1: read to the NUL appended above. A positive length without the NUL makes SQLite
        // copy the whole rest of the script for every statement (quadratic in the file's size),
        // and `Int32(total - start)` would trap on a script over 2 GiB.
        let rc = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
          sqlite3_prepare_v2(handle, chars + start, -1, &statement, &tail)
        }
        let end =
          tail.map { pointer in
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
              chars.distance(to: pointer)
            }
          } ?? total
        let range = start..<max(start, min(end, total))
        let text = String(decoding: buffer[range], as: UTF8.self)
        guard rc == SQLITE_OK else {
          // The tail stops where parsing failed, or after the `;`: show the statement to its `;`.
          var stop = min(max(end, start), total)
          if stop > start, buffer[stop - 1] == UInt8(ascii: ";") {
            stop -= 1
          } else {
            while stop < total, buffer[stop] != UInt8(ascii: ";") { stop += 1 }
          }
          let failed = String(decoding: buffer[start..<min(stop + 1, total)], as: UTF8.self)
          throw ScriptError(
            line: line,
            statementNumber: ran.count + 1,
            underlying: error(sql: failed)
          )
        }
        offset = max(end, start + 1)
        guard let statement else { continue }
        defer { sqlite3_finalize(statement) }
        let current = ScriptStatement(sql: text, line: line, byteRange: range)
        try willRun?(current)
        let audit = try beginFenceAudit()
        var stepCode = sqlite3_step(statement)
        while stepCode == SQLITE_ROW { stepCode = sqlite3_step(statement) }
        if let audit {
          if stepCode != SQLITE_DONE {
            let failure = error(sql: text)
            abandonFenceAudit()
            throw ScriptError(line: line, statementNumber: ran.count + 1, underlying: failure)
          }
          if let refusal = try finishFenceAudit(audit) {
            throw ScriptError(
              line: line,
              statementNumber: ran.count + 1,
              underlying: SQLiteError(extendedCode: SQLITE_AUTH, message: refusal, sql: text)
            )
          }
        }
        guard stepCode == SQLITE_DONE else {
          throw ScriptError(
            line: line,
            statementNumber: ran.count + 1,
            underlying: error(sql: text)
          )
        }
        ran.append(current)
      }
    }
    return ran
  }
}

/// True when `sql` holds anything besides white space, comments and empty statements.
package func containsSQL(_ sql: String) -> Bool {
  var text = sql
  return text.withUTF8 { containsSQL($0) }
}

/// True when the UTF-8 bytes hold anything besides white space, comments and empty statements.
package func containsSQL<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
  // Read where the bytes are when they are contiguous (the scanner never reads past `end`).
  let inPlace = bytes.withContiguousStorageIfAvailable {
    SQLScanner.skipTrivia($0, from: 0, end: $0.count, semicolons: true) < $0.count
  }
  if let inPlace { return inPlace }
  var copy = Array(bytes)
  let count = copy.count
  copy.append(0)
  return copy.withUnsafeBufferPointer {
    SQLScanner.skipTrivia($0, from: 0, end: count, semicolons: true) < count
  }
}

/// The errors of the lower-level public APIs (`Connection.executeScript`, `CSVReader`'s
/// `CSVError`, and `SQLiteError`) are `StrataError`s too, so an app always has a message and a
/// help to show.
extension ScriptError: StrataError {
  /// The statement's number, its line, and SQLite's error.
  public var message: String {
    "statement \(statementNumber) of the script (line \(line)) failed: \(underlying)"
  }

  /// Fix the statement; the ones before it have run unless a transaction rolled them back.
  public var help: String {
    "Fix the statement on line \(line). The statements before it have run, unless the script "
      + "ran inside a transaction that was rolled back."
  }
}
