import Foundation

// The checks of a database's path and folder made before SQLite opens it: every part of
// strata that opens, creates, migrates or restores a database makes them, so they sit below all
// of those (DatabaseOpener in Setup/ is the one that opens).

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
func isWritableFolder(_ folder: String) -> Bool {
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
