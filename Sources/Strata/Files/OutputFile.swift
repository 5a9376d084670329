import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file strata was asked to write refused to be written, because of what is already there.
/// Nothing was written, and what is there is untouched.
package enum OutputFileError: StrataError, Equatable {
  /// A file exists at the path and replacing was not asked for.
  case exists(path: String)
  /// What is at the path is not a file strata may replace, even when asked.
  case notReplaceable(path: String, reason: String)
  /// A journal (`-wal` or `-journal`) beside the path holds changes that SQLite would read as
  /// part of the new file.
  case journalBeside(path: String, journal: String, pathExists: Bool)

  /// What was refused and where; nothing was written.
  package var message: String {
    switch self {
    case .exists(let path):
      "\(path) already exists; strata wrote nothing and left it untouched"
    case .notReplaceable(let path, let reason):
      "\(path) \(reason), so strata will not replace it, even when asked to; "
        + "strata wrote nothing and left it untouched"
    case .journalBeside(let path, let journal, let pathExists):
      pathExists
        ? "\(journal) beside \(path) holds changes not yet written into \(path) (a process is "
          + "using that database, or stopped while writing it); SQLite would read them as part "
          + "of a new file there, so strata wrote nothing and left both untouched"
        : "\(journal) exists although \(path) does not (a leftover of a database that was "
          + "there); SQLite would read it as part of a new file there, so strata wrote nothing "
          + "and left it untouched"
    }
  }

  /// What to do next, for this kind of refusal.
  package var help: String { help { $0.description } }
}

extension OutputFileError: RemedialError {
  /// The help, with each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .exists:
      sentence(say(.replaceOutput)) + " (strata replaces only an empty file or a template it "
        + "built that no one changed since), or \(say(.otherOutput))."
    case .notReplaceable:
      sentence(say(.otherOutput))
        + ". strata replaces only an empty file or a database whose every "
        + "table is exactly what the migrations it records build (their files present and "
        + "unedited); if you really mean to replace that file, move it away yourself first."
    case .journalBeside(_, let journal, false):
      sentence(say(.otherOutput)) + "; or, if \(journal) is a leftover you do not need, remove it "
        + "(and any -shm beside it) and try again."
    case .journalBeside(let path, _, true):
      sentence(say(.otherOutput))
        + "; or, if \(path) is a database no process is using, open it once "
        + "(sqlite3 \(path) 'PRAGMA wal_checkpoint(TRUNCATE)') so SQLite finishes or rolls back "
        + "those changes, then try again."
    }
  }
}

/// The one rule for every file strata writes on request (`strata template --output`): a new
/// path is written; an existing file is replaced only when the user asked (`replacing`), and
/// then only when it is an empty file or a database `verify` accepts as exactly strata's own
/// output (a template no one changed since), never a database with user rows, a text file or
/// anything that is not a regular file. A non-empty `-wal` or `-journal` beside the path is
/// never paired with the new file.
enum OutputFile {
  /// What was at the destination when it was checked, to make sure the file replaced is the
  /// file checked.
  struct Existing: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: [Int]
    let changed: [Int]
    /// The permission bits (`st_mode & 0o7777`).
    let mode: mode_t

    init?(_ path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      device = UInt64(truncatingIfNeeded: info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      #if canImport(Darwin)
      modified = [Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec)]
      changed = [Int(info.st_ctimespec.tv_sec), Int(info.st_ctimespec.tv_nsec)]
      #else
      modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
      changed = [Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
      #endif
      mode = info.st_mode & 0o7777
    }
  }

  /// Throws `OutputFileError` when `destination` must not be written. Returns what is there
  /// (to be replaced), nil when nothing is. `verify` is asked only about an SQLite database
  /// the user asked to replace, and throws when it is not strata's own output.
  static func checkWritable(
    _ destination: URL,
    replacing: Bool,
    verify: (String) throws -> Void
  ) throws -> Existing? {
    let path = destination.path
    try checkJournals(beside: path)
    switch databaseFileKind(at: path) {
    case .missing: return nil
    case .directory: throw DatabaseOpenError.isDirectory(path: path)
    case .protectedDataUnavailable: throw DatabaseOpenError.protectedDataUnavailable(path: path)
    case .notSQLite:
      let reason = isRegularFile(path) ? "is not a template strata built" : "is not a regular file"
      throw OutputFileError.notReplaceable(path: path, reason: reason)
    case .empty:
      guard replacing else { throw OutputFileError.exists(path: path) }
    case .sqlite:
      guard replacing else { throw OutputFileError.exists(path: path) }
      try verify(path)
    }
    guard let existing = Existing(path) else { throw OutputFileError.exists(path: path) }
    return existing
  }

  /// Throws `OutputFileError` when, since `checkWritable` returned `existing`, a journal with
  /// changes appeared beside `destination` or the file there changed (written, replaced or
  /// its permissions changed): the file checked is the only file replaced.
  static func checkUnchanged(_ destination: URL, since existing: Existing?) throws {
    let path = destination.path
    try checkJournals(beside: path)
    guard let existing else { return }
    guard Existing(path) == existing else {
      throw OutputFileError.notReplaceable(
        path: path,
        reason: "changed while strata was building the new file"
      )
    }
  }

  private static func checkJournals(beside path: String) throws {
    for suffix in ["-wal", "-journal"] where fileSize(path + suffix) ?? 0 > 0 {
      throw OutputFileError.journalBeside(
        path: path,
        journal: path + suffix,
        pathExists: databaseFileKind(at: path) != .missing
      )
    }
  }

  /// Removes the empty journals and `-shm` left beside `destination`, just before a new file
  /// takes its name (`checkWritable` has refused any journal that holds changes).
  static func removeEmptyJournals(beside destination: URL) {
    let path = destination.path
    for suffix in ["-wal", "-journal"] where fileSize(path + suffix) == 0 {
      unlink(path + suffix)
    }
    unlink(path + "-shm")
  }

  /// The size of the regular file at `path`, or nil when there is none.
  private static func fileSize(_ path: String) -> Int64? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return Int64(info.st_size)
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }
}
