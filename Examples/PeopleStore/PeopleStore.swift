import Foundation
import Strata

/// A row of the FMDB article's `person_info(name, age)`: a table without a key, whose age
/// may be unknown.
public struct Person: Codable, Equatable, Sendable {
  public var name: String
  public var age: Int?

  public init(name: String, age: Int?) {
    self.name = name
    self.age = age
  }
}

/// The FMDB flow on strata: the bundled template is copied into Documents on first launch
/// (built from `migrations/` at build time by the StrataTemplate plugin, so it is never stale),
/// the bundled people are loaded and kept in step with the bundle across updates (the user's
/// edits kept), and every task shares one `DatabaseQueue`.
public final class PeopleStore: Sendable {
  public let queue: DatabaseQueue

  // example: people-launch
  public static func launch(
    documents: URL,
    migrations: URL? = nil,
    seeds: URL? = nil,
    settings: URL? = nil
  ) async throws -> PeopleStore {
    var setup = DatabaseSetup(
      database: documents.appendingPathComponent("test.db"),
      migrations: try migrations ?? DatabaseSetup.resource("migrations", in: .module),
      template: try DatabaseSetup.resource("template", withExtension: "sqlite3", in: .module),
      seeds: try seeds ?? DatabaseSetup.resource("seeds", in: .module)
    )
    setup.settingsFile = settings  // strata.toml: how the seed files are read
    return PeopleStore(queue: try await setup.open())
  }
  // end example

  /// The bundle holding this app's `migrations` and `seeds` (its tests copy them to play an
  /// update).
  public static var bundle: Bundle { .module }

  init(queue: DatabaseQueue) {
    self.queue = queue
  }

  // example: people-access
  public func add(_ person: Person) async throws {
    try await queue.write { db in try db.insert(person, into: "person_info") }
  }

  public func people() async throws -> [Person] {
    try await queue.read { db in
      try db.fetchAll(Person.self, "SELECT name, age FROM person_info ORDER BY rowid")
    }
  }
  // end example
}
