import StrataArguments
import Testing

/// `RepeatedOption`: every value kept in order, each converted, `[]` when not given.
@Suite struct RepeatedOptionTests {
  static let null = RepeatedOption<String>("null", "token", help: "")
  static let size = RepeatedOption<Int>("size", "n", help: "") { text in
    guard let value = Int(text) else { throw UsageError(message: "--size takes a number") }
    return value
  }
  static let spec = CommandSpec(name: "seed", abstract: "", options: [null, size])

  static func parse(_ arguments: [String]) throws -> ParsedArguments {
    try ParsedArguments(arguments, spec: spec, toolName: "tool")
  }

  @Test func everyValueIsKeptInOrder() throws {
    let parsed = try Self.parse(["--null", "NA", "--size=2", "--null=\\N", "--null", "NA"])
    #expect(parsed[Self.null] == ["NA", "\\N", "NA"])
    #expect(parsed[Self.size] == [2])
  }

  @Test func notGivenIsEmpty() throws {
    #expect(try Self.parse([])[Self.null] == [])
  }

  @Test func anyValueTheDeclarationRejectsIsAUsageError() {
    let error = #expect(throws: UsageError.self) {
      try Self.parse(["--size", "x", "--size", "3"])
    }
    #expect(error?.message == "--size takes a number")
  }
}
