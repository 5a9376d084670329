import Testing

@testable import Strata

/// The settings file's TOML subset, against the examples of the TOML 1.0 specification
/// (toml.io/en/v1.0.0) that fall inside it, and the ones outside it as errors.
@Suite struct TOMLParserTests {
  private func parse(_ text: String) throws -> TOMLDocument { try TOMLParser.parse(text) }

  private func root(_ text: String) throws -> [String: TOMLValue] {
    let document = try parse(text)
    return Dictionary(uniqueKeysWithValues: document.tables[0].entries.map { ($0.key, $0.value) })
  }

  private func error(_ text: String) -> TOMLSyntaxError? {
    do {
      _ = try parse(text)
      return nil
    } catch let error as TOMLSyntaxError {
      return error
    } catch {
      return nil
    }
  }

  @Test func specComments() throws {
    let values = try root(
      """
      # This is a full-line comment
      key = "value"  # This is a comment at the end of a line
      another = "# This is not a comment"
      """
    )
    #expect(values == ["key": .string("value"), "another": .string("# This is not a comment")])
  }

  @Test func specBareAndQuotedKeys() throws {
    let values = try root(
      """
      key = "value"
      bare_key = "value"
      bare-key = "value"
      1234 = "value"
      "127.0.0.1" = "value"
      "character encoding" = "value"
      "ʎǝʞ" = "value"
      'key2' = "value"
      'quoted "value"' = "value"
      """
    )
    #expect(
      Set(values.keys) == [
        "key", "bare_key", "bare-key", "1234", "127.0.0.1", "character encoding", "ʎǝʞ",
        "key2", "quoted \"value\"",
      ]
    )
  }

  @Test func specKeyWithoutNameIsAnError() {
    let failure = error(#"= "no key name"  # INVALID"#)
    #expect(failure?.position == TOMLPosition(line: 1, column: 1))
    #expect(failure?.reason.contains("expected a key") == true)
  }

  @Test func specDuplicateKeysAreAnError() {
    let failure = error(
      """
      # DO NOT DO THIS
      name = "Tom"
      name = "Pradyun"
      """
    )
    #expect(failure?.position == TOMLPosition(line: 3, column: 1))
    #expect(
      failure?.reason == "the key name is given twice at the top of the file (first on line 2)"
    )
  }

  @Test func specBasicStringEscapes() throws {
    let values = try root(
      #"""
      str = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF."
      emoji = "\U0001F600 \\ \b\f\r"
      """#
    )
    #expect(
      values["str"] == .string("I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF.")
    )
    #expect(values["emoji"] == .string("😀 \\ \u{08}\u{0C}\r"))
  }

  @Test func specLiteralStrings() throws {
    let values = try root(
      #"""
      winpath  = 'C:\Users\nodejs\templates'
      winpath2 = '\\ServerX\admin$\system32\'
      quoted   = 'Tom "Dubs" Preston-Werner'
      regex    = '<\i\c*\s*>'
      """#
    )
    #expect(values["winpath"] == .string(#"C:\Users\nodejs\templates"#))
    #expect(values["winpath2"] == .string(#"\\ServerX\admin$\system32\"#))
    #expect(values["quoted"] == .string(#"Tom "Dubs" Preston-Werner"#))
    #expect(values["regex"] == .string(#"<\i\c*\s*>"#))
  }

  @Test func specIntegersAndBooleans() throws {
    let values = try root(
      """
      int1 = +99
      int2 = 42
      int3 = 0
      int4 = -17
      int5 = 1_000
      int6 = 5_349_221
      int7 = 53_49_221  # Indian number system grouping
      int8 = 1_2_3_4_5  # VALID but discouraged
      bool1 = true
      bool2 = false
      """
    )
    #expect(values["int1"] == .integer(99))
    #expect(values["int4"] == .integer(-17))
    #expect(values["int6"] == .integer(5_349_221))
    #expect(values["int8"] == .integer(12345))
    #expect(values["bool1"] == .boolean(true))
    #expect(values["bool2"] == .boolean(false))
  }

  @Test func specArraysOfStringsOverSeveralLines() throws {
    let values = try root(
      """
      string_array = [ "all", 'strings', "are the same", 'type' ]
      contributors = [
        "Foo Bar <foo@example.com>",
        "Baz Qux", # this is ok
      ]
      empty = []
      """
    )
    #expect(values["string_array"] == .strings(["all", "strings", "are the same", "type"]))
    #expect(values["contributors"] == .strings(["Foo Bar <foo@example.com>", "Baz Qux"]))
    #expect(values["empty"] == .strings([]))
  }

  @Test func specTablesAndHeaders() throws {
    let document = try parse(
      """
      [table-1]
      key1 = "some string"
      key2 = 123

      [table-2]
      key1 = "another string"
      key2 = 456

      [dog."tater.man"]
      [a.b.c]            # this is best practice
      [ d.e.f ]          # same as [d.e.f]
      [ g .  h  . i ]    # same as [g.h.i]
      [ j . "ʞ" . 'l' ]  # same as [j."ʞ".'l']
      """
    )
    #expect(
      document.tables.map(\.path) == [
        [], ["table-1"], ["table-2"], ["dog", "tater.man"], ["a", "b", "c"], ["d", "e", "f"],
        ["g", "h", "i"], ["j", "ʞ", "l"],
      ]
    )
    #expect(document.tables[2].entries.map(\.value) == [.string("another string"), .integer(456)])
    #expect(document.tables[3].header == #"dog."tater.man""#)
  }

  @Test func specSuperTableAfterItsChildIsValid() throws {
    let document = try parse(
      """
      # [x] you
      # [x.y] don't
      # [x.y.z] need these
      [x.y.z.w] # for this to work

      [x] # defining a super-table afterward is ok
      """
    )
    #expect(document.tables.map(\.path) == [[], ["x", "y", "z", "w"], ["x"]])
  }

  @Test func specTableDefinedTwiceIsAnError() {
    let failure = error(
      """
      # DO NOT DO THIS

      [fruit]
      apple = "red"

      [fruit]
      orange = "orange"
      """
    )
    #expect(failure?.position == TOMLPosition(line: 6, column: 1))
    #expect(failure?.reason == "the table [fruit] is defined twice (first on line 3)")
  }

  @Test func specKeyThenTableOfTheSameNameIsAnError() {
    let failure = error(
      """
      [fruit]
      apple = "red"

      [fruit.apple]
      texture = "smooth"
      """
    )
    #expect(failure?.position == TOMLPosition(line: 4, column: 1))
    #expect(failure?.reason == "the table [fruit.apple] clashes with the key apple on line 2")
  }

  @Test func specInlineTableOfStrings() throws {
    let values = try root(#"name = { first = "Tom", "last name" = "Preston-Werner" }"#)
    #expect(
      values["name"]
        == .table([
          TOMLPair(key: "first", value: "Tom"), TOMLPair(key: "last name", value: "Preston-Werner"),
        ])
    )
  }

  @Test(arguments: [
    ("point = { x = 1, y = 2 }", 1, 15, "only strings are supported in an inline table"),
    ("flt1 = +1.0", 1, 8, "floats are not supported"),
    ("flt2 = 3.1415", 1, 8, "floats are not supported"),
    ("sf1 = inf", 1, 7, "floats are not supported"),
    ("odt1 = 1979-05-27T07:32:00Z", 1, 8, "dates and times are not supported"),
    ("lt1 = 07:32:00", 1, 7, "dates and times are not supported"),
    ("hex1 = 0xDEADBEEF", 1, 8, "hexadecimal, octal and binary integers are not supported"),
    ("int = 012", 1, 7, "an integer cannot have leading zeros"),
    ("int = 1__000", 1, 8, "an underscore in a number must be between two digits"),
    ("[[products]]", 1, 1, "arrays of tables ([[…]]) are not supported; use [table] headers"),
    (
      "str1 = \"\"\"\nRoses\"\"\"", 1, 8,
      "multi-line strings are not supported; write \\n in a \"basic\" string"
    ),
    (
      "fruit.color = \"yellow\"", 1, 1,
      "dotted keys (fruit.color) are not supported; use a [fruit] table header"
    ),
    ("mixed = [ 1, \"a\" ]", 1, 11, "only arrays of strings are supported"),
    ("key = \"value\" extra", 1, 15, "expected the end of the line, found 'e'"),
    ("key = \"no end", 1, 14, "the string has no closing quote on its line"),
    (
      "key = \"bad \\q escape\"", 1, 12,
      "unknown escape \\q; allowed: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX"
    ),
    ("key = { a = \"b\", }", 1, 18, "an inline table cannot end with a comma"),
    ("[table\nkey = 1", 1, 7, "expected ] to close the table header"),
    (
      "key =", 1, 6,
      "expected a value (a \"string\", an integer, true or false, [\"an\", "
        + "\"array\"] or { inline = \"table\" }), found the end of the file"
    ),
  ])
  func outsideTheSubsetIsAnErrorAtItsPosition(
    text: String,
    line: Int,
    column: Int,
    reason: String
  ) {
    let failure = error(text)
    #expect(failure?.reason == reason)
    #expect(failure?.position == TOMLPosition(line: line, column: column))
  }

  @Test func windowsLineEndsAndAByteOrderMarkAreRead() throws {
    let document = try parse("\u{FEFF}# settings\r\n[seeds]\r\nnull = [\"NA\"]\r\n")
    #expect(document.tables[1].entries.first?.value == .strings(["NA"]))
    #expect(document.tables[1].entries.first?.position == TOMLPosition(line: 3, column: 1))
  }

  @Test func columnsCountCharactersNotBytes() {
    let failure = error("\"ʎǝʞ\" = \"é\" x")
    #expect(failure?.position == TOMLPosition(line: 1, column: 13))
  }
}
