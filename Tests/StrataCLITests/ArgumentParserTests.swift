import StrataArguments
import Testing

@Suite struct ArgumentParserTests {
  static let spec = CommandSpec(
    name: "migrate",
    abstract: "",
    positionals: [PositionalSpec(name: "file", help: "", isRepeated: true)],
    options: [
      .value("to", "version", help: ""),
      .value("format", "format", help: "", choices: ["text", "json"]),
      .flag("quiet", short: "q", help: ""),
    ]
  )

  @Test func inlineAndSeparateValuesFlagsAndPositionals() throws {
    let parsed = try ParsedArguments(
      ["a.csv", "--to=3", "-q", "--format", "json", "--", "--not-an-option"],
      spec: Self.spec
    )
    #expect(parsed.value("to") == "3")
    #expect(parsed.value("format") == "json")
    #expect(parsed.flag("quiet"))
    #expect(parsed.positionals == ["a.csv", "--not-an-option"])
  }

  // Found by the arguments fuzz target: `=` followed by a combining mark is one character
  // to Swift, so `--to=\u{301}x` was read as an unknown option named `to=́x`.
  @Test func aCombiningMarkAfterTheEqualsSignStaysInTheValue() throws {
    let parsed = try ParsedArguments(["--to=\u{301}x"], spec: Self.spec)
    #expect(parsed.value("to") == "\u{301}x")
  }

  @Test func aShortOptionIsOneScalar() {
    #expect(throws: UsageError.self) { try ParsedArguments(["-\u{301}q"], spec: Self.spec) }
    #expect(throws: UsageError.self) { try ParsedArguments(["-q\u{301}"], spec: Self.spec) }
  }

  @Test func messagesEscapeControlCharacters() {
    #expect(quotedArgument("a\u{202E}b\u{2028}") == "'a\\u{202E}b\\u{2028}'")
    #expect(quotedArgument("a\u{1B}[2J\nb\u{85}é") == "'a\\u{1B}[2J\\u{A}b\\u{85}é'")
    let error = #expect(throws: UsageError.self) {
      try ParsedArguments(["--format=\u{7}"], spec: Self.spec)
    }
    #expect(error?.message == "--format must be one of text, json; got '\\u{7}'")
  }
}
