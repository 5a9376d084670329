/// Comment lines that look like another migration tool's markers, or like a near miss of
/// strata's (dbmate's) own. strata reads only `-- migrate:up` and `-- migrate:down`; anything
/// else that looks like a marker is refused, because taking it as a comment would run a down
/// part, or a whole other tool's file, as the up part (issue 10, item 2: never guess).
///
/// The rule, applied to a line whose first non-blank characters are `--` (the text after the
/// dashes, blanks and further dashes is the comment; case never matters):
/// - `+goose …` or `+migrate …` (goose, sql-migrate), whatever follows;
/// - `migrate` or `goose`, then `:` (always), or blanks/`_`/`-` and a direction word
///   (`up`, `down`, `statementbegin`, `statementend`) that ends the line or a word;
/// - `no-transaction` (sqlx), `atlas:…` (Atlas directives), `liquibase formatted …` and
///   `changeset …:…` (Liquibase), `create above / drop below` (tern), `=== up ===`/`=== down`
///   (shmig).
/// So `-- migrate the users table` and `-- up to now` stay comments; `-- migrate up` does not.
enum MarkerLookalike {
  /// The tool whose marker `line` looks like, and the marker as written; nil for a comment.
  static func match(_ line: ArraySlice<UInt8>) -> (tool: String, marker: String)? {
    let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }
    guard trimmed.starts(with: [0x2D, 0x2D]) else { return nil }
    let text = String(decoding: trimmed, as: UTF8.self)
      .trimmingTrailing { $0 == " " || $0 == "\t" || $0 == "\r" }
    let comment = Substring(text).drop { $0 == "-" || $0 == " " || $0 == "\t" }.lowercased()
    guard let tool = tool(of: Substring(comment)) else { return nil }
    return (tool, String(text.prefix(80)))
  }

  private static func tool(of comment: Substring) -> String? {
    if comment.hasPrefix("+") {
      let word = comment.dropFirst().prefix { $0.isLetter }
      if word == "goose" { return "goose" }
      if word == "migrate" { return "sql-migrate" }
      return nil
    }
    let word = comment.prefix { $0.isLetter }
    let rest = comment.dropFirst(word.count)
    if word == "migrate" || word == "goose" {
      let tool = word == "goose" ? "goose" : "dbmate (strata's own format)"
      if rest.hasPrefix(":") { return tool }
      let afterSeparator = rest.drop { $0 == " " || $0 == "\t" || $0 == "_" || $0 == "-" }
      guard afterSeparator.count < rest.count else { return nil }
      let direction = afterSeparator.prefix { $0.isLetter }
      let directions: Set<Substring> = ["up", "down", "statementbegin", "statementend"]
      return directions.contains(direction) ? tool : nil
    }
    if comment == "no-transaction" || comment == "no_transaction" { return "sqlx" }
    if comment.hasPrefix("atlas:") { return "Atlas" }
    if comment.hasPrefix("liquibase formatted") { return "Liquibase" }
    if comment.hasPrefix("changeset "), comment.contains(":") { return "Liquibase" }
    if comment.hasPrefix("create above"), comment.contains("drop below") { return "tern" }
    if comment.hasPrefix("=") {
      let direction = comment.drop { $0 == "=" || $0 == " " }.prefix { $0.isLetter }
      if direction == "up" || direction == "down" { return "shmig" }
    }
    return nil
  }
}

extension String {
  fileprivate func trimmingTrailing(while predicate: (Character) -> Bool) -> String {
    var end = endIndex
    while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
    return String(self[..<end])
  }
}
