/// One statement of a script as `SQLStatementScanner` finds it: where it starts and its first
/// bare words, uppercased.
package struct ScannedStatement: Equatable {
  /// The UTF-8 offset of its first byte, as `ScriptStatement.byteRange` starts.
  package let start: Int
  /// The UTF-8 offset just past its `;` (or the script's end), as `ScriptStatement.byteRange`
  /// ends: what a remote engine sends as the statement.
  package let end: Int
  /// The 1-based line it starts on, counted from the script's first line.
  package let line: Int
  /// Its first three tokens, uppercased when they are bare words ("" for any other token):
  /// enough to tell `BEGIN`, `COMMIT`, `END`, `ROLLBACK` and `ROLLBACK TRANSACTION TO`. Only
  /// the first word for a statement that starts with any other (no allocation per statement in
  /// a file of a million `INSERT`s).
  package let words: [String]
}

/// Splits a script into statements without compiling them, where `sqlite3_complete` would end
/// each one (the state machine of SQLite's complete.c): a `;` inside a string, a quoted name,
/// a comment or a trigger's body (`CREATE TRIGGER … BEGIN …; END;`) does not end a statement.
/// The statements start where `Connection.executeScript` starts them, so a statement found here
/// is the one `executeScript` runs at the same offset. Byte-level, for files of any size.
package enum SQLStatementScanner {
  /// The first words after which the scanner keeps the next two.
  static let wordsFollowed: Set<String> = ["BEGIN", "COMMIT", "END", "ROLLBACK", "PRAGMA"]

  private enum Token { case semicolon, space, other, explain, create, temp, trigger, end }

  /// complete.c's transitions: `transitions[state][token]`; state 1 is the start of a
  /// statement, and a `;` that leads back to it ends the statement.
  private static let transitions: [[Int]] = [
    [1, 0, 2, 3, 4, 2, 2, 2],
    [1, 1, 2, 3, 4, 2, 2, 2],
    [1, 2, 2, 2, 2, 2, 2, 2],
    [1, 3, 3, 2, 4, 2, 2, 2],
    [1, 4, 2, 2, 2, 4, 5, 2],
    [6, 5, 5, 5, 5, 5, 5, 5],
    [6, 6, 5, 5, 5, 5, 5, 7],
    [1, 7, 5, 5, 5, 5, 5, 5],
  ]

  /// Every statement of `sql`, in order; lines count from `firstLine`.
  package static func statements(_ sql: String, firstLine: Int = 1) -> [ScannedStatement] {
    var bytes = Array(sql.utf8)
    let count = bytes.count
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { buffer in
      var lines = LineCounter(firstLine: firstLine)
      var found: [ScannedStatement] = []
      var state = 1
      var current: (start: Int, words: [String])?
      var i = 0
      while i < count {
        let (token, next) = token(buffer, at: i, end: count)
        if current == nil, token != .space, token != .semicolon {
          current = (i, [])
        }
        if var statement = current, token != .space, token != .semicolon,
          statement.words.isEmpty
            || (statement.words.count < 3 && wordsFollowed.contains(statement.words[0]))
        {
          let isWord = SQLScanner.isWordStart(buffer[i])
          statement.words.append(
            isWord ? String(decoding: buffer[i..<next], as: UTF8.self).uppercased() : ""
          )
          current = statement
        }
        state = transitions[state][tokenIndex(token)]
        if token == .semicolon, state == 1, let statement = current {
          found.append(
            ScannedStatement(
              start: statement.start,
              end: next,
              line: lines.line(at: statement.start, in: buffer),
              words: statement.words
            )
          )
          current = nil
        }
        i = next
      }
      if let statement = current {
        found.append(
          ScannedStatement(
            start: statement.start,
            end: count,
            line: lines.line(at: statement.start, in: buffer),
            words: statement.words
          )
        )
      }
      return found
    }
  }

  private static func tokenIndex(_ token: Token) -> Int {
    switch token {
    case .semicolon: 0
    case .space: 1
    case .other: 2
    case .explain: 3
    case .create: 4
    case .temp: 5
    case .trigger: 6
    case .end: 7
    }
  }

  /// The token at `i` and the offset just past it, as complete.c reads tokens.
  private static func token(
    _ bytes: UnsafeBufferPointer<UInt8>,
    at i: Int,
    end: Int
  ) -> (Token, Int) {
    let byte = bytes[i]
    if byte == UInt8(ascii: ";") { return (.semicolon, i + 1) }
    if SQLScanner.isSpace(byte) { return (.space, i + 1) }
    if let next = SQLScanner.commentEnd(bytes, at: i, end: end) { return (.space, next) }
    switch byte {
    case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
      return (
        .other, SQLScanner.quotedEnd(bytes, quote: byte, doubled: true, from: i + 1, end: end)
      )
    case UInt8(ascii: "["):
      let close = UInt8(ascii: "]")
      return (
        .other, SQLScanner.quotedEnd(bytes, quote: close, doubled: false, from: i + 1, end: end)
      )
    default:
      break
    }
    guard SQLScanner.isWordByte(byte) else { return (.other, i + 1) }
    var j = i + 1
    while j < end, SQLScanner.isWordByte(bytes[j]) { j += 1 }
    // Compared byte by byte: no string for each of a file's words.
    let word = UnsafeBufferPointer(rebasing: bytes[i..<j])
    if matches(word, "EXPLAIN") { return (.explain, j) }
    if matches(word, "CREATE") { return (.create, j) }
    if matches(word, "TEMP") || matches(word, "TEMPORARY") { return (.temp, j) }
    if matches(word, "TRIGGER") { return (.trigger, j) }
    if matches(word, "END") { return (.end, j) }
    return (.other, j)
  }

  /// Whether `word` is `keyword` (uppercase ASCII), ignoring ASCII case.
  @inline(__always)
  private static func matches(_ word: UnsafeBufferPointer<UInt8>, _ keyword: StaticString) -> Bool {
    guard word.count == keyword.utf8CodeUnitCount else { return false }
    let letters = keyword.utf8Start
    for index in 0..<word.count where word[index] & 0xDF != letters[index] {
      return false
    }
    return true
  }
}
