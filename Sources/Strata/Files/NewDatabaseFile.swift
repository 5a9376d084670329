import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new database is made in a temporary file beside its final name and linked to that name
/// only when it is complete and on disk (a copied template, a database built by its
/// migrations): a crash at any moment leaves either no database or a whole one, and a file
/// that appears at the name meanwhile is never overwritten. The one place such files are
/// named, linked and swept.
enum NewDatabaseFile {
  /// How old a temporary file must be before a run removes it as a leftover of a crash.
  static let staleAfter: Double = 600

  /// A fresh temporary name for `destination`: `.<name>.strata-<UUID>.tmp`, in its folder
  /// (a link cannot cross file systems).
  static func temporaryURL(for destination: URL) -> URL {
    destination.deletingLastPathComponent()
      .appendingPathComponent("\(prefix(destination))\(UUID().uuidString).tmp")
  }

  /// Removes a temporary file and whatever SQLite wrote beside it.
  static func remove(_ temporary: URL) {
    for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary.path + suffix) }
  }

  /// Removes what an interrupted run left beside `destination` (a `kill -9` before the link):
  /// the temporary file and the journal SQLite wrote beside it. Only once they are old, so
  /// that a run in progress in another process is never touched.
  static func removeLeftovers(of destination: URL) {
    removeStaleFiles(
      in: destination.deletingLastPathComponent(),
      prefix: prefix(destination),
      suffixes: [".tmp", ".tmp-journal", ".tmp-wal", ".tmp-shm"],
      olderThan: staleAfter
    )
  }

  /// Removes every temporary file for `destination`, whatever its age, once a database is
  /// linked there: a build another process still runs then fails to link (and takes the file
  /// that is there, see `linkIntoPlace`), so anything left is a leftover of a killed run.
  static func removeAll(of destination: URL) {
    removeStaleFiles(
      in: destination.deletingLastPathComponent(),
      prefix: prefix(destination),
      suffixes: [".tmp", ".tmp-journal", ".tmp-wal", ".tmp-shm"],
      olderThan: -.infinity
    )
  }

  /// Flushes `temporary` to disk and links it to `destination`, then flushes the folder.
  ///
  /// - Returns: false when a file is already at `destination` (another process made it first);
  ///   `temporary` is left for the caller to remove either way.
  /// - Throws: `FileSyncError` when the flush or the link fails; nothing is at `destination`.
  static func linkIntoPlace(_ temporary: URL, at destination: URL) throws -> Bool {
    try Durability.syncFile(at: temporary.path)
    if link(temporary.path, destination.path) != 0 {
      let code = errno
      // Taken, or this file was swept by a run that linked its own database there first.
      if code == EEXIST || (code == ENOENT && nameIsTaken(destination)) { return false }
      throw FileSyncError(
        reason: "linking it into place failed: \(String(cString: strerror(code)))"
      )
    }
    // The database exists now; a folder that cannot be synced cannot be helped.
    try? Durability.syncDirectory(destination.deletingLastPathComponent())
    return true
  }

  /// Whether anything (a file, a folder, a link, even a dangling one) has the name.
  static func nameIsTaken(_ destination: URL) -> Bool {
    var info = stat()
    return lstat(destination.path, &info) == 0 || errno != ENOENT
  }

  private static func prefix(_ destination: URL) -> String {
    ".\(destination.lastPathComponent).strata-"
  }
}
