import Foundation
import Testing

/// What an app's own tests need around a launch: a fresh Documents folder, a copy of the
/// bundled folders to play an app update on, and the database file's bytes to prove that a
/// launch wrote nothing.
final class AppScenario {
  let root: URL
  let documents: URL

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-example-\(UUID().uuidString)")
    documents = root.appendingPathComponent("Documents")
    try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: root)
  }

  /// The bundled folder copied out, as the next release of the app would bundle it.
  func update(copying bundled: URL, as name: String) throws -> URL {
    let copy = root.appendingPathComponent("update").appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: copy.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try FileManager.default.copyItem(at: bundled, to: copy)
    return copy
  }

  /// Writes `text` to `name` inside `folder` (a new migration, a changed seed file).
  func write(_ text: String, to name: String, in folder: URL) throws {
    try Data(text.utf8).write(to: folder.appendingPathComponent(name))
  }

  /// The database file's bytes and those of its journal files, if any.
  func files(named name: String) throws -> [String: Data] {
    var found: [String: Data] = [:]
    for suffix in ["", "-wal", "-journal"] {
      let url = documents.appendingPathComponent(name + suffix)
      if let data = try? Data(contentsOf: url) { found[name + suffix] = data }
    }
    return found
  }
}
