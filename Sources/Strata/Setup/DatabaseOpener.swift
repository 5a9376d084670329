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
