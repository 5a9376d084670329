import Foundation

/// A resource folder whose files were bundled without it: SwiftPM's `.process("migrations")`
/// (and an Xcode group instead of a folder reference) copies the folder's files into the
/// bundle's top level, so the folder is missing and its `.sql` (or seed) files sit loose
/// beside where it should be. One rule, used by `DatabaseSetup.resource(_:…in:)` and by
/// `run()` for a migrations or seeds URL that does not exist.
enum FlattenedFolder {
  /// The file extensions a flattened migrations or seeds folder leaves behind.
  static let looseExtensions: Set<String> = ["sql", "csv", "tsv"]

  /// The migration or seed files (sorted) loose in the folder that should hold `folder`, when
  /// `folder` itself does not exist; empty when it exists or nothing is loose. With
  /// `versionedSQLOnly`, only `.sql` files whose name starts with a digit count (a missing
  /// migrations folder on disk beside a `schema.sql` is missing, not flattened).
  static func looseFiles(for folder: URL, versionedSQLOnly: Bool = false) -> [String] {
    guard pathStatus(atPath: folder.path) == .missing else { return [] }
    let parent = folder.deletingLastPathComponent()
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else {
      return []
    }
    return names.filter { name in
      let suffix = URL(fileURLWithPath: name).pathExtension.lowercased()
      let wanted =
        versionedSQLOnly
        ? suffix == "sql" && name.first?.isNumber == true
        : looseExtensions.contains(suffix)
      return !name.hasPrefix(".") && wanted
        && pathStatus(atPath: parent.appendingPathComponent(name).path) == .regular
    }.sorted()
  }

  /// `SetupError.folderFlattened` when `folder` is missing and files it should hold sit loose
  /// beside it.
  static func check(
    _ folder: URL,
    name: String,
    container: String,
    versionedSQLOnly: Bool = false
  ) throws {
    let loose = looseFiles(for: folder, versionedSQLOnly: versionedSQLOnly)
    guard !loose.isEmpty else { return }
    throw SetupError.folderFlattened(name: name, container: container, looseFiles: loose)
  }
}
