/// Line endings in SQL text, which are layout between tokens and part of the value inside a
/// quoted name or a string literal.
///
/// Between tokens and in comments a CR LF is the same statement as an LF (a checkout that
/// turned LF into CRLF changes nothing), so strata writes and reads it as LF there. Inside
/// `'…'`, `"…"`, `` `…` `` and `[…]` it is two characters of a name or a value: a file strata
/// writes keeps them, and a desired schema strata reads means them.
enum QuotedLineEndings {
  /// `sql` with each CR LF outside its quoted names and string literals written as LF; those
  /// inside stay exactly as they are.
  static func layoutAsLF(_ sql: String) -> String {
    guard sql.utf8.contains(0x0D) else { return sql }
    let bytes = Array(sql.utf8)
    let quoted = quotedRanges(sql)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var next = 0
    var index = 0
    while index < bytes.count {
      while next < quoted.count, quoted[next].upperBound <= index { next += 1 }
      let inside = next < quoted.count && quoted[next].contains(index)
      if !inside, bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
        index += 1
        continue
      }
      out.append(bytes[index])
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `sql` as its writer meant it: a text whose every line break outside quotes is CR LF was
  /// written (or checked out: git's autocrlf) with CR LF line endings, which then turned the
  /// line breaks inside its strings into CR LF too, so there they read as LF as well; in any
  /// other text only the layout's CR LF reads as LF (`layoutAsLF`).
  static func asMeant(_ sql: String) -> String {
    guard sql.utf8.contains(0x0D) else { return sql }
    let bytes = Array(sql.utf8)
    let quoted = quotedRanges(sql)
    var next = 0
    var lineBreaks = 0
    for index in bytes.indices where bytes[index] == 0x0A {
      while next < quoted.count, quoted[next].upperBound <= index { next += 1 }
      if next < quoted.count, quoted[next].contains(index) { continue }
      guard index > 0, bytes[index - 1] == 0x0D else { return layoutAsLF(sql) }
      lineBreaks += 1
    }
    return lineBreaks > 0 ? sql.replacingOccurrences(of: "\r\n", with: "\n") : layoutAsLF(sql)
  }

  /// The first quoted name or string literal of `sql` that holds a CR LF, as written; nil when
  /// none does. A migration file reads every CR LF as LF (so that its checksum survives a
  /// checkout), so such a name or value cannot be written into one.
  static func quotedCRLF(in sql: String) -> String? {
    guard sql.utf8.contains(0x0D) else { return nil }
    return SQLTokenizer(sql).tokens().first { token in
      (token.kind == .string || token.kind == .quotedIdentifier) && holdsCRLF(token.text)
    }?.text
  }

  private static func holdsCRLF(_ text: String) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if previous == 0x0D, byte == 0x0A { return true }
      previous = byte
    }
    return false
  }

  private static func quotedRanges(_ sql: String) -> [Range<Int>] {
    SQLTokenizer(sql).tokens().filter { $0.kind == .string || $0.kind == .quotedIdentifier }
      .map { $0.start..<$0.end }
  }
}
