import Foundation

/// What `DatabaseBackup.restore` found at the database's path, before writing anything.
enum LiveDatabase {
  /// No file there.
  case missing
  /// A database SQLite reads, open for writing, and its history.
  case readable(Connection, [AppliedMigration])
  /// A file SQLite cannot read as a database; `reason` says what SQLite reported.
  case unreadable(reason: String)
}

extension DatabaseBackup {
  /// The backup opened read-only and its history, once SQLite's integrity check passed on it.
  ///
  /// - Throws: `BackupError.damaged` when the check reports a problem or SQLite cannot read
  ///   the file; `BackupError.restoreFailed` for another SQLite failure (a lock).
  static func checkedBackup(
    _ backup: URL,
    into database: URL,
    busyTimeout: Int
  ) throws -> (Connection, [AppliedMigration]) {
    func damaged(_ problem: String) -> BackupError {
      .damaged(backup: backup.path, database: database.path, problem: problem)
    }
    do {
      let source = try ConnectionConfiguration.none.open(
        path: backup.path,
        mode: .readOnly,
        busyTimeout: busyTimeout
      )
      let problems = try source.rows("PRAGMA integrity_check(3)").compactMap {
        $0.first?.textValue
      }
      guard problems == ["ok"] else {
        let shown = problems.map { problem in
          let line = problem.split(whereSeparator: \.isNewline).joined(separator: " ")
          return line.count > 200 ? String(line.prefix(200)) + "…" : line
        }
        throw damaged("SQLite's integrity check reports: " + shown.joined(separator: "; "))
      }
      return (source, try History.read(source))
    } catch let error as SQLiteError where error.isDamaged {
      throw damaged("SQLite cannot read it: \(error.message), SQLite error \(error.extendedCode)")
    } catch let error as SQLiteError {
      throw BackupError.restoreFailed(
        database: database.path,
        backup: backup.path,
        reason: error.message
      )
    }
  }

  /// The database at `database`: missing, readable (open for writing, with its history), or a
  /// file SQLite cannot read as a database. The path was checked (`checkDatabasePath`): a
  /// special file or one this process may not read was refused already.
  ///
  /// - Throws: `DatabaseOpenError` when it is a directory, read-only, or cannot be opened.
  static func liveDatabase(_ database: URL, busyTimeout: Int) throws -> LiveDatabase {
    let header = "it does not start with SQLite's header"
    switch databaseFileKind(at: database.path) {
    case .missing: return .missing
    case .directory: throw DatabaseOpenError.isDirectory(path: database.path)
    case .notSQLite: return .unreadable(reason: header)
    // Intact, only locked away for now: never set aside as unreadable and replaced.
    case .protectedDataUnavailable:
      throw DatabaseOpenError.protectedDataUnavailable(path: database.path)
    case .empty, .sqlite: break
    }
    do {
      let live = try Connection.open(at: database, access: .write, busyTimeout: busyTimeout)
      do {
        return .readable(live, try History.read(live))
      } catch let error as SQLiteError where error.isDamaged {
        return .unreadable(reason: "\(error.message), SQLite error \(error.extendedCode)")
      }
    } catch DatabaseOpenError.notADatabase {
      return .unreadable(reason: header)
    } catch DatabaseOpenError.sqlite(_, let error) where error.isDamaged {
      return .unreadable(reason: "\(error.message), SQLite error \(error.extendedCode)")
    }
  }

  /// A forced restore over a database SQLite cannot read. With SQLite's header intact, the
  /// backup API writes the backup's pages over the damaged ones in place, journaled, as for any
  /// restore. When SQLite cannot take that file as a database at all (its header is not
  /// SQLite's), no connection can write into it, so it is first emptied in place through
  /// SQLite's file layer under an exclusive lock (the same inode: never renamed over, so no
  /// connection is left holding an old file), and the backup is copied into the empty file.
  static func copy(
    _ source: Connection,
    overUnreadable database: URL,
    backup: URL,
    busyTimeout: Int
  ) throws {
    let path = database.path
    guard isWritable(path) else { throw DatabaseOpenError.readOnly(path: path) }
    try checkWritableFolder(for: database)
    func failed(_ reason: String) -> BackupError {
      databaseFileKind(at: path) == .empty
        ? .restoreFailedAfterEmptying(database: path, backup: backup.path, reason: reason)
        : .restoreFailed(database: path, backup: backup.path, reason: reason)
    }
    func copyPages() throws {
      let live = try ConnectionConfiguration.none.open(
        path: path,
        mode: .readWrite,
        busyTimeout: busyTimeout
      )
      try source.copyPages(into: live)
    }
    if databaseFileKind(at: path) == .sqlite {
      do {
        return try copyPages()
      } catch let error as SQLiteError where !error.isDamaged {
        throw failed(error.message)
      } catch is SQLiteError {
        // SQLite cannot take the file's first page as a database's: emptied below.
      }
    }
    if let reason = emptyDatabaseFile(at: path, busyTimeout: busyTimeout) {
      throw failed(reason)
    }
    do {
      try copyPages()
    } catch let error as SQLiteError {
      throw failed(error.message)
    }
  }

  /// Copies an unreadable database's bytes beside it before a forced restore writes over them:
  /// `<name>.damaged-<UTC time>`, a name no backup listing or `*.sqlite3` pattern takes.
  ///
  /// - Throws: `BackupError.restoreFailed` when the copy cannot be written (nothing changed).
  static func keepDamagedCopy(of database: URL, backup: URL) throws -> URL {
    let stamp = utcFileStamp(Date())
    let copy = database.deletingLastPathComponent().appendingPathComponent(
      database.lastPathComponent + ".damaged-" + stamp
    )
    do {
      try FileManager.default.copyItem(at: database, to: copy)
    } catch {
      throw BackupError.restoreFailed(
        database: database.path,
        backup: backup.path,
        reason: "its unreadable bytes could not be copied aside to \(copy.lastPathComponent) "
          + "first (\(error.localizedDescription))"
      )
    }
    return copy
  }
}
