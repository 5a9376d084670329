import StrataArguments
import Testing

@Suite struct ArgumentParserTests {
  enum Format: String, CaseIterable, Sendable {
    case text, json
  }

  static let to = Option<Int64?>.integer("to", "version", help: "", minimum: 0)
  static let format = Option<Format>("format", "format", help: "", default: .text)
  static let quiet = Flag("quiet", short: "q", help: "")
  static let spec = CommandSpec(
    name: "migrate",
    abstract: "",
    positionals: [PositionalSpec(name: "file", help: "", isRepeated: true)],
    options: [to, format, quiet]
  )

  static func parse(_ arguments: [String]) throws -> ParsedArguments {
    try ParsedArguments(arguments, spec: spec, toolName: "tool")
  }

  @Test func inlineAndSeparateValuesFlagsAndPositionals() throws {
    let parsed = try Self.parse(
      ["a.csv", "--to=3", "-q", "--format", "json", "--", "--not-an-option"]
    )
    #expect(parsed[Self.to] == 3)
    #expect(parsed[Self.format] == .json)
    #expect(parsed[Self.quiet])
    #expect(parsed.positionals == ["a.csv", "--not-an-option"])
  }

  @Test func anOptionNotGivenReadsAsItsDefault() throws {
    let parsed = try Self.parse([])
    #expect(parsed[Self.to] == nil)
    #expect(parsed[Self.format] == .text)
    #expect(!parsed[Self.quiet])
  }

  @Test func theLastValueGivenIsTheOneConverted() throws {
    let parsed = try Self.parse(["--to", "x", "--to", "2"])
    #expect(parsed[Self.to] == 2)
    #expect(parsed.values["to"] == ["x", "2"])
  }

  @Test func aValueItsDeclarationRejectsIsAUsageError() {
    let error = #expect(throws: UsageError.self) { try Self.parse(["--to", "-1"]) }
    #expect(error?.message == "--to takes a whole number of at least 0; got '-1'")
    #expect(error?.help == nil)
  }

  @Test func hintsNameTheToolTheCallerGives() {
    let unknown = #expect(throws: UsageError.self) { try Self.parse(["-x"]) }
    #expect(unknown?.help == "See 'tool migrate --help'.")
    #expect(Self.spec.usage(toolName: "tool") == "tool migrate [<file> ...] [<options>]")
    #expect(Self.spec.helpText(toolName: "tool").contains("USAGE: tool migrate"))
  }

  // Found by the arguments fuzz target: `=` followed by a combining mark is one character
  // to Swift, so `--to=\u{301}x` was read as an unknown option named `to=́x`.
  @Test func aCombiningMarkAfterTheEqualsSignStaysInTheValue() throws {
    let spec = CommandSpec(
      name: "migrate",
      abstract: "",
      options: [OptionSpec.value("to", "v", help: "")]
    )
    let parsed = try ParsedArguments(["--to=\u{301}x"], spec: spec, toolName: "tool")
    #expect(parsed.values["to"] == ["\u{301}x"])
  }

  @Test func aShortOptionIsOneScalar() {
    #expect(throws: UsageError.self) { try Self.parse(["-\u{301}q"]) }
    #expect(throws: UsageError.self) { try Self.parse(["-q\u{301}"]) }
  }

  @Test func messagesEscapeControlCharacters() {
    #expect(quotedArgument("a\u{202E}b\u{2028}") == "'a\\u{202E}b\\u{2028}'")
    #expect(quotedArgument("a\u{1B}[2J\nb\u{85}é") == "'a\\u{1B}[2J\\u{A}b\\u{85}é'")
    let error = #expect(throws: UsageError.self) { try Self.parse(["--format=\u{7}"]) }
    #expect(error?.message == "--format must be one of text, json; got '\\u{7}'")
  }
}
