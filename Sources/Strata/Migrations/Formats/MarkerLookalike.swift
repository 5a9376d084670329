import Foundation

/// Comment lines that look like a marker: a near miss of strata's (dbmate's) own, or another
/// migration tool's. strata reads only `-- migrate:up` and `-- migrate:down`; anything else
/// that reads as a marker is refused, because taking it as a comment would run a down part, or
/// a whole other tool's file, as the up part (issue 10, item 2: never guess).
///
/// A comment line is one whose first non-blank characters are `--`, or `/*` (a block comment
/// on its own line). Its text is normalised first: Unicode compatibility folding (a full-width
/// colon becomes `:`, a no-break space a space), invisible format characters dropped, any
/// case, and the decoration around it (dashes, `#`, `+`, `!`, `=`, `/`, `@`, `*`, `[`, …)
/// removed. The line is refused when
/// - it starts with a tool's prefix: `+goose`, `+migrate`, `+micrate`, `//@` (MyBatis),
///   `changeset` (Liquibase, bare or with `author:id`), `rollback` followed by an SQL command word,
///   `not required` or `empty` (Liquibase's `--rollback DROP TABLE …`), `liquibase formatted`, `atlas:`,
///   `create above … drop below` (tern), `no-transaction` (sqlx), `=… up`/`=… down` (shmig);
///   or `migrate` followed by `:` or `.` (so `-- migrate: the users table` must be reworded);
/// - or every word in it is a marker word, and one of them names a direction: directions are
///   `up`, `ups`, `down`, `downs`, `rollback`, `undo`, `do`, `redo`, `revert`, `reverse`,
///   `forward`, `backward(s)`, `statementbegin`, `statementend`, `notransaction` (`no
///   transaction`); the other marker words are `migrate`, `migration(s)`, tool names (`strata`,
///   `dbmate`, `goose`, `micrate`, `sqlx`), `part`, `section`, `script`, `sql`, `statement`,
///   `transaction`, `no`, `begin`, `end`, `start(s)`, `here`, `below`, `above`, `the`,
///   `this`, `of`. A word may be `migrate`/`migration` run together with them (`migratedown`).
///
/// So `-- migrate :down`, `-- Migrate.Down`, `-- # migrate:down`, `/* migrate:down */`,
/// `-- Down`, `-- rollback`, `-- down migration`, `-- ==== UP ====`, `-- +micrate Down`,
/// `-- //@UNDO`, `--rollback DROP TABLE t;` are refused, while `-- migrate the users table`,
/// `-- up to now we stored …`, `-- rollback is impossible here because …`, `-- goose is a
/// bird`, `-- down with nulls` stay comments: a word that is not a marker word makes a
/// sentence.
enum MarkerLookalike {
  /// The tool whose marker `line` looks like (nil for a near miss of strata's own), and the
  /// line as written; nil for a comment.
  static func match(_ line: ArraySlice<UInt8>) -> (tool: String?, marker: String)? {
    let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
    guard trimmed.starts(with: [0x2D, 0x2D]) || trimmed.starts(with: [0x2F, 0x2A]) else {
      return nil
    }
    let text = String(decoding: trimmed, as: UTF8.self)
      .trimmingTrailing { $0 == " " || $0 == "\t" || $0 == "\r" }
    let comment = normalized(text)
    guard let verdict = verdict(comment) else { return nil }
    return (verdict.tool, shown(text))
  }

  /// Compatibility-folded, lowercased, without format characters and without the comment's
  /// own delimiters; every kind of blank is one space.
  static func normalized(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
      if scalar.properties.generalCategory == .format { continue }
      scalars.append(scalar.properties.isWhitespace ? " " : scalar)
    }
    var comment = Substring(String(scalars))
    if comment.hasPrefix("/*") {
      comment = comment.dropFirst(2)
      if let end = comment.range(of: "*/") { comment = comment[..<end.lowerBound] }
    } else {
      comment = comment.drop { $0 == "-" }
    }
    return String(comment.drop { $0 == " " }).trimmingTrailing { $0 == " " }
  }

  private struct Verdict { let tool: String? }

  private static let sqlWords: Set<Substring> = [
    "drop", "delete", "alter", "create", "insert", "update", "replace", "truncate", "pragma",
  ]

  private static func verdict(_ comment: String) -> Verdict? {
    if comment.hasPrefix("//@") { return Verdict(tool: "MyBatis") }
    let undecorated = Substring(comment).drop { !$0.isLetter && !$0.isNumber }
    let firstWord = undecorated.prefix { $0.isLetter }
    let afterFirst = undecorated.dropFirst(firstWord.count)
    if comment.hasPrefix("+") {
      switch firstWord {
      case "goose": return Verdict(tool: "goose")
      case "migrate": return Verdict(tool: "sql-migrate")
      case "micrate": return Verdict(tool: "micrate")
      default: break
      }
    }
    switch firstWord {
    case "migrate":
      let next = afterFirst.drop { $0 == " " }.first
      if next == ":" || next == "." { return Verdict(tool: nil) }
    case "rollback":
      let rest = afterFirst.drop { $0 == " " || $0 == ":" }
      let second = rest.prefix { $0.isLetter }
      if afterFirst.first == " " || afterFirst.first == ":",
        sqlWords.contains(second) || rest == "not required" || rest == "empty"
      {
        return Verdict(tool: "Liquibase")
      }
    case "no":
      if comment == "no-transaction" || comment == "no_transaction" {
        return Verdict(tool: "sqlx")
      }
    case "changeset":
      if afterFirst.isEmpty || afterFirst.first == " " { return Verdict(tool: "Liquibase") }
    case "liquibase":
      if afterFirst.hasPrefix(" formatted") { return Verdict(tool: "Liquibase") }
    case "atlas":
      if afterFirst.hasPrefix(":") { return Verdict(tool: "Atlas") }
    case "create":
      if afterFirst.hasPrefix(" above"), afterFirst.contains("drop below") {
        return Verdict(tool: "tern")
      }
    default: break
    }
    if comment.hasPrefix("="), firstWord == "up" || firstWord == "down" {
      return Verdict(tool: "shmig")
    }
    return allMarkerWords(comment) ? Verdict(tool: nil) : nil
  }

  private static let directions: Set<Substring> = [
    "up", "ups", "down", "downs", "rollback", "undo", "do", "redo", "revert", "reverse",
    "forward", "backward", "backwards", "statementbegin", "statementend", "notransaction",
  ]

  private static let otherMarkerWords: Set<Substring> = [
    "migrate", "migration", "migrations", "strata", "dbmate", "goose", "micrate", "sqlx",
    "part", "section", "script", "sql", "statement", "transaction", "no", "begin", "end",
    "start", "starts", "here", "below", "above", "the", "this", "of",
  ]

  /// True when every word is a marker word (or `migrate`/`migration` run together with
  /// marker words), and one names a direction.
  private static func allMarkerWords(_ comment: String) -> Bool {
    let words = comment.split { !$0.isLetter && !$0.isNumber }
    guard !words.isEmpty else { return false }
    var direction = false
    for word in words {
      guard let parts = segments(word) else { return false }
      if parts.contains(where: directions.contains) { direction = true }
    }
    let joined = words.joined()
    return direction || joined.contains("notransaction") || joined.contains("statementbegin")
      || joined.contains("statementend")
  }

  /// `word` as marker words: itself, or `migrate`/`migration(s)` followed by marker words.
  private static func segments(_ word: Substring) -> [Substring]? {
    if directions.contains(word) || otherMarkerWords.contains(word) { return [word] }
    for prefix in ["migrations", "migration", "migrate"] where word.hasPrefix(prefix) {
      let rest = word.dropFirst(prefix.count)
      if let tail = run(rest) { return [word.prefix(prefix.count)] + tail }
    }
    return nil
  }

  /// `text` split into marker words, or nil when it cannot be.
  private static func run(_ text: Substring) -> [Substring]? {
    if text.isEmpty { return [] }
    for length in stride(from: text.count, through: 1, by: -1) {
      let head = text.prefix(length)
      guard directions.contains(head) || otherMarkerWords.contains(head) else { continue }
      if let tail = run(text.dropFirst(length)) { return [head] + tail }
    }
    return nil
  }

  /// Which part a near-miss comment names: `.up` for `-- Up migration`, `.down` for
  /// `--- Down migration` or `-- rollback`; nil when it names both or neither.
  static func direction(_ line: ArraySlice<UInt8>) -> MigrationParser.FileName.Part? {
    let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
    let words = normalized(String(decoding: trimmed, as: UTF8.self))
      .split { !$0.isLetter && !$0.isNumber }
    let up = words.contains { upWords.contains($0) }
    let down = words.contains { downWords.contains($0) }
    return up == down ? nil : (up ? .up : .down)
  }

  private static let upWords: Set<Substring> = ["up", "ups", "forward", "do"]
  private static let downWords: Set<Substring> = [
    "down", "downs", "rollback", "undo", "revert", "reverse", "backward", "backwards",
  ]

  /// The line as written, at most 80 characters, with an invisible or look-alike character
  /// (a no-break space, a full-width colon) spelled as its code point so the user sees it.
  private static func shown(_ text: String) -> String {
    var out = ""
    for character in text.prefix(80) {
      let scalars = character.unicodeScalars
      let plain =
        character.isASCII
        || (String(character).precomposedStringWithCompatibilityMapping == String(character)
          && !scalars.contains {
            $0.properties.isWhitespace || $0.properties.generalCategory == .format
          })
      out += plain ? String(character) : scalars.map { "<U+\(hex($0.value))>" }.joined()
    }
    return out
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

extension String {
  fileprivate func trimmingTrailing(while predicate: (Character) -> Bool) -> String {
    var end = endIndex
    while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
    return String(self[..<end])
  }
}
