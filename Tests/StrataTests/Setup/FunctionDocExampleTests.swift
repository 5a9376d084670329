import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// The Swift example of docs/library.md ("Functions migrations call") is this test's code,
/// between the markers, word for word: it compiles and does what the page says.
@Suite struct FunctionDocExampleTests {
  @Test func theDocumentedConfigurationRunsAMigrationThatCallsTheFunction() async throws {
    let folder = try TemporaryDirectory()
    let database = folder.path("app.sqlite3")
    let migrations = try folder.write(
      "migrations/0001_tag.sql",
      "-- migrate:up\nCREATE TABLE tag (name TEXT UNIQUE);\n"
        + "INSERT INTO tag VALUES (nfc('cafe\u{301}'));\n-- migrate:down\nDROP TABLE tag;\n"
    ).deletingLastPathComponent()
    // docs example begin
    var setup = DatabaseSetup(database: database, migrations: migrations)
    setup.connectionConfiguration = ConnectionConfiguration { connection in
      try connection.registerFunction("nfc", argumentCount: 1, deterministic: true) { arguments in
        guard case .text(let text) = arguments[0] else { return arguments[0] }
        return .text(text.precomposedStringWithCanonicalMapping)
      }
    }
    try await setup.run()
    // docs example end
    let stored = try Connection(path: database.path).scalar("SELECT name FROM tag")
    #expect(stored == .text("caf\u{E9}"))
    #expect(stored?.textValue?.unicodeScalars.count == 4)
  }

  @Test func thePageShowsThisCode() throws {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    guard let begin = lines.firstIndex(where: { $0.hasSuffix("// docs example begin") }),
      let end = lines.firstIndex(where: { $0.hasSuffix("// docs example end") })
    else {
      Issue.record("markers missing")
      return
    }
    let code = lines[(begin + 1)..<end].map { $0.dropFirst(4) }.joined(separator: "\n")
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/library.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    #expect(text.contains("```swift\n\(code)\n```"))
  }
}
