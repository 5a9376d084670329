#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder's entries as `stat` sees them, and the files beside it that a read of the folder
/// also opens, so that two snapshots taken at different times are equal only when nothing the
/// read depends on was written, replaced, renamed, added or removed in between.
///
/// Each entry keeps its device, inode, size, mode and both its modification and its change
/// time to the nanosecond: an edit that keeps the size and puts the modification time back
/// (`touch -r`, `cp -p`, an archive's times) still moves the change time, which no user can set.
package struct FolderSnapshot: Sendable {
  package struct Entry: Equatable, Sendable {
    /// The entry's name in the folder, or the path of a file beside it.
    package let name: String
    /// False for a file beside the folder that is not there (its absence is part of the state).
    package let exists: Bool
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    package let mode: UInt32
    package let modified: Timestamp
    package let changed: Timestamp

    /// Device, inode, size and both times: what says one version of a file from another.
    package var identity: String {
      "\(device) \(inode) \(size) \(modified) \(changed)"
    }
  }

  /// Seconds and nanoseconds since 1970, as `stat` and `clock_gettime` give them.
  package struct Timestamp: Equatable, Comparable, Sendable, CustomStringConvertible {
    let seconds: Int64
    let nanoseconds: Int64

    package var description: String { "\(seconds).\(nanoseconds)" }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
      (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// The wall clock now.
    static var now: Timestamp {
      var time = timespec()
      clock_gettime(CLOCK_REALTIME, &time)
      return Timestamp(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
    }
  }

  /// In the order the folder lists them, then `besides`. Not sorted (a fifth of the time a
  /// snapshot of 1,000 files takes): a folder listed in another order with the same entries
  /// only misses its copy.
  let entries: [Entry]
  /// When the snapshot was begun (before the first `stat`).
  let takenAt: Timestamp

  /// How long before `takenAt` an entry must have last changed for the snapshot to vouch for
  /// it. A file written again within the same tick of its file system's clock (a second on
  /// some, two on FAT) keeps its times; only files that have been still since well before
  /// the read can be known unchanged by their times.
  static let settlingSeconds: Int64 = 3

  /// Takes a snapshot of the folder at `path` and of the files at the paths `besides`, which
  /// may be missing.
  ///
  /// Nil when the folder cannot be listed or holds anything but regular files (a link, a
  /// folder, a pipe), or one of `besides` is there but is not a regular file: those are read
  /// by rules a snapshot of times cannot stand for.
  static func take(folder path: String, besides: [String] = []) -> FolderSnapshot? {
    let takenAt = Timestamp.now
    guard let folder = opendir(path) else { return nil }
    defer { closedir(folder) }
    let descriptor = dirfd(folder)
    var entries: [Entry] = []
    while let record = readdir(folder) {
      let name = withUnsafeBytes(of: record.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      guard let entry = entry(name, in: descriptor), entry.exists,
        entry.mode & UInt32(S_IFMT) == UInt32(S_IFREG)
      else { return nil }
      entries.append(entry)
    }
    for other in besides {
      guard let entry = entry(other, in: AT_FDCWD),
        !entry.exists || entry.mode & UInt32(S_IFMT) == UInt32(S_IFREG)
      else { return nil }
      entries.append(entry)
    }
    return FolderSnapshot(entries: entries, takenAt: takenAt)
  }

  /// Whether every entry last changed at least `settlingSeconds` before the snapshot was taken
  /// (an entry dated in the future never is).
  var isSettled: Bool {
    let limit = Timestamp(
      seconds: takenAt.seconds - Self.settlingSeconds,
      nanoseconds: takenAt.nanoseconds
    )
    return entries.allSatisfy { !$0.exists || ($0.modified < limit && $0.changed < limit) }
  }

  /// The file at `path`, following links (the running executable, `/proc/self/exe`); nil
  /// when it is not there or cannot be looked at.
  package static func file(atPath path: String) -> Entry? {
    entry(path, in: AT_FDCWD, followingLinks: true).flatMap { $0.exists ? $0 : nil }
  }

  /// The entry `name` of the folder open as `descriptor` (a path, with `AT_FDCWD`), not
  /// following a link unless asked; one that is not there has `exists` false; nil when it
  /// cannot be looked at.
  private static func entry(
    _ name: String,
    in descriptor: Int32,
    followingLinks: Bool = false
  ) -> Entry? {
    var info = stat()
    let flags = followingLinks ? 0 : AT_SYMLINK_NOFOLLOW
    guard fstatat(descriptor, name, &info, flags) == 0 else {
      guard errno == ENOENT else { return nil }
      let zero = Timestamp(seconds: 0, nanoseconds: 0)
      return Entry(
        name: name,
        exists: false,
        device: 0,
        inode: 0,
        size: 0,
        mode: 0,
        modified: zero,
        changed: zero
      )
    }
    #if canImport(Darwin)
    let modified = info.st_mtimespec
    let changed = info.st_ctimespec
    #else
    let modified = info.st_mtim
    let changed = info.st_ctim
    #endif
    return Entry(
      name: name,
      exists: true,
      device: UInt64(info.st_dev),
      inode: UInt64(info.st_ino),
      size: Int64(info.st_size),
      mode: UInt32(info.st_mode),
      modified: Timestamp(seconds: Int64(modified.tv_sec), nanoseconds: Int64(modified.tv_nsec)),
      changed: Timestamp(seconds: Int64(changed.tv_sec), nanoseconds: Int64(changed.tv_nsec))
    )
  }
}
