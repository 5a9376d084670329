import Foundation

/// Opening the database file failed before anything was changed.
public enum DatabaseOpenError: StrataError, Equatable {
  /// The path is a directory (the template-onto-the-documents-folder bug).
  case isDirectory(path: String)
  /// The file exists and is not an SQLite database.
  case notADatabase(path: String)
  /// The system will not let anyone open or read the file now, although its permissions allow
  /// it (`EPERM`): on iOS, Data Protection keeps it encrypted while the device is locked (or
  /// before its first unlock after a restart); on macOS also Privacy & Security or the sandbox.
  /// The file is intact: an app must wait or ask for access, never reset it.
  case protectedDataUnavailable(path: String)
  /// A read was asked for and there is no file.
  case missing(path: String)
  /// The folder that should hold a new database does not exist.
  case folderMissing(path: String, folder: String)
  /// The file cannot be written.
  case readOnly(path: String)
  /// The file's folder cannot be written, so SQLite cannot create the journal (`-journal`, or
  /// `-wal` and `-shm`) it needs to change the database safely, nor a new database.
  case folderReadOnly(path: String, folder: String, creating: Bool)
  /// A WAL database whose `-shm` file cannot be created, because its folder is read-only.
  case walInReadOnlyFolder(path: String, folder: String)
  /// A writer stopped in the middle of a transaction and left a hot journal, which this
  /// read-only open cannot roll back.
  case hotJournal(path: String)
  /// SQLite refused to open or read the file.
  case sqlite(path: String, SQLiteError)
  /// The path names a named pipe, a device or a socket: never opened (a pipe would block
  /// forever, a device would fail at the first commit).
  case notAFile(path: String, kind: String)
  /// The path cannot be followed (a symbolic link loop, a dangling link, a folder without
  /// search permission, a file where a folder should be): `reason` says which.
  case unreachable(path: String, reason: String)
  /// The folder that should hold the database is a file (or something else that is not a
  /// folder).
  case folderIsNotAFolder(path: String, folder: String)
  /// Creating the database's folder failed; `underlying`: the system's error (a `CocoaError`).
  case folderNotCreated(
    path: String,
    folder: String,
    reason: String,
    underlying: UnderlyingError? = nil
  )
  /// The file exists but this process may not read it (its permissions): told apart from a
  /// file that is not SQLite without opening it.
  case unreadable(path: String, reason: String)
  /// A new database was built beside its name but could not be flushed to disk or linked into
  /// place (a full disk, an I/O error); `reason` says which. Nothing is at the path.
  case notCreated(path: String, reason: String)
  /// Another process (or another connection of this app) is creating the database and did not
  /// finish within the busy timeout; nothing is at the path yet.
  case beingCreated(path: String, waitedMilliseconds: Int)
  /// No path was given and the default one (in the documents folder) cannot be found;
  /// `reason` says why (such as a relative `HOME`).
  case noDefaultLocation(reason: String)
  /// A `DatabasePool` could not switch the file to WAL mode, which it needs: another
  /// connection held a lock on it in rollback-journal mode for longer than the busy timeout.
  /// `holder` names the process holding it when the system can tell (another process's
  /// lock), nil when it cannot (a connection of this app). The file is as it was.
  case walSwitchLocked(path: String, holder: String?, timeout: Int, SQLiteError)
  /// A `DatabasePool` was asked for a database that cannot be in WAL mode: SQLite kept
  /// `journalMode` (`memory` for an in-memory database). Nothing was changed.
  case walUnavailable(path: String, journalMode: String)

  /// What is wrong with the path, and that nothing was created or changed.
  public var message: String {
    switch self {
    case .isDirectory(let path):
      "\(path) is a directory, not a database file; nothing was created inside it"
    case .notADatabase(let path):
      "\(path) is not an SQLite database (it does not start with the SQLite header); "
        + "strata left it untouched"
    case .protectedDataUnavailable(let path):
      "cannot read \(path) now: \(systemRefusalReason); it is intact, and nothing was changed"
    case .missing(let path):
      "no database at \(path)"
    case .folderMissing(let path, let folder):
      "cannot create \(path): the folder \(folder) does not exist; nothing was created"
    case .readOnly(let path):
      "\(path) is read-only; nothing was changed"
    case .folderReadOnly(let path, let folder, let creating):
      creating
        ? "cannot create \(path): the folder \(folder) is not writable; nothing was created"
        : "cannot write \(path): its folder \(folder) is not writable, so SQLite cannot create "
          + "the journal it needs to change the database safely; nothing was changed"
    case .walInReadOnlyFolder(let path, let folder):
      "cannot read \(path): it is in WAL mode, and SQLite must create \(path)-shm beside it "
        + "to read it, but the folder \(folder) is not writable; nothing was changed"
    case .hotJournal(let path):
      "cannot read \(path): a process stopped in the middle of writing it (a crash or kill) "
        + "and left its journal \(path)-journal, which must be rolled back first, and strata "
        + "cannot write the file or its folder to do so; strata changed nothing, and the file "
        + "together with its -journal still holds the last committed state"
    case .sqlite(let path, let error) where error.isBusy:
      "cannot use \(path): it \(error.lockedReason); nothing was changed"
    case .sqlite(let path, let error):
      "cannot use \(path): \(error.message) (SQLite error \(error.extendedCode)); "
        + "nothing was changed"
    case .notAFile(let path, let kind):
      "\(path) is \(kind), not a database file; strata did not open it and nothing was changed"
    case .unreachable(let path, let reason):
      "cannot use \(path): \(reason); nothing was changed"
    case .folderIsNotAFolder(let path, let folder):
      "cannot create \(path): \(folder) is a file, not a folder; nothing was created"
    case .folderNotCreated(let path, let folder, let reason, _):
      "cannot create \(path): the folder \(folder) could not be created (\(reason)); "
        + "nothing was created"
    case .notCreated(let path, let reason):
      "cannot create \(path): the new database was built beside it, but \(reason); "
        + "nothing was created"
    case .beingCreated(let path, let waited):
      "cannot create \(path): another process is creating it and did not finish within the "
        + "busy timeout (\(waited) ms); strata changed nothing"
    case .noDefaultLocation(let reason):
      "the default database location cannot be found: \(reason); nothing was created or changed"
    case .unreadable(let path, let reason):
      "cannot use the database \(path): \(reason); strata did not open it and nothing was "
        + "changed"
    case .walSwitchLocked(let path, let holder, let timeout, let error):
      "cannot open \(path) as a pool of connections: it must be switched to WAL mode, but "
        + (holder.map { "\($0) holds" } ?? "another connection (in this app or another process) "
          + "holds")
        + " a lock on it in rollback-journal mode (an open transaction or a statement still "
        + "reading), and did not let go within the busy timeout (\(timeout) ms; "
        + "\(error.message), SQLite error \(error.extendedCode)); the file was not changed and "
        + "is still in rollback-journal mode"
    case .walUnavailable(let path, let journalMode):
      "cannot open \(path) as a pool of connections: it must be in WAL mode, and SQLite kept "
        + "the journal mode \(journalMode)"
        + (journalMode == "memory"
          ? " (an in-memory database has no file its connections could share)" : "")
        + "; nothing was changed"
    }
  }

  /// What to do next, for this kind of problem.
  public var help: String { help { $0.description } }

  /// SQLite's error behind `sqlite`, or the system's behind `folderNotCreated`.
  public var underlyingError: (any Error)? {
    switch self {
    case .sqlite(_, let error), .walSwitchLocked(_, _, _, let error): error
    case .folderNotCreated(_, _, _, let underlying): underlying?.error
    default: nil
    }
  }
}

extension DatabaseOpenError: RemedialError {
  /// The help, with each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .isDirectory(let path):
      sentence(say(.otherDatabasePath("the path of a file, such as \(path)/data.sqlite3"))) + "."
    case .notADatabase:
      sentence(say(.checkDatabasePath)) + ": it must name an SQLite file, or a path where none "
        + "exists yet."
    case .protectedDataUnavailable:
      protectedDataHelp
    case .missing:
      sentence(say(.checkDatabasePath)) + ", or \(say(.createDatabase))."
    case .folderMissing(_, let folder):
      sentence(say(.createFolder(folder))) + ", or "
        + say(.otherDatabasePath("a path in an existing folder")) + "."
    case .readOnly(let path):
      sentence(say(.makeWritable("it", path: path)))
        + ", or \(say(.otherDatabasePath("a writable copy")))."
    case .folderReadOnly(_, let folder, _):
      sentence(say(.makeWritable("the folder", path: folder)))
        + ", or copy the database (with its -wal or -journal "
        + "file, if there is one) to a writable folder and "
        + say(.otherDatabasePath("the copy's path")) + ". Reading it (status, validation, "
        + "inspection) works where it is."
    case .walInReadOnlyFolder(_, let folder):
      sentence(say(.makeWritable("the folder", path: folder)))
        + ", or read a copy (with its -wal file) in "
        + "a writable folder; "
        + "a database in rollback-journal mode (PRAGMA journal_mode = DELETE) can be read in a "
        + "read-only folder."
    case .hotJournal(let path):
      sentence(say(.retryWithWriteAccess))
        + " with write access to \(path) and its folder, so SQLite "
        + "can roll the interrupted write back. Do not delete the -journal file, and copy or "
        + "move the database only together with it: without it the file may be corrupt."
    case .sqlite(_, let error) where error.isBusy:
      sentence(say(.waitForLock)) + "."
    case .sqlite:
      sentence(say(.checkIntegrity)) + "."
    case .notAFile:
      sentence(say(.otherDatabasePath("the path of a regular SQLite file, or of none yet"))) + "."
    case .unreachable:
      "Fix what the message names (a link, a folder's permissions), or "
        + say(.otherDatabasePath("another path")) + "."
    case .folderIsNotAFolder(_, let folder):
      "Move the file \(folder) aside, or "
        + say(.otherDatabasePath("a path in an existing folder")) + "."
    case .folderNotCreated(_, let folder, _, _):
      "Create \(folder) yourself, or " + say(.otherDatabasePath("a path in an existing folder"))
        + "."
    case .notCreated:
      "Make room on the disk or fix what the message names, then try again; nothing needs "
        + "undoing."
    case .beingCreated:
      sentence(say(.waitForLock)) + "."
    case .noDefaultLocation:
      sentence(say(.otherDatabasePath("an explicit path"))) + ", or set HOME to an absolute path."
    case .unreadable(let path, _):
      "Check the file's permissions and owner: \(say(.makeReadable(path)))."
    case .walSwitchLocked:
      "End the other connection's transaction or close it (a process that reads the file, "
        + "such as the sqlite3 shell inside BEGIN), then open the pool again: the switch to "
        + "WAL happens once and stays in the file. Or keep the file's journal mode and open it "
        + "as a DatabaseQueue."
    case .walUnavailable:
      "Open a DatabaseQueue instead (DatabaseQueue.inMemory() for an in-memory database), or "
        + "give the pool a database file on a local disk."
    }
  }
}
