import Foundation

/// A `-- strata:allow RULE[, RULE…]` line: it disables the named rules of `MigrationLinter` for
/// the statement that follows it. Only a line that holds the comment alone (white space around
/// it allowed) is a directive, and such lines do not count toward a migration's checksum
/// (`MigrationSet.checksum(ofUp:)`), so adding one never makes an applied migration "changed".
struct LintDirective {
  /// The directive's line in its file.
  let line: Int
  /// The rules it names, as written.
  let names: [String]

  /// The word after `--` that makes a comment line a directive.
  static let keyword = "strata:allow"
  /// ``keyword``'s UTF-8 bytes, for the checks every checksum makes.
  static let keywordBytes = Array(keyword.utf8)

  /// The directives of a part whose `sql` starts on line `firstLine` of its file.
  static func all(in sql: String, firstLine: Int) -> [LintDirective] {
    guard containsBytes(sql.utf8, keywordBytes) else { return [] }
    var found: [LintDirective] = []
    for (index, line) in sql.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard let list = ruleList(line) else { continue }
      let names = list.split(separator: ",").map {
        String($0.trimmingCharacters(in: [" ", "\t"]))
      }
      found.append(LintDirective(line: firstLine + index, names: names.filter { !$0.isEmpty }))
    }
    return found
  }

  /// The text after `strata:allow` when `line` is a directive; nil otherwise.
  static func ruleList(_ line: Substring) -> Substring? {
    let trimmed = line.trimmingCharacters(in: [" ", "\t", "\r"])
    guard trimmed.hasPrefix("--") else { return nil }
    let comment = trimmed.dropFirst(2).drop { $0 == " " || $0 == "\t" }
    guard comment.hasPrefix(keyword) else { return nil }
    let rest = comment.dropFirst(keyword.count)
    guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
    return Substring(rest)
  }

  /// `sql` without its directive lines (each with its line break), for the checksum; `sql`
  /// itself, byte for byte, when it has none.
  static func removingDirectives(_ sql: String) -> String {
    guard containsBytes(sql.utf8, keywordBytes) else { return sql }
    let lines = sql.split(separator: "\n", omittingEmptySubsequences: false)
    let kept = lines.filter { ruleList($0) == nil }
    if kept.count == lines.count { return sql }
    return kept.joined(separator: "\n")
  }
}
