import Foundation
import Strata

/// A student as the app shows it: the columns of `student`, decoded by name.
public struct Student: Codable, Equatable, Sendable {
  public var stuID: String
  public var stuName: String
  public var stuAge: Int

  public init(stuID: String, stuName: String, stuAge: Int) {
    self.stuID = stuID
    self.stuName = stuName
    self.stuAge = stuAge
  }
}

/// The student store: save (insert or update), load by `stuID`, delete, list.
public final class StudentStore: Sendable {
  /// The app's one handle on its database.
  public let queue: DatabaseQueue

  /// Brings the database in `documents` up to date (migrations, then the bundled students)
  /// and opens it.
  public static func launch(
    documents: URL,
    migrations: URL? = nil,
    seeds: URL? = nil
  ) async throws -> StudentStore {
    // example: student-launch
    let setup = DatabaseSetup(
      database: documents.appendingPathComponent("students.sqlite3"),
      migrations: try migrations ?? DatabaseSetup.resource("migrations", in: .module),
      seeds: try seeds ?? DatabaseSetup.resource("seeds", in: .module)
    )
    return StudentStore(queue: try await setup.open())
    // end example
  }

  /// The bundle holding this app's `migrations` and `seeds` (its tests copy them to play an
  /// update).
  public static var bundle: Bundle { .module }

  init(queue: DatabaseQueue) {
    self.queue = queue
  }

  // example: student-access
  /// Inserts the student, or updates the one with its `stuID` in place.
  public func save(_ student: Student) throws {
    try queue.write { db in try db.upsert(student, into: "student") }
  }

  public func load(stuID: String) throws -> Student? {
    try queue.read { db in try db.fetchOne(Student.self, from: "student", key: [stuID]) }
  }
  // end example

  public func delete(stuID: String) throws {
    try queue.write { db in _ = try db.delete(from: "student", key: [stuID]) }
  }

  public func studentsByName() throws -> [Student] {
    try queue.read { db in
      try db.fetchAll(Student.self, "SELECT * FROM student ORDER BY stuName, stuID")
    }
  }

  public func studentsByAge() throws -> [Student] {
    try queue.read { db in
      try db.fetchAll(Student.self, "SELECT * FROM student ORDER BY stuAge, stuID")
    }
  }
}
