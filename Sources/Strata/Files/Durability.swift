import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a file strata just created durable before strata says it is done: its content, then
/// its name. A rename or a link is only on disk once the folder that holds the name is
/// synced too; without it a power cut can leave the old file, or none, after "Wrote …".
///
/// Only for files strata created itself and no connection has open: closing a descriptor of a
/// file drops every lock this process holds on it (see `readDatabaseHeader`).
enum Durability {
  /// Flushes the content of the file at `path` to disk.
  static func syncFile(at path: String) throws {
    let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(errno) }
    defer { close(descriptor) }
    guard flushToStorage(descriptor) == 0 else { throw failure(errno) }
  }

  /// Flushes `folder`'s entries (a name just linked or renamed into it) to disk.
  static func syncDirectory(_ folder: URL) throws {
    let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(errno) }
    defer { close(descriptor) }
    // Some file systems cannot sync a directory (EINVAL): nothing more can be done there.
    guard flushToStorage(descriptor) == 0 || errno == EINVAL else { throw failure(errno) }
  }

  /// Flushes `descriptor`'s data to the storage itself, so that it survives a power cut: 0, or
  /// -1 with `errno` set.
  ///
  /// On Apple platforms `fsync` only hands the data to the drive, whose cache may still lose
  /// it; `F_FULLFSYNC` asks the drive to write its cache out, as SQLite's `PRAGMA fullfsync`
  /// does (docs/RELIABILITY.md, "Power cuts, per platform"). Some file systems (network ones,
  /// FAT) refuse it: `fsync` then, the most they offer. On Linux `fsync` already flushes the
  /// drive's cache (when the drive honours flush requests).
  static func flushToStorage(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
    // Only a file system that cannot do it falls back; an I/O error is the answer.
    guard errno == ENOTSUP || errno == EINVAL || errno == ENOTTY else { return -1 }
    #endif
    return fsync(descriptor)
  }

  private static func failure(_ code: Int32) -> FileSyncError {
    FileSyncError(reason: "syncing it to disk failed: \(String(cString: strerror(code)))")
  }
}

/// Syncing a file strata wrote failed; `reason` says why, in a few words.
struct FileSyncError: Error {
  let reason: String
  /// A hard link failed because the file system cannot make one (FAT, some network shares).
  var linksUnsupported = false
}
