import Foundation

/// A resource folder whose files were bundled without it: SwiftPM's `.process("migrations")`
/// (and an Xcode group instead of a folder reference) copies the folder's files into the
/// bundle's top level, so the folder is missing and its `.sql` (or seed) files sit loose
/// beside where it should be. One rule, used by `DatabaseSetup.resource(_:…in:)` and by
/// `run()` for a migrations or seeds URL that does not exist.
enum FlattenedFolder {
  /// Which files count as the missing folder's.
  enum Contents {
    /// `.sql` files whose name starts with a digit (a missing migrations folder beside a
    /// `schema.sql` is missing, not flattened).
    case migrations
    /// `.csv` and `.tsv` files, maybe gzipped.
    case seeds
    /// Either: a bundle resource whose kind is not known.
    case any

    func holds(_ name: String) -> Bool {
      let lowered = name.lowercased()
      let isMigration = lowered.hasSuffix(".sql") && name.first?.isNumber == true
      let isSeed = [".csv", ".tsv", ".csv.gz", ".tsv.gz"].contains { lowered.hasSuffix($0) }
      switch self {
      case .migrations: return isMigration
      case .seeds: return isSeed
      case .any: return isSeed || lowered.hasSuffix(".sql")
      }
    }
  }

  /// The files (sorted) loose in the folder that should hold `folder`, when `folder` itself
  /// does not exist; empty when it exists or nothing is loose.
  static func looseFiles(for folder: URL, holding contents: Contents) -> [String] {
    guard pathStatus(atPath: folder.path) == .missing else { return [] }
    let parent = folder.deletingLastPathComponent()
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else {
      return []
    }
    return names.filter { name in
      !name.hasPrefix(".") && contents.holds(name)
        && pathStatus(atPath: parent.appendingPathComponent(name).path) == .regular
    }.sorted()
  }

  /// `SetupError.folderFlattened` when `folder` is missing and files it should hold sit loose
  /// beside it.
  static func check(
    _ folder: URL,
    holding contents: Contents,
    name: String,
    container: String
  ) throws {
    let loose = looseFiles(for: folder, holding: contents)
    guard !loose.isEmpty else { return }
    throw SetupError.folderFlattened(name: name, container: container, looseFiles: loose)
  }
}
