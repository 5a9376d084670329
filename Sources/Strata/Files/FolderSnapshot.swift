import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
import StrataStatfs
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
    guard isOnLocalDisk(path), let folder = opendir(path) else { return nil }
    defer { closedir(folder) }
    let descriptor = dirfd(folder)
    var names: [String] = []
    while let record = readdir(folder) {
      let name = withUnsafeBytes(of: record.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      names.append(name)
    }
    var entries: [Entry] = []
    entries.reserveCapacity(names.count + besides.count)
    for entry in statEntries(names, in: descriptor) {
      guard let entry, entry.exists, entry.mode & UInt32(S_IFMT) == UInt32(S_IFREG)
      else { return nil }
      entries.append(entry)
    }
    guard let others = regularOrMissing(besides) else { return nil }
    return FolderSnapshot(entries: entries + others, takenAt: takenAt)
  }

  /// Takes a snapshot of the files at `paths`, which may be missing (a database and the
  /// journal files beside it). Nil when one is there but is not a regular file (a link is not
  /// followed), or the first is not on a local disk.
  static func take(files paths: [String]) -> FolderSnapshot? {
    let takenAt = Timestamp.now
    guard let first = paths.first, isOnLocalDisk(first), let entries = regularOrMissing(paths)
    else { return nil }
    return FolderSnapshot(entries: entries, takenAt: takenAt)
  }

  /// The files at `paths`, each missing or a regular file (a link is not followed); nil when
  /// one is anything else or cannot be looked at.
  private static func regularOrMissing(_ paths: [String]) -> [Entry]? {
    var entries: [Entry] = []
    for path in paths {
      guard let entry = entry(path, in: AT_FDCWD),
        !entry.exists || entry.mode & UInt32(S_IFMT) == UInt32(S_IFREG)
      else { return nil }
      entries.append(entry)
    }
    return entries
  }

  /// Whether `path` (or, when it is missing, its folder) is on a file system whose times `stat`
  /// gives as they are: not a network or user-space one, where a client may hold a file's
  /// attributes for up to a minute after another machine wrote it (NFS's attribute cache), or
  /// the file system may keep no change time at all.
  static func isOnLocalDisk(_ path: String) -> Bool {
    let folder = (path as NSString).deletingLastPathComponent
    #if canImport(Darwin)
    // The volume's own answer: `statfs` is a required-reason API on Apple platforms (disk
    // space, docs/apple-platforms.md), and this question needs none.
    for candidate in [path, folder] {
      let values = try? URL(fileURLWithPath: candidate).resourceValues(forKeys: [.volumeIsLocalKey])
      if let isLocal = values?.volumeIsLocal { return isLocal }
    }
    return false
    #else
    var info = statfs()
    guard statfs(path, &info) == 0 || statfs(folder, &info) == 0 else { return false }
    // NFS, SMB, SMB2, CIFS, FUSE, 9P, Ceph, AFS, Coda, VirtualBox's shared folders, Lustre,
    // GFS2, OCFS2.
    let remote: Set<Int64> = [
      0x6969, 0x517B, 0xFE53_4D42, 0xFF53_4D42, 0x6573_5546, 0x0102_1997, 0x00C3_6400,
      0x5346_414F, 0x7375_7245, 0x786F_4256, 0x0BD0_0BD0, 0x0116_1970, 0x7461_636F,
    ]
    return !remote.contains(Int64(info.f_type))
    #endif
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

  /// The entries `names` of the folder open as `descriptor`, in order. A thousand `stat`
  /// calls are most of a snapshot's time: a large folder's are shared among up to four
  /// threads, each taking a run of the names.
  private static func statEntries(_ names: [String], in descriptor: Int32) -> [Entry?] {
    let chunks = min(4, ProcessInfo.processInfo.activeProcessorCount, names.count / 128 + 1)
    guard chunks > 1 else { return names.map { entry($0, in: descriptor) } }
    return [Entry?](unsafeUninitializedCapacity: names.count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      // Each chunk initializes only its own slots; `concurrentPerform` returns once every
      // chunk has run.
      nonisolated(unsafe) let slots = base
      let size = (names.count + chunks - 1) / chunks
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        for index in chunk * size..<min(names.count, (chunk + 1) * size) {
          (slots + index).initialize(to: entry(names[index], in: descriptor))
        }
      }
      initialized = names.count
    }
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
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(info.st_ino),
      size: Int64(info.st_size),
      mode: UInt32(info.st_mode),
      modified: Timestamp(seconds: Int64(modified.tv_sec), nanoseconds: Int64(modified.tv_nsec)),
      changed: Timestamp(seconds: Int64(changed.tv_sec), nanoseconds: Int64(changed.tv_nsec))
    )
  }
}
