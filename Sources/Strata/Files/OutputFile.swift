import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file strata was asked to write refused to be written, because of what is already there.
/// Nothing was written, and what is there is untouched.
public enum OutputFileError: StrataError, Equatable {
  /// A file exists at the path and replacing was not asked for.
  case exists(path: String)
  /// What is at the path is not a file strata may replace, even when asked.
  case notReplaceable(path: String, reason: String)
  /// A journal (`-wal` or `-journal`) beside the path holds changes that SQLite would read as
  /// part of the new file.
  case journalBeside(path: String, journal: String, pathExists: Bool)

  /// What was refused and where; nothing was written.
  public var message: String {
    switch self {
    case .exists(let path):
      "\(path) already exists; strata wrote nothing and left it untouched"
    case .notReplaceable(let path, let reason):
      "\(path) \(reason), so strata will not replace it, even with --force; "
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
  public var help: String {
    switch self {
    case .exists:
      "Pass --force to replace it (strata replaces only a template it built or an empty file), "
        + "or choose another --output."
    case .notReplaceable:
      "Choose another --output; if you really mean to replace that file, move it away yourself "
        + "first."
    case .journalBeside(_, let journal, false):
      "Choose another --output; or, if \(journal) is a leftover you do not need, remove it "
        + "(and any -shm beside it) and try again."
    case .journalBeside(let path, _, true):
      "Choose another --output; or, if \(path) is a database no process is using, open it once "
        + "(sqlite3 \(path) 'PRAGMA wal_checkpoint(TRUNCATE)') so SQLite finishes or rolls back "
        + "those changes, then try again."
    }
  }
}

/// The one rule for every file strata writes on request (`strata template --output`): a new
/// path is written; an existing file is replaced only when the user asked (`replacing`), and
/// then only when it is an empty file or a file `isOwnOutput` recognises as strata's own
/// output (a template), never a database with user rows, a text file or anything that is not
/// a regular file. A non-empty `-wal` or `-journal` beside the path is never paired with the
/// new file.
enum OutputFile {
  /// Throws `OutputFileError` when `destination` must not be written. Returns whether a file
  /// is there (to be replaced).
  static func checkWritable(
    _ destination: URL,
    replacing: Bool,
    isOwnOutput: (String) -> Bool
  ) throws -> Bool {
    let path = destination.path
    for suffix in ["-wal", "-journal"] where fileSize(path + suffix) ?? 0 > 0 {
      throw OutputFileError.journalBeside(
        path: path,
        journal: path + suffix,
        pathExists: databaseFileKind(at: path) != .missing
      )
    }
    let exists: Bool
    switch databaseFileKind(at: path) {
    case .missing: return false
    case .directory: throw DatabaseOpenError.isDirectory(path: path)
    case .notSQLite:
      let reason = isRegularFile(path) ? "is not a template strata built" : "is not a regular file"
      throw OutputFileError.notReplaceable(path: path, reason: reason)
    case .empty: exists = true
    case .sqlite:
      guard isOwnOutput(path) else {
        throw OutputFileError.notReplaceable(
          path: path,
          reason: "is an SQLite database that is not a template strata built (it may hold rows)"
        )
      }
      exists = true
    }
    guard replacing else { throw OutputFileError.exists(path: path) }
    return exists
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
