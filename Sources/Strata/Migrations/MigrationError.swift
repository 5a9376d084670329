/// A migration problem, found in the files or the history, or raised while applying.
///
/// Every message names the file (and line where there is one) and the database's state.
public enum MigrationError: StrataError, Equatable {
  /// The migrations folder does not exist.
  case directoryNotFound(path: String)
  /// The migrations folder is not a folder (a file, a device) or cannot be listed; `reason`
  /// says which.
  case folderUnusable(path: String, reason: String)
  /// A `.sql` file's name does not start with a version and a name.
  case invalidFileName(file: String)
  /// The file's version has more digits than a 64-bit version holds.
  case versionTooLarge(file: String)
  /// The file's version is 0, the number that means "no migration applied".
  case versionZero(file: String)
  /// `strata new` after a migration whose version is the largest there is.
  case noVersionLeft(file: String)
  /// A new migration file could not be created; `exists` when a file already has its name.
  case notCreated(file: String, reason: String, exists: Bool)
  /// Two files have the same version.
  case duplicateVersion(version: Int64, files: [String])
  /// A `.down.sql` file has no `.up.sql` file of its version.
  case downWithoutUp(file: String)
  /// `.up.sql` and `.down.sql` files share a version but not a name.
  case mismatchedPair(version: Int64, up: String, down: String)
  /// A file or the folder cannot be read; `reason` says why.
  case unreadable(file: String, reason: String)
  /// The up part has no SQL.
  case emptyMigration(file: String)
  /// A marker line is malformed, or looks like another tool's marker; nothing has run.
  case invalidMarker(file: String, line: Int, reason: String)
  /// An applied migration's file was edited: its checksum differs from the recorded one.
  case changedAfterApplied(version: Int64, file: String, recorded: String, current: String)
  /// The database has versions no file has: it is newer than these migrations.
  case unknownApplied(versions: [Int64], newestKnown: Int64?, directory: String)
  /// Pending migrations are older than the newest applied one (a branch merged late).
  case outOfOrder(versions: [Int64], newestApplied: Int64)
  /// A statement of an up part failed; the migration was rolled back, and the database is
  /// at `databaseVersion` (`keptEarlier`: earlier migrations of the run stay applied).
  case failed(
    version: Int64,
    file: String,
    line: Int,
    error: SQLiteError,
    databaseVersion: Int64,
    keptEarlier: Bool
  )
  /// A statement of a down part failed; that migration was not rolled back.
  case rollbackFailed(
    version: Int64,
    file: String,
    line: Int,
    error: SQLiteError,
    databaseVersion: Int64
  )
  /// A step left foreign key violations that were not there before it (`preexisting`: those
  /// that were, which it is not blamed for).
  case foreignKeyViolation(
    version: Int64,
    file: String,
    violations: [ForeignKeyViolation],
    preexisting: Int,
    isRollback: Bool,
    databaseVersion: Int64
  )
  /// A statement that cannot run inside a transaction (`VACUUM`, `PRAGMA journal_mode`, or
  /// one that would end it) is in a transactional migration; it needs `transaction:false`.
  case needsNoTransaction(
    version: Int64,
    file: String,
    line: Int,
    statement: String,
    databaseVersion: Int64
  )
  /// A `transaction:false` part failed: what ran before the failing statement stays.
  case partiallyApplied(
    version: Int64,
    file: String,
    line: Int,
    statementsRun: Int,
    error: SQLiteError,
    isRollback: Bool,
    databaseVersion: Int64
  )
  /// A `transaction:false` migration cannot run inside `--single-transaction`.
  case noTransactionInSingleTransaction(version: Int64, file: String)
  /// The migration has no down part, so it cannot be rolled back.
  case irreversible(version: Int64, file: String)
  /// An applied version has no file, so there is no down part to roll it back with.
  case rollbackFileMissing(version: Int64)
  /// A target version is neither a migration file nor applied.
  case unknownTarget(version: Int64)
  /// `baseline` on a database that already has applied migrations.
  case baselineOnManagedDatabase(appliedCount: Int)
  /// A name for `strata new` that is not letters, digits and underscores.
  case invalidName(name: String)
  /// SQLite failed outside a migration's statements (reading or writing the history).
  case database(path: String, error: SQLiteError, databaseVersion: Int64?)
  /// Another connection held a lock longer than the busy timeout (SQLITE_BUSY): a writer, or a
  /// reader that keeps a commit waiting.
  case locked(path: String, error: SQLiteError, databaseVersion: Int64?, keptEarlier: Bool)
  /// A run stopped at `error` after it had committed `completed` (applied or rolled back),
  /// which stay as they are.
  indirect case stoppedAfter(completed: [MigrationStep], error: MigrationError)

  /// The failure itself, without the steps a run completed before it (`stoppedAfter`).
  public var underlyingFailure: MigrationError {
    if case .stoppedAfter(_, let error) = self { return error.underlyingFailure }
    return self
  }

  /// What failed, where (`file:line`), and the version the database is at now.
  public var message: String {
    switch self {
    case .folderUnusable(let path, let reason):
      return "cannot use the migrations folder \(path): \(reason); nothing was run and the "
        + "database is unchanged"
    case .directoryNotFound(let path):
      return "migrations folder \(path) does not exist"
    case .invalidFileName(let file):
      return "\(file): file name must start with a version number and a name"
    case .versionTooLarge(let file):
      return "\(file): the version number is larger than \(Int64.max), the largest a "
        + "migration version can be (a signed 64-bit integer, as SQLite stores it)"
    case .versionZero(let file):
      return "\(file): version 0 is not a migration version (0 is the version of a database "
        + "with no migration applied)"
    case .notCreated(let file, let reason, _):
      return "\(file) could not be created (\(reason)); nothing was written"
    case .noVersionLeft(let file):
      return "\(file) has version \(Int64.max), the largest a migration version can be, so "
        + "no migration can come after it; nothing was created"
    case .duplicateVersion(let version, let files):
      return "two migrations have version \(version): \(files.joined(separator: ", "))"
    case .downWithoutUp(let file):
      return "\(file) has no matching .up.sql file"
    case .mismatchedPair(let version, let up, let down):
      return "\(up) and \(down) both have version \(version) but different names, so they "
        + "are not the up and down parts of one migration"
    case .unreadable(let file, let reason):
      return "cannot read \(file): \(reason)"
    case .emptyMigration(let file):
      return "\(file) has no SQL in its up part"
    case .invalidMarker(let file, let line, let reason):
      return "\(file):\(line): \(reason)"
    case .changedAfterApplied(let version, let file, let recorded, let current):
      return "migration \(file) (version \(version)) changed after it was applied "
        + "(checksum \(recorded.prefix(12))…, now \(current.prefix(12))…)"
    case .unknownApplied(let versions, let newestKnown, let directory):
      let known =
        newestKnown.map { "the newest migration in \(directory) is \($0)" }
        ?? "\(directory) has no migrations"
      return "the database has applied \(list(versions)) that \(directory) does not have "
        + "(the database is newer than these migrations); \(known)"
    case .outOfOrder(let versions, let newestApplied):
      return "pending \(list(versions)) \(versions.count == 1 ? "is" : "are") older than "
        + "version \(newestApplied), already applied (merged out of order)"
    case .failed(let version, let file, let line, let error, let databaseVersion, _):
      // After earlier steps of the run, `stoppedAfter` around this error names them.
      return "migration \(file):\(line) failed: \(error); nothing from \(version) was applied; "
        + "the database is at \(versionText(databaseVersion))"
    case .rollbackFailed(let version, let file, let line, let error, let databaseVersion):
      return "rollback \(file):\(line) failed: \(error); version \(version) was not rolled back; "
        + "the database is at \(versionText(databaseVersion))"
    case .foreignKeyViolation(
      let version,
      let file,
      let violations,
      let preexisting,
      let isRollback,
      let databaseVersion
    ):
      let shown = violations.prefix(5).map(\.description).joined(separator: "; ")
      let more = violations.count > 5 ? " and \(violations.count - 5) more" : ""
      let earlier =
        preexisting > 0
        ? " (besides \(preexisting) that the database already had before it, which it is not "
          + "blamed for)" : ""
      let outcome =
        isRollback
        ? "version \(version) was not rolled back" : "nothing from \(version) was applied"
      return "\(isRollback ? "rollback" : "migration") \(file) leaves \(violations.count) new "
        + "foreign key violation(s): \(shown)\(more)\(earlier); \(outcome); "
        + "the database is at \(versionText(databaseVersion))"
    case .needsNoTransaction(let version, let file, let line, let statement, let databaseVersion)
    where Migrator.transactionControl.contains(statement):
      return "\(file):\(line): \(statement) would end the transaction strata runs this migration "
        + "in; nothing from \(version) was applied; the database is at \(versionText(databaseVersion))"
    case .needsNoTransaction(let version, let file, let line, let statement, let databaseVersion):
      return "\(file):\(line): \(statement) cannot run inside a transaction; "
        + "nothing from \(version) was applied; the database is at \(versionText(databaseVersion))"
    case .partiallyApplied(
      let version,
      let file,
      let line,
      let statementsRun,
      let error,
      let isRollback,
      let dbVersion
    ):
      let record =
        isRollback
        ? "version \(version) is still recorded as applied" : "version \(version) is not recorded"
      let stayed =
        statementsRun == 0
        ? "it failed at its first statement, so none of it ran"
        : "the part is marked transaction:false, so the \(statementsRun) statement(s) before "
          + "line \(line) stayed applied and were not undone"
      return "migration \(file):\(line) failed: \(error); \(stayed); \(record); "
        + "the database is at \(versionText(dbVersion))"
    case .noTransactionInSingleTransaction(let version, let file):
      return "\(file) (version \(version)) is marked transaction:false and cannot run "
        + "inside --single-transaction; nothing was applied"
    case .irreversible(let version, let file):
      return "migration \(file) (version \(version)) has no down part; nothing was rolled back"
    case .rollbackFileMissing(let version):
      return "version \(version) is applied but its file is missing, so it cannot be rolled "
        + "back; nothing was rolled back"
    case .unknownTarget(let version):
      return "version \(version) is neither a migration file nor applied"
    case .baselineOnManagedDatabase(let count):
      return "the database already has \(count) applied migration(s); baseline is for a "
        + "database that strata has never migrated"
    case .invalidName(let name):
      return "'\(name)' is not a usable migration name"
    case .database(let path, let error, let databaseVersion):
      let state = databaseVersion.map { "; the database is at \(versionText($0))" } ?? ""
      return "\(path): \(error)\(state)"
    case .locked(let path, let error, let databaseVersion, let keptEarlier):
      let changed =
        keptEarlier
        ? "the step it was on was not committed"
        : "nothing was changed"
      let state = databaseVersion.map { "; the database is at \(versionText($0))" } ?? ""
      return "\(path) \(error.lockedReason); \(changed)\(state)"
    case .stoppedAfter(let completed, let error):
      let undone = completed.first?.direction == .down
      let files = completed.map { "\($0.file) (version \($0.version))" }
      return "\(error.message); before that, this run \(undone ? "rolled back" : "applied") "
        + "\(files.joined(separator: ", ")), which \(completed.count == 1 ? "stays" : "stay") "
        + "\(undone ? "rolled back" : "applied")"
    }
  }

  /// What to do next, for this kind of problem.
  public var help: String {
    switch self {
    case .folderUnusable:
      return "Point --migrations (or STRATA_MIGRATIONS) at a folder of .sql files this user can "
        + "list (check it with ls -ld; chmod u+rx gives its owner read and search permission)."
    case .directoryNotFound:
      return "Pass --migrations DIR (or set STRATA_MIGRATIONS), or create the folder with "
        + "'strata new NAME'."
    case .invalidFileName:
      return "Rename it like 0004_add_email.sql (digits, underscore, name)."
    case .versionTooLarge:
      return "Rename it with a shorter version, such as a UTC timestamp (20240131120000) or the "
        + "next number after the folder's newest."
    case .versionZero:
      return "Versions start at 1: rename it with a version of 1 or more that no other file has, "
        + "such as 0001_create_person.sql."
    case .notCreated(_, _, true):
      return "Another file took that name a moment ago: run 'strata new' again for the next "
        + "version."
    case .notCreated:
      return "Check that the migrations folder can be written, then try again."
    case .noVersionLeft:
      return "If that migration has not been applied to any database yet, rename it with a "
        + "smaller version (such as a UTC timestamp), then run 'strata new' again; otherwise "
        + "write the new migration's file by hand with a version below it and apply it with "
        + "--allow-out-of-order."
    case .duplicateVersion:
      return "Give each migration a unique version number."
    case .downWithoutUp:
      return "Add the .up.sql file with the same version and name, or delete the .down.sql file."
    case .mismatchedPair:
      return "Give both files the same name after the version, such as "
        + "0003_add_email.up.sql and 0003_add_email.down.sql."
    case .unreadable:
      return "Check the file's permissions and that it is UTF-8 text."
    case .emptyMigration:
      return "Write the migration's SQL after '-- migrate:up', or delete the file."
    case .invalidMarker:
      return "Use '-- migrate:up' and '-- migrate:down' (exactly so, lowercase) once each, "
        + "optionally followed by 'transaction:false'; reword any other comment that looks "
        + "like a marker."
    case .changedAfterApplied:
      return "Restore the original file and put the change in a new migration "
        + "('strata new NAME'); or pass --allow-changed to accept the edit."
    case .unknownApplied:
      return "Point --migrations at the folder that produced this database, or use a newer "
        + "release of the app; --allow-unknown migrates anyway."
    case .outOfOrder:
      return "Give the migration a version above the newest applied, or pass "
        + "--allow-out-of-order to apply it anyway."
    case .failed(_, _, _, let error, let databaseVersion, _)
    where databaseVersion == 0 && error.message.hasSuffix("already exists"):
      // A database that predates strata: its schema is there, its history is not.
      return "If the database already has this schema, adopt it with 'strata baseline --version "
        + "V' (V: the newest migration it already has); otherwise fix the file and run "
        + "'strata migrate' again."
    case .failed(_, _, _, let error, _, _) where error.changesStrataTable,
      .rollbackFailed(_, _, _, let error, _) where error.changesStrataTable,
      .partiallyApplied(_, _, _, _, let error, _, _) where error.changesStrataTable:
      return "strata keeps its own tables itself: remove the statement (to undo a migration, "
        + "run 'strata rollback'; to adopt a database that predates strata, 'strata baseline')."
    case .failed(_, _, _, let error, _, _) where error.isFull:
      return "The disk is full (or the database's PRAGMA max_page_count is reached); the file "
        + "is not at fault. Free disk space, then run 'strata migrate' again."
    case .rollbackFailed(_, _, _, let error, _) where error.isFull:
      return "The disk is full (or the database's PRAGMA max_page_count is reached); the file "
        + "is not at fault. Free disk space, then run 'strata rollback' again."
    case .failed:
      return "Fix the file and run 'strata migrate' again."
    case .rollbackFailed:
      return "Fix the file's down part and run 'strata rollback' again."
    case .foreignKeyViolation(_, _, _, _, true, _):
      return "Make the down part keep every child row's parent (or delete the orphans in it), "
        + "then run 'strata rollback' again."
    case .foreignKeyViolation:
      return "Make the migration keep every child row's parent (or delete the orphans in it), "
        + "then run 'strata migrate' again."
    case .needsNoTransaction(_, _, _, let statement, _)
    where Migrator.transactionControl.contains(statement):
      return "strata runs each migration in its own transaction: remove BEGIN/COMMIT/ROLLBACK "
        + "from the file, or mark the part '-- migrate:up transaction:false' to manage "
        + "transactions yourself."
    case .needsNoTransaction:
      return "Put it in its own migration marked '-- migrate:up transaction:false'."
    case .partiallyApplied(_, _, _, _, _, let isRollback, _):
      return "Undo those statements by hand (or make them idempotent, such as CREATE TABLE IF "
        + "NOT EXISTS), fix the file, and run 'strata \(isRollback ? "rollback" : "migrate")' again."
    case .noTransactionInSingleTransaction:
      return "Run without --single-transaction."
    case .irreversible:
      return "Add a '-- migrate:down' part to the file, or restore from a backup."
    case .rollbackFileMissing:
      return "Restore the migration file, or point --migrations at the folder that has it."
    case .unknownTarget:
      return "Run 'strata status' to list the versions; use 0 for an empty database."
    case .baselineOnManagedDatabase:
      return "Run 'strata status' to see the history; 'strata migrate' applies what is pending."
    case .invalidName:
      return "Use letters, digits and underscores, such as add_email."
    case .stoppedAfter(_, let error):
      return error.help
    case .locked:
      return SQLiteError.lockedHelp
    case .database(_, let error, _) where error.isBusy:
      return SQLiteError.lockedHelp
    case .database(_, let error, _) where error.isFull:
      return "Free disk space (or raise PRAGMA max_page_count), then run the command again."
    case .database:
      return "Check that the database file is writable and intact, then run the command again."
    }
  }
}

private func list(_ versions: [Int64]) -> String {
  let words = versions.prefix(10).map(String.init).joined(separator: ", ")
  let more = versions.count > 10 ? " and \(versions.count - 10) more" : ""
  return (versions.count == 1 ? "version " : "versions ") + words + more
}

/// "version 3", or "version 0 (no migrations applied)".
func versionText(_ version: Int64) -> String {
  version == 0 ? "version 0 (no migrations applied)" : "version \(version)"
}

/// A row that points at a missing parent, from `PRAGMA foreign_key_check`.
public struct ForeignKeyViolation: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The table of the row without a parent.
  public let table: String
  /// The row's rowid; nil for a `WITHOUT ROWID` table.
  public let rowid: Int64?
  /// The table the row's foreign key references.
  public let parent: String

  /// "`table` row `rowid` has no parent in `parent`", for messages.
  public var description: String {
    "\(table) row \(rowid.map(String.init) ?? "?") has no parent in \(parent)"
  }
}
