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
/// named, locked, linked and swept.
enum NewDatabaseFile {
  /// How old a temporary file must be before a run that cannot take the build lock removes it
  /// anyway (a file system without `flock`).
  static let staleAfter: Double = 600

  /// A fresh temporary name for `destination`: `.<name>.strata-<UUID>.tmp`, in its folder
  /// (a link cannot cross file systems); nil when that name, with SQLite's `-journal` after
  /// it, would be longer than a file name may be (the caller then works on `destination`).
  static func temporaryURL(for destination: URL) -> URL? {
    let name = "\(prefix(destination))\(UUID().uuidString).tmp"
    guard name.utf8.count + "-journal".utf8.count <= Int(NAME_MAX) else { return nil }
    return destination.deletingLastPathComponent().appendingPathComponent(name)
  }

  /// Removes a temporary file and whatever SQLite wrote beside it.
  static func remove(_ temporary: URL) {
    for suffix in ["", "-journal", "-wal", "-shm", "-link"] { unlink(temporary.path + suffix) }
  }

  /// Removes what interrupted runs left beside `destination` (a `kill -9` before the link, or
  /// between the link and the end): the temporary files and the journals SQLite wrote beside
  /// them. Only under the build lock, which every run making such a file holds until it is
  /// done, so that a build in progress in another process is never touched; when the lock
  /// cannot be taken at all (no `flock`), only files older than `staleAfter`; while another
  /// process holds it, nothing.
  static func removeLeftovers(of destination: URL) {
    guard hasTemporaryFiles(destination) || nameIsTaken(lockURL(destination)) else { return }
    do {
      let lock = try BuildLock(for: destination, waitingMilliseconds: 0)
      removeTemporaryFiles(destination)
      lock.release()
    } catch .busy {
      return
    } catch {
      removeTemporaryFiles(destination, olderThan: staleAfter)
    }
  }

  /// `removeLeftovers` for a run that finds the database there: only when the lock file says
  /// a run was killed (or is building), so that an ordinary run costs one `lstat`.
  static func removeLeftoversOfKilledRuns(of destination: URL) {
    guard nameIsTaken(lockURL(destination)) else { return }
    removeLeftovers(of: destination)
  }

  static func lockURL(_ destination: URL) -> URL {
    destination.deletingLastPathComponent().appendingPathComponent("\(prefix(destination))lock")
  }

  /// Flushes `temporary` to disk and links it to `destination`, then flushes the folder.
  ///
  /// - Returns: false when a file is already at `destination` (another process made it first);
  ///   `temporary` is left for the caller to remove either way.
  /// - Throws: `FileSyncError` when the flush or the link fails (`linksUnsupported` when the
  ///   file system has no hard links); nothing is at `destination`.
  static func linkIntoPlace(_ temporary: URL, at destination: URL) throws -> Bool {
    do {
      try Durability.syncFile(at: temporary.path)
    } catch  where !nameIsTaken(temporary) && nameIsTaken(destination) {
      // Swept by a run that made its database there first (one that did not wait for this
      // one's lock: a file system without `flock`).
      return false
    }
    if link(temporary.path, destination.path) != 0 {
      let code = errno
      if code == EEXIST || (code == ENOENT && nameIsTaken(destination)) { return false }
      throw FileSyncError(
        reason: "linking it into place failed: \(String(cString: strerror(code)))",
        linksUnsupported: [EPERM, EOPNOTSUPP, ENOTSUP, EXDEV, EMLINK].contains(code)
      )
    }
    // The database exists now; a folder that cannot be synced cannot be helped.
    try? Durability.syncDirectory(destination.deletingLastPathComponent())
    return true
  }

  /// Creates `temporary` (empty, with the mode SQLite gives a new database) and tells whether
  /// its file system can give it a second name, which linking it into place needs.
  static func canLink(_ temporary: URL) -> Bool {
    let descriptor = open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    let probe = temporary.path + "-link"
    guard link(temporary.path, probe) == 0 else { return false }
    unlink(probe)
    return true
  }

  /// Whether anything (a file, a folder, a link, even a dangling one) has the name.
  static func nameIsTaken(_ destination: URL) -> Bool {
    var info = stat()
    return lstat(destination.path, &info) == 0 || errno != ENOENT
  }

  fileprivate static func prefix(_ destination: URL) -> String {
    ".\(destination.lastPathComponent).strata-"
  }

  private static let suffixes = [".tmp", ".tmp-journal", ".tmp-wal", ".tmp-shm", ".tmp-link"]

  private static func hasTemporaryFiles(_ destination: URL) -> Bool {
    let folder = destination.deletingLastPathComponent().path
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return false
    }
    let prefix = prefix(destination)
    return names.contains { $0.hasPrefix(prefix) && suffixes.contains(where: $0.hasSuffix) }
  }

  /// Removes the temporary files for `destination` (the caller holds the build lock).
  static func removeTemporaryFiles(_ destination: URL, olderThan age: Double = -.infinity) {
    removeStaleFiles(
      in: destination.deletingLastPathComponent(),
      prefix: prefix(destination),
      suffixes: suffixes,
      olderThan: age
    )
  }
}

/// Held while a new database for a name is made (`.<name>.strata-lock`, with `flock`): a
/// second process that would make the same one waits, then finds the name taken and works on
/// the file that is there, so each migration still runs exactly once. The kernel drops it
/// when its process dies; the file goes when the lock is released.
final class BuildLock {
  private let descriptor: Int32
  private let path: String
  private var released = false

  /// Waits up to `waitingMilliseconds` for the lock.
  ///
  /// - Throws: `BuildLockError.busy` when another process held it all that time;
  ///   `.unavailable` when the lock file cannot be made or locked (the caller then goes
  ///   without).
  init(for destination: URL, waitingMilliseconds: Int) throws(BuildLockError) {
    let path = NewDatabaseFile.lockURL(destination).path
    let deadline = Date().addingTimeInterval(Double(waitingMilliseconds) / 1000)
    while true {
      // Read only: `flock` needs no more, and a lock file another user left stays usable.
      let descriptor = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
      guard descriptor >= 0 else { throw .unavailable }
      var acquired = false
      while !acquired {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
          acquired = true
        } else if errno != EWOULDBLOCK && errno != EINTR {
          close(descriptor)
          throw .unavailable
        } else if Date() >= deadline {
          close(descriptor)
          throw .busy
        } else {
          usleep(5_000)
        }
      }
      // The holder before removes the file as it releases: a lock on a file no longer at the
      // path locks nothing, so look again.
      var held = stat()
      var named = stat()
      if fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_dev == named.st_dev,
        held.st_ino == named.st_ino
      {
        self.descriptor = descriptor
        self.path = path
        return
      }
      close(descriptor)
    }
  }

  /// The lock for a run that makes the database at `destination`: nil when it cannot be taken
  /// at all (no `flock`: the run goes without, as before there was a lock).
  ///
  /// - Throws: `DatabaseOpenError.beingCreated` when another process held it for
  ///   `waitingMilliseconds`.
  static func forCreating(
    _ destination: URL,
    waitingMilliseconds: Int
  ) throws(DatabaseOpenError) -> BuildLock? {
    do {
      return try BuildLock(for: destination, waitingMilliseconds: waitingMilliseconds)
    } catch .busy {
      throw .beingCreated(path: destination.path, waitedMilliseconds: waitingMilliseconds)
    } catch {
      return nil
    }
  }

  /// Removes the lock file and releases the lock (in that order: whoever waits then looks
  /// again, see `init`).
  func release() {
    guard !released else { return }
    released = true
    unlink(path)
    close(descriptor)
  }

  deinit { release() }
}

/// Why `BuildLock` was not taken.
enum BuildLockError: Error {
  case busy
  case unavailable
}
