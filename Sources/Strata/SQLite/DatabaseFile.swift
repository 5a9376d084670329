import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// What is at a database path before strata opens it.
package enum DatabaseFileKind: Equatable, Sendable {
  /// Nothing: opening would create a new database.
  case missing
  /// A directory: never a database, never written into.
  case directory
  /// An empty file (SQLite treats it as an empty database).
  case empty
  /// A file that starts with SQLite's header.
  case sqlite
  /// A file with other content, or not a regular file (a FIFO, a device): never overwritten,
  /// never opened.
  case notSQLite
  /// A regular file the system refuses to open or read although its permissions allow it: on
  /// Apple platforms, protected by Data Protection while the device is locked. Never taken
  /// for a file that is not SQLite: it is intact and reads again once the device is unlocked.
  case protectedDataUnavailable
}

/// The 16 bytes every SQLite database file starts with.
let sqliteHeader: [UInt8] = Array("SQLite format 3".utf8) + [0]

/// Looks at `path` without disturbing anyone using it: its type and size come from `stat`,
/// and its header is read through SQLite (`readDatabaseHeader`), never by opening and closing
/// a descriptor of our own, which would drop every lock this process holds on the file.
/// A regular file this process may not read has no header to look at and is `notSQLite` here;
/// `checkDatabasePath`, which every opener calls first, reports it as permission denied
/// (asked with `faccessat`, which opens nothing).
package func databaseFileKind(at path: String) -> DatabaseFileKind {
  var info = stat()
  guard stat(path, &info) == 0 else { return .missing }
  switch info.st_mode & S_IFMT {
  case S_IFDIR: return .directory
  case S_IFREG: break
  default: return .notSQLite
  }
  if info.st_size == 0 { return .empty }
  var systemError: Int32 = 0
  guard let head = readDatabaseHeader(at: path, count: 16, systemError: &systemError) else {
    return systemError == EPERM ? .protectedDataUnavailable : .notSQLite
  }
  return head == sqliteHeader ? .sqlite : .notSQLite
}

/// Whether the file at `path` is a database in WAL mode (its header's read and write format
/// versions, bytes 18 and 19, are 2). Read as `databaseFileKind` reads, keeping every lock.
package func isWALDatabase(at path: String) -> Bool {
  guard databaseFileKind(at: path) == .sqlite,
    let head = readDatabaseHeader(at: path, count: 20)
  else { return false }
  return head[18] == 2 && head[19] == 2
}

/// The first `count` bytes of the regular file at `path`, or nil when it is shorter or cannot
/// be read.
///
/// Read through SQLite's own file layer, never with a descriptor of our own: on POSIX, closing
/// any descriptor of a file drops every `fcntl` lock the process holds on it, so an app's open
/// transaction would silently lose its lock (sqlite.org, "How To Corrupt An SQLite Database
/// File", §2.2). SQLite's unix VFS shares one record per file within a process and, when its
/// file is closed while another connection holds locks, keeps the descriptor open until those
/// locks are released. The read takes no lock and does not touch `-journal`, `-wal` or `-shm`.
func readDatabaseHeader(at path: String, count: Int) -> [UInt8]? {
  var systemError: Int32 = 0
  return readDatabaseHeader(at: path, count: count, systemError: &systemError)
}

/// `readDatabaseHeader(at:count:)`, setting `systemError` to the system's error number when
/// opening or reading failed (`EPERM`: refused by Data Protection, see
/// `DatabaseFileKind.protectedDataUnavailable`).
func readDatabaseHeader(at path: String, count: Int, systemError: inout Int32) -> [UInt8]? {
  var openFailure: Int32 = 0
  var readFailure: Int32 = 0
  let head =
    withSQLiteFile(at: path, openError: &openFailure) { file, read -> [UInt8]? in
      var bytes = [UInt8](repeating: 0, count: count)
      let rc = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32(count), 0) }
      // A file shorter than `count` is a short read (no system error); any other I/O error
      // carries the errno the unix layer kept for this file, never a stale global one.
      if rc & 0xFF == SQLITE_IOERR, rc != SQLITE_IOERR | (2 << 8),  // SQLITE_IOERR_SHORT_READ
        let control = file.pointee.pMethods?.pointee.xFileControl
      {
        var lastErrno: Int32 = 0
        if control(file, SQLITE_FCNTL_LAST_ERRNO, &lastErrno) == SQLITE_OK {
          readFailure = lastErrno
        }
      }
      return rc == SQLITE_OK ? bytes : nil
    } ?? nil
  systemError = openFailure != 0 ? openFailure : readFailure
  return head
}

/// Copying a database file failed; `reason` says why, in a few words.
struct DatabaseFileCopyError: Error {
  let reason: String
}

/// Copies the content of the database file at `source` (following a symlink to its file) into
/// a new regular file at `destination`, created with `permissions` less the umask, never over
/// an existing file. Read through SQLite's file layer, as `readDatabaseHeader` reads, so that
/// no lock this process holds on `source` is dropped. The copy is not synced.
func copyDatabaseFile(from source: String, to destination: String, permissions: mode_t) throws {
  let descriptor = open(
    destination,
    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
    permissions
  )
  guard descriptor >= 0 else {
    throw DatabaseFileCopyError(reason: String(cString: strerror(errno)))
  }
  defer { close(descriptor) }
  let failure: String? =
    withSQLiteFile(at: source) { file, read in
      guard let fileSize = file.pointee.pMethods?.pointee.xFileSize else { return "cannot read" }
      var size: sqlite3_int64 = 0
      guard fileSize(file, &size) == SQLITE_OK else { return "cannot read its size" }
      let chunk = 1 << 20
      var buffer = [UInt8](repeating: 0, count: chunk)
      var offset: sqlite3_int64 = 0
      while offset < size {
        let count = Int(min(sqlite3_int64(chunk), size - offset))
        let rc = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32(count), offset) }
        guard rc == SQLITE_OK else { return "reading it failed (SQLite error \(rc))" }
        if let problem = writeAll(descriptor, buffer, count: count) { return problem }
        offset += sqlite3_int64(count)
      }
      return nil
    } ?? "SQLite cannot open it"
  if let failure { throw DatabaseFileCopyError(reason: failure) }
}

/// Writes the first `count` bytes of `buffer`, or says why it could not.
private func writeAll(_ descriptor: Int32, _ buffer: [UInt8], count: Int) -> String? {
  var written = 0
  while written < count {
    let result = buffer.withUnsafeBytes { bytes -> Int in
      guard let base = bytes.baseAddress else { return 0 }
      return write(descriptor, base + written, count - written)
    }
    if result < 0 {
      if errno == EINTR { continue }
      return String(cString: strerror(errno))
    }
    written += result
  }
  return nil
}

/// Runs `body` with the file SQLite opens (read-only unless `writable`) for `path` and its read
/// method; nil when SQLite cannot open it. Opening reads nothing and takes no lock.
func withSQLiteFile<T>(
  at path: String,
  writable: Bool = false,
  _ body: (UnsafeMutablePointer<sqlite3_file>, ReadMethod) -> T
) -> T? {
  var openError: Int32 = 0
  return withSQLiteFile(at: path, writable: writable, openError: &openError, body)
}

/// `withSQLiteFile(at:writable:_:)`, setting `openError` to the system's error number when
/// SQLite could not open the file (Apple's SQLite reports a file Data Protection refuses as
/// SQLITE_AUTH: `EPERM` then).
func withSQLiteFile<T>(
  at path: String,
  writable: Bool = false,
  openError: inout Int32,
  _ body: (UnsafeMutablePointer<sqlite3_file>, ReadMethod) -> T
) -> T? {
  Connection.configured
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  let flags = (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX
  let rc = sqlite3_open_v2(path, &db, flags, nil)
  guard rc == SQLITE_OK, let db else {
    openError = rc & 0xFF == SQLITE_AUTH ? EPERM : db.map { sqlite3_system_errno($0) } ?? 0
    return nil
  }
  var pointer: UnsafeMutableRawPointer?
  guard sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
    let file = pointer?.assumingMemoryBound(to: sqlite3_file.self),
    let read = file.pointee.pMethods?.pointee.xRead
  else { return nil }
  return body(file, read)
}

typealias ReadMethod =
  @convention(c) (
    UnsafeMutablePointer<sqlite3_file>?, UnsafeMutableRawPointer?, Int32, sqlite3_int64
  ) -> Int32

/// Empties the regular file at `path` in place (truncated to no bytes, the same inode), through
/// SQLite's own file layer, under an exclusive lock taken as a writer takes it (waiting up to
/// `busyTimeout` milliseconds for other connections), then synced. For a file SQLite cannot
/// read as a database, which no connection can write into: an empty file is an empty database,
/// and SQLite deletes a `-journal` or `-wal` left beside an empty database rather than playing
/// it back. Returns why it failed, or nil.
package func emptyDatabaseFile(at path: String, busyTimeout: Int) -> String? {
  withSQLiteFile(at: path, writable: true) { file, _ -> String? in
    guard let methods = file.pointee.pMethods?.pointee, let lock = methods.xLock,
      let unlock = methods.xUnlock, let truncate = methods.xTruncate, let sync = methods.xSync
    else { return "SQLite's file layer cannot truncate it" }
    let deadline = ContinuousClock.now + .milliseconds(busyTimeout)
    for level in [SQLITE_LOCK_SHARED, SQLITE_LOCK_RESERVED, SQLITE_LOCK_EXCLUSIVE] {
      var rc = lock(file, level)
      while rc == SQLITE_BUSY, ContinuousClock.now < deadline {
        usleep(10_000)
        rc = lock(file, level)
      }
      guard rc == SQLITE_OK else {
        _ = unlock(file, SQLITE_LOCK_NONE)
        return rc == SQLITE_BUSY
          ? "another connection (in this app or another process) held a lock on it longer "
            + "than the busy timeout"
          : "it could not be locked (SQLite error \(rc))"
      }
    }
    defer { _ = unlock(file, SQLITE_LOCK_NONE) }
    var rc = truncate(file, 0)
    // FULL: on Apple platforms F_FULLFSYNC, past the drive's cache (no-op difference on Linux).
    if rc == SQLITE_OK { rc = sync(file, SQLITE_SYNC_FULL) }
    return rc == SQLITE_OK ? nil : "emptying it failed (SQLite error \(rc))"
  } ?? "SQLite cannot open it for writing"
}
