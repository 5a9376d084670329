import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a template database into place the crash-safe way: copy it to a temporary file in
/// the destination's folder, flush it to disk, then link it to the final name, which fails if
/// the name exists (callers `verify` the template first). A crash at any moment leaves either no database or a
/// complete one, and an existing file is never overwritten.
enum TemplateInstaller {
  /// Checks that `template` is a complete SQLite database: the header, then `quick_check`.
  static func verify(_ template: URL, configuration: ConnectionConfiguration) throws {
    let path = template.path
    if let problem = regularFileProblem(atPath: path), pathStatus(atPath: path) != .missing {
      throw SetupError.templateInvalid(path: path, reason: problem)
    }
    switch databaseFileKind(at: path) {
    case .missing: throw SetupError.templateMissing(path: path)
    case .directory: throw SetupError.templateInvalid(path: path, reason: "it is a directory")
    case .empty: throw SetupError.templateInvalid(path: path, reason: "the file is empty")
    case .protectedDataUnavailable: throw DatabaseOpenError.protectedDataUnavailable(path: path)
    case .notSQLite:
      var info = stat()
      let regular = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
      throw SetupError.templateInvalid(
        path: path,
        reason: regular ? "it does not start with the SQLite header" : "it is not a regular file"
      )
    case .sqlite: break
    }
    try checkNoPendingJournal(template)
    do {
      // Immutable: a template in a read-only bundle may be in WAL mode, which an ordinary
      // read-only open cannot read without creating its -shm; and what is checked is then the
      // file alone, exactly what is copied.
      let connection = try configuration.open(path: path, mode: .immutable)
      let result = try connection.rows("PRAGMA quick_check").compactMap { $0.first?.textValue }
      guard result == ["ok"] else {
        throw SetupError.templateInvalid(
          path: path,
          reason: "quick_check: \(result.prefix(3).joined(separator: "; "))"
        )
      }
    } catch let error as SQLiteError {
      throw SetupError.templateInvalid(
        path: path,
        reason: error.message,
        underlying: UnderlyingError(error)
      )
    }
  }

  /// A template is read as the file alone (immutable). A `-wal` beside it that holds frames
  /// has committed changes the file lacks, and a `-journal` beside it means a write stopped
  /// half-way: copying the file would give a stale or torn database, so such a template is
  /// refused rather than copied silently less.
  private static func checkNoPendingJournal(_ template: URL) throws {
    let bases = Set([template.path, template.resolvingSymlinksInPath().path])
    for base in bases.sorted() {
      for suffix in ["-wal", "-journal"] {
        var info = stat()
        guard lstat(base + suffix, &info) == 0, info.st_size > 0 else { continue }
        let what =
          suffix == "-wal"
          ? "its write-ahead log \(base)-wal holds committed changes that are not in the file "
            + "itself; strata copies only a complete file (checkpoint it with sqlite3 \(base) "
            + "'PRAGMA wal_checkpoint(TRUNCATE)', or rebuild it)"
          : "\(base)-journal beside it is the journal of a write that stopped half-way, so the "
            + "file itself may be torn (open it once with sqlite3 to roll the write back)"
        throw SetupError.templateInvalid(path: template.path, reason: what)
      }
    }
  }

  /// The mode of a copy of `template`: no wider than the template's, readable and writable by
  /// its owner (the app writes its database), never executable or writable by others; the
  /// umask applies on top, as it does when SQLite creates an empty database.
  static func copyPermissions(of template: URL) -> mode_t {
    var info = stat()
    guard stat(template.path, &info) == 0 else { return 0o600 }
    return ((info.st_mode & 0o777) | 0o600) & 0o644
  }

  /// Removes what an interrupted install left beside `destination`. Runs on every setup,
  /// since once the database exists no install follows.
  static func removeLeftovers(of destination: URL) {
    NewDatabaseFile.removeLeftovers(of: destination)
  }

  /// Installs `template` at `destination` unless a file is already there.
  ///
  /// - Parameter busyTimeout: how long to wait for another process creating the database.
  /// - Parameter prepare: runs on the temporary copy before it is linked into place.
  /// - Returns: true when this call created the database; false when a file was already there
  ///   (or another process installed one first).
  static func install(
    _ template: URL,
    at destination: URL,
    busyTimeout: Int = Connection.defaultBusyTimeout,
    prepare: (URL) throws -> Void = { _ in },
    beforeLink: () throws -> Void = {}
  ) throws -> Bool {
    removeLeftovers(of: destination)
    if databaseFileKind(at: destination.path) != .missing { return false }
    guard let temporary = NewDatabaseFile.temporaryURL(for: destination) else {
      throw SetupError.copyFailed(
        path: destination.path,
        reason: "its name is too long to have a temporary copy beside it"
      )
    }
    // The lock a migrated new database takes too.
    let lock = try BuildLock.forCreating(destination, waitingMilliseconds: busyTimeout)
    defer { lock?.release() }
    if NewDatabaseFile.nameIsTaken(destination) { return false }
    defer { NewDatabaseFile.remove(temporary) }
    do {
      // The content, never the link: a template that is a symlink must not make the app's
      // database a link to it (every write would go into the template). A new file, so its
      // date is now (a fresh copy must not look stale to another process's sweep) and its mode
      // follows the umask.
      try copyDatabaseFile(
        from: template.path,
        to: temporary.path,
        permissions: copyPermissions(of: template)
      )
      try prepare(temporary)
      try beforeLink()
      return try NewDatabaseFile.linkIntoPlace(temporary, at: destination)
    } catch let error as StrataError {
      throw error
    } catch let error as DatabaseFileCopyError {
      throw SetupError.copyFailed(path: destination.path, reason: error.reason)
    } catch let error as FileSyncError {
      throw SetupError.copyFailed(path: destination.path, reason: error.reason)
    } catch {
      throw SetupError.copyFailed(
        path: destination.path,
        reason: error.localizedDescription,
        underlying: UnderlyingError(error)
      )
    }
  }
}
