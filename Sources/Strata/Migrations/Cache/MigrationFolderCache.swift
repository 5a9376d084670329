import Foundation

/// A folder's migrations kept in one file, with a snapshot of the folder's entries
/// (`FolderSnapshot`), so that a run that only reports (`status`) reads one file instead of
/// every migration file when none of them has changed.
///
/// The snapshot is the whole key: an entry added, removed, renamed, or written (its size,
/// inode, modification or change time moved) makes the kept copy unusable, and the folder is
/// read in full. A copy is kept only of a folder whose every file had been still for
/// `FolderSnapshot.settlingSeconds` before it was read, and whose snapshot after the read is
/// the one before it: a write in the same clock tick as the read cannot leave times that vouch
/// for bytes strata did not read. Only folders read by their file names alone are kept (not
/// diesel's folders, Flyway's, or sql-migrate's ids, nor one with a link or a subfolder).
/// Anything wrong with the kept file (another build's, cut short, garbled) is a miss.
package struct MigrationFolderCache: Sendable {
  /// Where the copy is kept; its folder is made when missing.
  package let file: URL
  /// What the reading depends on besides the folder: the build of strata that reads it and
  /// how it was asked to (`MigrationSet.init(directory:…)`'s arguments). A copy made under
  /// another identity is a miss.
  package let identity: String

  package init(file: URL, identity: String) {
    self.file = file
    self.identity = identity
  }

  /// What one read did with the copy (tests check it; `status` has no use for it). Also
  /// `DatabaseHistoryCache`'s.
  package enum Outcome: Sendable, Equatable {
    /// The kept copy was still the files': none of them was read.
    case used
    /// The files were read, and a copy kept for the next run.
    case kept
    /// The files were read; no copy could be kept (they were being written, or are not of a
    /// kind kept, or the copy could not be written).
    case read
  }

  /// The folder's migrations, as `MigrationSet(directory:…)` reads them with the same
  /// arguments, from the kept copy when it is still the folder's.
  ///
  /// - Throws: what `MigrationSet(directory:…)` throws; a copy is never made of a folder that
  ///   does not read, so an error is always the folder's own.
  package func migrations(
    directory url: URL,
    displayPath: String,
    followSymlinks: Bool,
    format: MigrationFormat?,
    excluding exclusion: MigrationFileExclusion
  ) throws -> (MigrationSet, Outcome) {
    let key =
      identity + "\n"
      + [
        url.path, displayPath, followSymlinks ? "links" : "no-links", format?.rawValue ?? "-",
      ].joined(separator: "\n") + "\n" + exclusion.patterns.joined(separator: "\n")
    // Flyway's settings are read from the folder and from its parent: the parent's are part
    // of what the folder means.
    let parent = url.deletingLastPathComponent().path
    let besides = ["flyway.conf", "flyway.toml"].map { parent + "/" + $0 }
    let before = FolderSnapshot.take(folder: url.path, besides: besides)
    if let before, let bytes = CacheFile.read(file),
      let kept = MigrationCacheCodec.decode(bytes, key: key, snapshot: before)
    {
      return (kept, .used)
    }
    let set = try MigrationSet(
      directory: url,
      displayPath: displayPath,
      followSymlinks: followSymlinks,
      format: format,
      excluding: exclusion
    )
    guard let before, before.isSettled, Self.isKept(set),
      FolderSnapshot.take(folder: url.path, besides: besides)?.entries == before.entries,
      CacheFile.write(MigrationCacheCodec.encode(set, key: key, snapshot: before), to: file)
    else { return (set, .read) }
    return (set, .kept)
  }

  /// Folders named by their files alone: every version a number.
  static func isKept(_ set: MigrationSet) -> Bool {
    switch set.format {
    case .diesel, .flyway, .sqlMigrate: return false
    default:
      return set.repeatables.isEmpty && set.migrations.allSatisfy { $0.version.integerValue != nil }
    }
  }
}
