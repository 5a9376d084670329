import Foundation
import Strata

/// Apple's classic persistence sample on strata: four text fields, saved when the app goes to
/// the background and shown again on the next launch, under labels the app bundles
/// (`seeds/FIELD_LABELS.csv`).
public final class FieldsApp: Sendable {
  public let queue: DatabaseQueue
  public static let fieldCount = 4

  public static func launch(
    documents: URL,
    migrations: URL? = nil,
    seeds: URL? = nil
  ) async throws -> FieldsApp {
    let setup = DatabaseSetup(
      database: documents.appendingPathComponent("fields.sqlite3"),
      migrations: try migrations ?? DatabaseSetup.resource("migrations", in: .module),
      seeds: try seeds ?? DatabaseSetup.resource("seeds", in: .module)
    )
    return FieldsApp(queue: try await setup.open())
  }

  /// The bundle holding this app's `migrations` and `seeds` (its tests copy them to play an
  /// update).
  public static var bundle: Bundle { .module }

  init(queue: DatabaseQueue) {
    self.queue = queue
  }

  /// A row of `FIELDS`, written and read by column name.
  struct Field: Codable {
    var ROW: Int
    var FIELD_DATA: String?
  }

  // example: fields-access
  /// Called when the app goes to the background: every field in one transaction.
  public func saveOnBackground(_ fields: [String?]) throws {
    try queue.write { db in
      for (row, text) in fields.enumerated() {
        try db.upsert(Field(ROW: row, FIELD_DATA: text), into: "FIELDS")
      }
    }
  }

  /// Called at launch: the fields as they were saved, nil where nothing was.
  public func loadFields() throws -> [String?] {
    let saved = try queue.read { db in
      try db.fetchAll(Field.self, "SELECT ROW, FIELD_DATA FROM FIELDS")
    }
    var fields = [String?](repeating: nil, count: Self.fieldCount)
    for field in saved where fields.indices.contains(field.ROW) {
      fields[field.ROW] = field.FIELD_DATA
    }
    return fields
  }
  // end example

  /// The bundled labels, in field order.
  public func labels() throws -> [String] {
    try queue.read { db in
      try db.fetchRows("SELECT LABEL FROM FIELD_LABELS ORDER BY ROW").map { $0["LABEL"] ?? "" }
    }
  }
}
