import Foundation
import Strata

/// A row of the FMDB article's `person_info(name TEXT, age INTEGER)`: a table without a key,
/// where either column may be NULL.
struct Person: Codable, Equatable, Hashable, Sendable {
  var name: String?
  var age: Int?
}

/// The app's database, as an Xcode app target has it: `migrations` and `seeds` bundled as
/// folder references in the app (`Bundle.main`), and `template.sqlite3` built from the
/// migrations at build time by the StrataTemplatePlugin, at the top of the app's bundle
/// (docs/build-plugin.md, "In an Xcode app target"). No SwiftUI here: this file is what the
/// package's Linux build compiles and its tests launch (Examples/Tests/XcodeAppTests.swift).
final class AppDatabase: Sendable {
  let queue: DatabaseQueue

  /// The launch: the template copied into Documents on the first launch, newer migrations
  /// applied and the bundled people synced. `DatabaseSetup.open() async` does the work off
  /// the caller's actor, so the main thread stays free (SwiftUI awaits this in `.task {}`), and
  /// stops it if the task is cancelled.
  // example: xcode-app-launch
  static func open(
    documents: URL? = nil,  // tests: a temporary folder instead of the app's Documents
    bundle: Bundle = .main,  // tests: the SwiftPM build's bundle instead of the app's
    progress: (@Sendable (SetupProgress) -> Void)? = nil
  ) async throws -> AppDatabase {
    var setup = DatabaseSetup(
      database: try documents.map { $0.appendingPathComponent("people.sqlite3") }
        ?? DatabaseSetup.documentsDatabase(named: "people.sqlite3"),
      migrations: try DatabaseSetup.resource("migrations", in: bundle),
      template: try DatabaseSetup.resource("template", withExtension: "sqlite3", in: bundle),
      seeds: try DatabaseSetup.resource("seeds", in: bundle)
    )
    setup.progress = progress
    return AppDatabase(queue: try await setup.open())
  }
  // end example

  init(queue: DatabaseQueue) {
    self.queue = queue
  }

  func people() async throws -> [Person] {
    try await queue.read { db in
      try db.fetchAll(Person.self, "SELECT name, age FROM person_info ORDER BY rowid")
    }
  }

  func add(_ person: Person) async throws {
    try await queue.write { db in try db.insert(person, into: "person_info") }
  }
}
