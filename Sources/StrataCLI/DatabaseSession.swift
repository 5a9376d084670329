import Foundation
import Strata

/// Opens the database a command works on.
enum DatabaseSession {
  /// - Parameters:
  ///   - forWriting: create the file when missing (and the default documents folder with it).
  ///   - mustExist: a missing file is an error even when writing (rollback, baseline).
  ///   - configuration: the extensions every connection gets (`--load-extension`).
  ///   - kind: what the command already read at the path (`ResolvedDatabase.kind()`), so
  ///     that it is not read again; nil reads it here when it matters.
  /// - Returns: the connection; for a read of a missing file, an empty in-memory database,
  ///   so that `status` can report everything pending without creating a file.
  static func open(
    _ database: ResolvedDatabase,
    forWriting: Bool,
    busyTimeout: Int,
    configuration: ConnectionConfiguration,
    mustExist: Bool = false,
    kind: DatabaseFileKind? = nil
  ) throws -> Connection {
    // Written without `mustExist`, the file is created when missing: nothing to look at.
    let missing =
      forWriting && !mustExist ? false : (kind ?? database.kind()) == .missing
    if missing, mustExist {
      throw DatabaseOpenError.missing(path: database.path)
    }
    if forWriting {
      return try Connection.open(
        at: database.url,
        access: .create,
        busyTimeout: busyTimeout,
        createsFolder: database.location.isDefault,
        configuration: configuration
      )
    }
    if missing { return try configuration.openInMemory() }
    return try Connection.open(
      at: database.url,
      access: .read,
      busyTimeout: busyTimeout,
      configuration: configuration
    )
  }

  /// For a dry run that tries the migrations on the database's rows: the file opened for
  /// writing, never created (the dry run's transaction is rolled back); read only when the file
  /// or its folder cannot be written, and the dry run then tries nothing (it says so); for a
  /// missing file, an empty in-memory database, as for a read.
  static func openForTrial(
    _ database: ResolvedDatabase,
    busyTimeout: Int,
    configuration: ConnectionConfiguration,
    kind: DatabaseFileKind? = nil
  ) throws -> Connection {
    let kind = kind ?? database.kind()
    guard kind != .missing else {
      return try configuration.openInMemory()
    }
    do {
      return try Connection.open(
        at: database.url,
        access: .write,
        busyTimeout: busyTimeout,
        configuration: configuration
      )
    } catch DatabaseOpenError.readOnly, DatabaseOpenError.folderReadOnly {
      return try open(
        database,
        forWriting: false,
        busyTimeout: busyTimeout,
        configuration: configuration,
        kind: kind
      )
    }
  }
}
