import Foundation

/// What strata will do with a database it opens.
public enum DatabaseAccess: Sendable {
  /// Read only; the file must exist. Creates nothing; writes only to roll back a hot journal a
  /// crashed writer left (as the next writer would), so that what is read is the last
  /// committed state rather than a half-written one.
  case read
  /// Read and write; the file must exist.
  case write
  /// Read and write, creating the file (not its folder) when missing.
  case create
}

extension Connection {
  /// Opens a database for strata, checking the path first so that a directory, a file that is
  /// not SQLite or a read-only file is reported clearly and never changed.
  ///
  /// Foreign keys are turned on, as an app's connection would have them.
  ///
  /// - Parameter url: the database file.
  /// - Parameter access: read, write, or create when missing.
  /// - Parameter busyTimeout: how long to wait for another process's lock, in milliseconds.
  /// - Parameter createsFolder: with `.create`, make the file's folder when it is missing (the
  ///   default documents folder); otherwise a missing folder is an error.
  /// - Parameter configuration: the extensions and functions every connection gets; when it
  ///   fails on a file this call created, the (empty) file is removed again.
  /// - Throws: `DatabaseOpenError` for a missing file or folder, a directory, a file that is not
  ///   SQLite, a read-only file or folder, or an SQLite failure while opening;
  ///   `ExtensionLoadError` or the configuration's own error when the configuration fails.
  public static func open(
    at url: URL,
    access: DatabaseAccess,
    busyTimeout: Int = Connection.defaultBusyTimeout,
    createsFolder: Bool = false,
    configuration: ConnectionConfiguration = .none
  ) throws -> Connection {
    let path = url.path
    try checkDatabasePath(url)
    let wasMissing = databaseFileKind(at: path) == .missing
    do {
      return try openChecked(
        url,
        access: access,
        busyTimeout: busyTimeout,
        createsFolder: createsFolder,
        configuration: configuration
      )
    } catch {
      // An empty file SQLite created for this call goes again: nothing was changed.
      if wasMissing, databaseFileKind(at: path) == .empty { unlink(path) }
      throw error
    }
  }
}

/// `Connection.open(at:…)`'s work, after the path was checked.
private func openChecked(
  _ url: URL,
  access: DatabaseAccess,
  busyTimeout: Int,
  createsFolder: Bool,
  configuration: ConnectionConfiguration
) throws -> Connection {
  let path = url.path
  switch databaseFileKind(at: path) {
  case .directory:
    throw DatabaseOpenError.isDirectory(path: path)
  case .notSQLite:
    throw DatabaseOpenError.notADatabase(path: path)
  case .protectedDataUnavailable:
    throw DatabaseOpenError.protectedDataUnavailable(path: path)
  case .missing:
    switch access {
    case .read, .write:
      throw DatabaseOpenError.missing(path: path)
    case .create:
      try prepareFolder(for: url, creating: createsFolder)
      try checkWritableFolder(for: url)
    }
  case .empty, .sqlite:
    if access != .read, !isWritable(path) {
      throw DatabaseOpenError.readOnly(path: path)
    }
    if access != .read { try checkWritableFolder(for: url) }
  }
  let mode: Connection.OpenMode =
    switch access {
    case .read: .readOnly
    case .write: .readWrite
    case .create: .readWriteCreate
    }
  do {
    do {
      return try connect(path, mode: mode, busyTimeout: busyTimeout, configuration: configuration)
    } catch let error as SQLiteError where access == .read && error.isHotJournal {
      // A writer stopped in the middle of a transaction (a crash, kill -9, power loss) and left
      // its journal. A read-only connection cannot roll it back; a connection that may write
      // does so as it opens, exactly as the next writer would: the file returns to its last
      // committed state. Then read as asked.
      guard isWritable(path),
        isWritableFolder(resolvingSymlinks(url).deletingLastPathComponent().path)
      else {
        throw DatabaseOpenError.hotJournal(path: path)
      }
      _ = try connect(path, mode: .readWrite, busyTimeout: busyTimeout, configuration: .none)
      return try connect(path, mode: mode, busyTimeout: busyTimeout, configuration: configuration)
    }
  } catch let error as SQLiteError {
    if error.isProtectedDataUnavailable {
      throw DatabaseOpenError.protectedDataUnavailable(path: path)
    }
    if error.isNotADatabase { throw DatabaseOpenError.notADatabase(path: path) }
    if error.isHotJournal { throw DatabaseOpenError.hotJournal(path: path) }
    let folder = resolvingSymlinks(url).deletingLastPathComponent().path
    if access == .read, error.isReadOnly, isWALDatabase(at: path), !isWritableFolder(folder) {
      throw DatabaseOpenError.walInReadOnlyFolder(path: path, folder: folder)
    }
    if error.isReadOnly { throw DatabaseOpenError.readOnly(path: path) }
    throw DatabaseOpenError.sqlite(path: path, error)
  }
}

/// Opens `path` and reads its schema, which catches a corrupt or encrypted file (and makes
/// SQLite roll back a hot journal, when the connection may write) before any work starts.
private func connect(
  _ path: String,
  mode: Connection.OpenMode,
  busyTimeout: Int,
  configuration: ConnectionConfiguration
) throws -> Connection {
  let connection = try configuration.open(path: path, mode: mode, busyTimeout: busyTimeout)
  // Foreign keys are on: every `Connection` turns them on unless told not to.
  _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
  return connection
}

/// Whether anyone may write the file, by its permission bits (root ignores them, so
/// `access(2)` would say yes to a file its owner made read-only).
func isWritable(_ path: String) -> Bool {
  guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
    let permissions = attributes[.posixPermissions] as? NSNumber
  else { return FileManager.default.isWritableFile(atPath: path) }
  return permissions.intValue & 0o222 != 0 && FileManager.default.isWritableFile(atPath: path)
}

/// Whether files can be created in `folder` (a journal, `-wal`, `-shm`), by its permission bits
/// as well as `access(2)`, for the same reason as `isWritable`.
private func isWritableFolder(_ folder: String) -> Bool {
  isWritable(folder)
}

/// A database is changed by writing a journal beside it (`-journal`, or `-wal` and `-shm`), and
/// created by writing a new file: either needs a writable folder. Checked before anything is
/// written, so that SQLite's "attempt to write a readonly database" never comes half-way
/// through, and for root too (which ignores the folder's permission bits).
///
/// A symbolic link is followed first: SQLite writes the journal beside the file the link
/// leads to, so that file's folder is the one that must be writable.
func checkWritableFolder(for url: URL) throws {
  let resolved = resolvingSymlinks(url)
  let folder = resolved.deletingLastPathComponent().path
  guard !isWritableFolder(folder) else { return }
  throw DatabaseOpenError.folderReadOnly(
    path: resolved == url ? url.path : "\(url.path) (a symbolic link to \(resolved.path))",
    folder: folder,
    creating: databaseFileKind(at: url.path) == .missing
  )
}

/// Makes sure the folder that will hold a new database at `url` exists: creates it, or
/// reports it missing.
func prepareFolder(for url: URL, creating: Bool) throws {
  let folder = url.deletingLastPathComponent()
  switch pathStatus(atPath: folder.path) {
  case .directory:
    return
  case .regular, .special:
    throw DatabaseOpenError.folderIsNotAFolder(path: url.path, folder: folder.path)
  case .unreachable(let reason):
    throw DatabaseOpenError.unreachable(path: url.path, reason: "its folder: \(reason)")
  case .missing where !creating:
    throw DatabaseOpenError.folderMissing(path: url.path, folder: folder.path)
  case .missing:
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw DatabaseOpenError.folderNotCreated(
        path: url.path,
        folder: folder.path,
        reason: (error as NSError).localizedFailureReason ?? error.localizedDescription,
        underlying: UnderlyingError(error)
      )
    }
  }
}

/// Refuses, before anything opens it, a database path that is neither a regular file, a
/// directory (reported by the opener) nor nothing: a named pipe would block the open forever,
/// a device fails only at the first commit, and a symbolic link loop or a folder without search
/// permission must not read as "no database yet".
///
/// - Throws: `DatabaseOpenError.notAFile` for a FIFO or a device, `.unreachable` for a path that
///   cannot be looked at, `.unreadable` for a file this process may not read.
package func checkDatabasePath(_ url: URL) throws {
  switch pathStatus(atPath: url.path) {
  case .directory, .missing:
    return
  case .regular:
    // A file strata may not read is not "not an SQLite database": SQLite cannot open it at
    // all. Asked of the kernel without opening it (see `unreadableFileProblem`).
    if let reason = unreadableFileProblem(atPath: url.path) {
      throw DatabaseOpenError.unreadable(path: url.path, reason: reason)
    }
  case .special(let kind):
    throw DatabaseOpenError.notAFile(path: url.path, kind: kind)
  case .unreachable(let reason):
    throw DatabaseOpenError.unreachable(path: url.path, reason: reason)
  }
}
