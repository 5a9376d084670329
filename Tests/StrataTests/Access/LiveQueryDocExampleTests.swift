import Foundation
import StrataTestSupport
import Testing

@testable import Strata

#if canImport(Observation)
import Observation

// docs example begin
struct Person: Decodable, Sendable {
  var name: String
  var age: Int
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor @Observable final class PeopleModel {
  var adults: [Person] = []
  var problem: String?
  private let queue: DatabaseQueue

  init(queue: DatabaseQueue) { self.queue = queue }

  /// Runs as long as the view shows: `.task { await model.watchAdults() }`.
  func watchAdults() async {
    let adults = queue.observe { db in
      try db.fetchAll(Person.self, "SELECT * FROM person WHERE age > ? ORDER BY name", [18])
    }
    do {
      for try await people in adults { self.adults = people }
    } catch {
      problem = "\(error)"  // the query failed: a migration dropped a column it reads
    }
  }
}
// docs example end

/// The Swift example of docs/library.md ("Live queries") is this file's code between the
/// markers, word for word: it compiles, and the model follows the database.
@Suite struct LiveQueryDocExampleTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor @Test func theModelFollowsEveryCommit() async throws {
    let queue = try DatabaseQueue.inMemory()
    try await queue.write { db in
      try db.execute("CREATE TABLE person (name TEXT, age INT)")
      try db.execute("INSERT INTO person VALUES ('Ann', 30), ('Tim', 12)")
    }
    let model = PeopleModel(queue: queue)
    let view = Task { await model.watchAdults() }
    #expect(await Self.eventually { model.adults.map(\.name) == ["Ann"] })
    try await queue.write { db in try db.execute("UPDATE person SET age = 19 WHERE name = 'Tim'") }
    #expect(await Self.eventually { model.adults.map(\.name) == ["Ann", "Tim"] })
    view.cancel()
    await view.value
    #expect(queue.observers.count == 0)
    #expect(model.problem == nil)
  }

  @MainActor static func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
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
    let code = lines[(begin + 1)..<end].joined(separator: "\n")
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/library.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    #expect(text.contains("```swift\n\(code)\n```"))
  }
}
#endif
