import Testing

@testable import Strata

/// The scanner the script splitter and the tokenizer share, and the tokenizer on top of it.
@Suite struct SQLTokenizerTests {
  private func kinds(_ sql: String) -> [SQLToken.Kind] { SQLTokenizer(sql).tokens().map(\.kind) }
  private func texts(_ sql: String) -> [String] { SQLTokenizer(sql).tokens().map(\.text) }

  @Test func wordsNumbersSymbolsAndQuotes() {
    let sql = "CREATE TABLE \"a b\" (x_1$ INT DEFAULT 1.5e3, [y] TEXT DEFAULT 'it''s', `z`);"
    #expect(
      texts(sql) == [
        "CREATE", "TABLE", "\"a b\"", "(", "x_1$", "INT", "DEFAULT", "1.5e3", ",", "[y]", "TEXT",
        "DEFAULT", "'it''s'", ",", "`z`", ")", ";",
      ]
    )
    let tokens = SQLTokenizer(sql).tokens()
    #expect(tokens[2].kind == .quotedIdentifier && tokens[2].identifier == "a b")
    #expect(tokens[7].kind == .number)
    #expect(tokens[9].identifier == "y")
    #expect(tokens[12].kind == .string && tokens[12].identifier == "it's")
    #expect(tokens[14].identifier == "z")
    #expect(tokens[0].isKeyword("CREATE") && SQLTokenizer("create").tokens()[0].isKeyword("CREATE"))
    #expect(!tokens[2].isKeyword("A B"), "a quoted identifier is never a keyword")
  }

  @Test func commentsAndWhiteSpaceAreDropped() {
    let sql = "-- leading\n\tSELECT /* inner; 'not a string' */ 1\r\n\u{0C}-- trailing"
    #expect(texts(sql) == ["SELECT", "1"])
    #expect(texts("SELECT 1 /* never closed") == ["SELECT", "1"])
    #expect(texts("SELECT 1 -") == ["SELECT", "1", "-"], "a lone - is a symbol")
  }

  @Test func quotesHideCommentsAndSemicolons() {
    #expect(texts("SELECT '--;' , \"/*\"") == ["SELECT", "'--;'", ",", "\"/*\""])
    #expect(texts("SELECT [a]]b]") == ["SELECT", "[a]", "]", "b", "]"], "] never doubles in […]")
    #expect(kinds("SELECT 'open") == [.word, .string], "an unclosed string runs to the end")
  }

  @Test func offsetsAreUTF8Bytes() {
    let tokenizer = SQLTokenizer("SELECT \"é\" , üß;")
    let tokens = tokenizer.tokens()
    #expect(tokens.map(\.text) == ["SELECT", "\"é\"", ",", "üß", ";"])
    #expect(tokens[1].start == 7 && tokens[1].end == 11)
    #expect(tokenizer.text(from: tokens[1].start, to: tokens[2].end) == "\"é\" ,")
    #expect(tokens[3].kind == .word, "non-ASCII characters make words, as in SQLite")
  }

  @Test func scannerSkipsTriviaAsTheSplitterDoes() {
    func skipped(_ text: String, semicolons: Bool) -> Int {
      Array(text.utf8).withUnsafeBufferPointer {
        SQLScanner.skipTrivia($0, from: 0, end: $0.count, semicolons: semicolons)
      }
    }
    #expect(skipped(" ;-- x\n/* y */ ;SELECT", semicolons: true) == 16)
    #expect(skipped(" ;SELECT", semicolons: false) == 1)
    #expect(skipped("/* open", semicolons: true) == 7)
    #expect(skipped("--", semicolons: false) == 2)
    #expect(!containsSQL(" ;; -- only a comment\n/* and */"))
    #expect(containsSQL("; x"))
  }

  @Test func quotedEndHonoursDoubledQuotes() {
    func end(_ text: String, _ quote: Character, doubled: Bool) -> Int {
      Array(text.utf8).withUnsafeBufferPointer {
        SQLScanner.quotedEnd(
          $0,
          quote: UInt8(ascii: quote.unicodeScalars.first!),
          doubled: doubled,
          from: 1,
          end: $0.count
        )
      }
    }
    #expect(end("'a''b' x", "'", doubled: true) == 6)
    #expect(end("[a]]", "]", doubled: false) == 3)
    #expect(end("\"never", "\"", doubled: true) == 6)
  }

  @Test func parenthesesAndCommasAtTopLevel() {
    let tokens = SQLTokenizer("(a, f(b, c), d)").tokens()
    #expect(matchingParenthesis(tokens, 0) == tokens.count - 1)
    let items = splitAtCommas(tokens, from: 1, to: tokens.count - 1)
    #expect(items.map { tokens[$0].map(\.text).joined() } == ["a", "f(b,c)", "d"])
  }

  @Test func normalizedSQLIgnoresLayoutQuotingAndCase() {
    #expect(
      normalizedSQL("CREATE TABLE \"T\" (x INT); -- note")
        == normalizedSQL("create  table t\n(\n  [X] int\n)")
    )
    #expect(normalizedSQL("SELECT 'A'") != normalizedSQL("SELECT 'a'"), "strings keep their case")
  }
}
