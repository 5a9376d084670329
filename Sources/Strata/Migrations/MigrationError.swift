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
  /// A file carries a migration version but is not SQL strata can run (a goose `.go`
  /// migration, a `.py` script, a gzipped `.sql.gz`), and no exclusion names it.
  case notSQL(file: String)
  /// The file's version has more digits than a 64-bit version holds.
  case versionTooLarge(file: String)
  /// The file's version is 0, the number that means "no migration applied".
  case versionZero(file: String)
  /// Creating a new migration after one whose version is the largest there is.
  case noVersionLeft(file: String)
  /// A new migration file could not be created; `exists` when a file already has its name.
  case notCreated(file: String, reason: String, exists: Bool)
  /// Two files have the same version.
  case duplicateVersion(version: MigrationVersion, files: [String])
  /// A `.down.sql` file has no `.up.sql` file of its version.
  case downWithoutUp(file: String)
  /// `.up.sql` and `.down.sql` files share a version but not a name.
  case mismatchedPair(version: MigrationVersion, up: String, down: String)
  /// A file or the folder cannot be read; `reason` says why.
  case unreadable(file: String, reason: String)
  /// The up part has no SQL.
  case emptyMigration(file: String)
  /// A part is still as strata wrote it for a new migration: no SQL, and its `-- strata:todo` line (on
  /// `line`) still there; nothing has run.
  case unwrittenPart(file: String, line: Int, isDown: Bool)
  /// A marker line is malformed, or looks like another tool's marker; nothing has run.
  case invalidMarker(file: String, line: Int, reason: String)
  /// A file breaks the rules of the folder's format as that format's tool reads it (goose,
  /// sql-migrate, sqlx, an iOS bundle); nothing has run.
  case formatProblem(file: String, line: Int, format: MigrationFormat, reason: String)
  /// The folder's files are written in two formats (`formats[i]` is the format of `files[i]`);
  /// strata reads one format per folder, so nothing has run.
  case mixedFormats(directory: String, formats: [String], files: [String])
  /// An applied migration's file was edited: its checksum differs from the recorded one.
  case changedAfterApplied(
    version: MigrationVersion,
    file: String,
    recorded: String,
    current: String
  )
  /// The database has versions no file has: it is newer than these migrations.
  case unknownApplied(
    versions: [MigrationVersion],
    newestKnown: MigrationVersion?,
    directory: String
  )
  /// Pending migrations are older than the newest applied one (a branch merged late).
  case outOfOrder(versions: [MigrationVersion], newestApplied: MigrationVersion)
  /// A statement of an up part failed; the migration was rolled back. A run throws it inside
  /// `stopped`, which says the version the database is at.
  case failed(version: MigrationVersion, file: String, line: Int, error: SQLiteError)
  /// A statement of a down part failed; that migration was not rolled back. Thrown inside
  /// `stopped`.
  case rollbackFailed(version: MigrationVersion, file: String, line: Int, error: SQLiteError)
  /// A step left foreign key violations that were not there before it (`preexisting`: those
  /// that were, which it is not blamed for). Thrown inside `stopped`.
  case foreignKeyViolation(
    version: MigrationVersion,
    file: String,
    violations: [ForeignKeyViolation],
    preexisting: Int,
    isRollback: Bool
  )
  /// A step left a foreign key SQLite cannot use (`foreignKey`: `b(y) REFERENCES a(x)`;
  /// `reason`: `a(x) is neither a's PRIMARY KEY nor UNIQUE`), which SQLite calls a "foreign key
  /// mismatch": with foreign keys on, every write to `table` fails. Tools
  /// that never check foreign keys (diesel) apply it; strata refuses it. `line`: where the file
  /// names the foreign key (or the table). Thrown inside `stopped`.
  case foreignKeyMismatch(
    version: MigrationVersion,
    file: String,
    line: Int,
    table: String,
    foreignKey: String,
    reason: String,
    isRollback: Bool
  )
  /// A statement that cannot run inside a transaction (`VACUUM`, `PRAGMA journal_mode`, or
  /// one that would end it) is in a transactional migration; it needs `transaction:false`.
  /// Thrown inside `stopped`.
  case needsNoTransaction(version: MigrationVersion, file: String, line: Int, statement: String)
  /// A `transaction:false` part failed: what ran before the failing statement stays. Thrown
  /// inside `stopped`.
  case partiallyApplied(
    version: MigrationVersion,
    file: String,
    line: Int,
    statementsRun: Int,
    error: SQLiteError,
    isRollback: Bool
  )
  /// A part marked to run outside a transaction (`transaction:false`, or `format`'s own
  /// option) cannot run inside one transaction for the whole run
  /// (`MigrateOptions.singleTransaction`).
  case noTransactionInSingleTransaction(
    version: MigrationVersion,
    file: String,
    format: MigrationFormat
  )
  /// A part that manages its own transaction (`BEGIN` … `COMMIT` in the file, `line`: its first
  /// `BEGIN`) cannot run inside one transaction for the whole run; nothing was applied.
  case ownTransactionInSingleTransaction(version: MigrationVersion, file: String, line: Int)
  /// A part that manages its own transaction (`BEGIN` … `COMMIT` in the file) cannot run as
  /// written (`reason` says why); nothing of it has run.
  case ownTransactionRefused(version: MigrationVersion, file: String, line: Int, reason: String)
  /// A part that manages its own transaction failed at `line` (`reason`: SQLite's error, or the
  /// foreign key check's before its final `COMMIT`); `outcome` says what of it stays committed.
  /// Thrown inside `stopped`.
  case ownTransactionFailed(
    version: MigrationVersion,
    file: String,
    line: Int,
    reason: String,
    outcome: OwnTransactionOutcome,
    isRollback: Bool
  )
  /// The migration has no down part, so it cannot be rolled back; `format` says how to add one.
  case irreversible(version: MigrationVersion, file: String, format: MigrationFormat)
  /// An applied version has no file, so there is no down part to roll it back with.
  case rollbackFileMissing(version: MigrationVersion)
  /// A target version is neither a migration file nor applied.
  case unknownTarget(version: MigrationVersion)
  /// `baseline` on a database that already has applied migrations.
  case baselineOnManagedDatabase(appliedCount: Int)
  /// A name for a new migration that is not letters, digits and underscores.
  case invalidName(name: String)
  /// SQLite failed outside a migration's statements (reading or writing the history). Thrown
  /// inside `stopped`.
  case database(path: String, error: SQLiteError)
  /// Another connection held a lock longer than the busy timeout (SQLITE_BUSY): a writer, or a
  /// reader that keeps a commit waiting. Thrown inside `stopped`.
  case locked(path: String, error: SQLiteError)
  /// The connection is inside a transaction its caller opened: migrations run in transactions of
  /// their own, so a run there would commit or roll back the caller's work with its own. Checked
  /// before anything runs; nothing was changed.
  case insideTransaction(path: String)
  /// A migrate, rollback or baseline run stopped at `error` and left the database in `state`.
  ///
  /// The one place a run's failure gets the database's state: the version it is at once the
  /// failed step's transaction is rolled back, and the steps committed before, which stay. A
  /// failure of a step (`failed`, `rollbackFailed`, `foreignKeyViolation`,
  /// `needsNoTransaction`, `partiallyApplied`) or of SQLite (`database`, `locked`) always comes
  /// inside it; any other error only when steps were committed before it.
  indirect case stopped(MigrationError, state: MigrationRunState)

  /// The failure itself, without the state a run attached to it (`stopped`).
  public var underlyingFailure: MigrationError {
    if case .stopped(let error, _) = self { return error.underlyingFailure }
    return self
  }

  /// The state a failed run left the database in; nil for an error raised before anything ran.
  public var runState: MigrationRunState? {
    if case .stopped(_, let state) = self { return state }
    return nil
  }

  /// What failed, where (`file:line`), and the version the database is at now.
  public var message: String {
    guard case .stopped(let error, let state) = self else { return message(in: nil) }
    if let trial = state.dryRun {
      return error.message(in: state) + trial.failureNote(for: error)
    }
    let completed = state.completed
    guard !completed.isEmpty else { return error.message(in: state) }
    let undone = completed.first?.direction == .down
    let files = completed.map { "\($0.file) (version \($0.version))" }
    return
      "\(error.message(in: state)); before that, this run \(undone ? "rolled back" : "applied") "
      + "\(files.joined(separator: ", ")), which \(completed.count == 1 ? "stays" : "stay") "
      + "\(undone ? "rolled back" : "applied")"
  }

  /// The message of this failure (never `stopped`), ending with the state a run left.
  private func message(in state: MigrationRunState?) -> String {
    // A step's failure always names the version; SQLite's only when it could be read.
    let at = "the database is at \(versionText(state?.databaseVersion ?? .zero))"
    let atIfRead = state?.databaseVersion.map { "; the database is at \(versionText($0))" } ?? ""
    switch self {
    case .folderUnusable(let path, let reason):
      return "cannot use the migrations folder \(path): \(reason); nothing was run and the "
        + "database is unchanged"
    case .directoryNotFound(let path):
      return "migrations folder \(path) does not exist"
    case .invalidFileName(let file):
      return "\(file): file name must start with a version number and a name"
    case .notSQL(let file):
      return "\(file) carries a migration version but is not an SQL file strata can run, so a "
        + "run would miss that step; nothing was run"
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
    case .unwrittenPart(let file, let line, let isDown):
      return "\(file):\(line): the \(isDown ? "down" : "up") part is still the empty template "
        + "strata wrote for it (no SQL, and its '-- strata:todo' line is still there); nothing "
        + "was run"
    case .invalidMarker(let file, let line, let reason),
      .formatProblem(let file, let line, _, let reason):
      return "\(file):\(line): \(reason)"
    case .mixedFormats(let directory, let formats, let files):
      let each = zip(files, formats).map { "\($0) is \($1)" }.joined(separator: " and ")
      return "\(directory) mixes migration formats: \(each); strata reads one format per "
        + "folder, so nothing was run"
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
    case .failed(let version, let file, let line, let error):
      // After earlier steps of the run, `stopped` adds them.
      return "migration \(file):\(line) failed: \(error); nothing from \(version) was applied; "
        + at
    case .rollbackFailed(let version, let file, let line, let error):
      return "rollback \(file):\(line) failed: \(error); version \(version) was not rolled back; "
        + at
    case .foreignKeyViolation(
      let version,
      let file,
      let violations,
      let preexisting,
      let isRollback
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
        + at
    case .foreignKeyMismatch(
      let version,
      let file,
      let line,
      let table,
      let foreignKey,
      let reason,
      let isRollback
    ):
      let outcome =
        isRollback
        ? "version \(version) was not rolled back" : "nothing from \(version) was applied"
      let sentence = ForeignKeyMismatch.sentence(
        foreignKey: foreignKey,
        reason: reason,
        table: table
      )
      return "\(file):\(line): \(sentence); \(outcome); \(at)"
    case .needsNoTransaction(let version, let file, let line, let statement)
    where TransactionBoundStatement.transactionControl.contains(statement):
      return "\(file):\(line): \(statement) would end the transaction strata runs this migration "
        + "in; nothing from \(version) was applied; \(at)"
    case .needsNoTransaction(let version, let file, let line, let statement):
      return "\(file):\(line): \(statement) cannot run inside a transaction; "
        + "nothing from \(version) was applied; \(at)"
    case .partiallyApplied(
      let version,
      let file,
      let line,
      let statementsRun,
      let error,
      let isRollback
    ):
      let record =
        isRollback
        ? "version \(version) is still recorded as applied" : "version \(version) is not recorded"
      let stayed =
        statementsRun == 0
        ? "it failed at its first statement, so none of it ran"
        : "\(outsideTransaction(state?.format ?? .dbmate)), so the \(statementsRun) statement(s) "
          + "before line \(line) stayed applied and were not undone"
      return "migration \(file):\(line) failed: \(error); \(stayed); \(record); "
        + at
    case .noTransactionInSingleTransaction(let version, let file, let format):
      return "\(file) (version \(version)): \(outsideTransaction(format)), so it cannot run "
        + "inside a single transaction with the others; nothing was applied"
    case .ownTransactionInSingleTransaction(let version, let file, let line):
      return "\(file):\(line): the file manages its own transaction (BEGIN here), which cannot "
        + "run inside the one transaction that holds the whole run; nothing from \(version) or "
        + "any other migration was applied; \(at)"
    case .ownTransactionRefused(let version, let file, let line, let reason):
      return "\(file):\(line): \(reason); nothing from \(version) was run; \(at)"
    case .ownTransactionFailed(_, let file, let line, let reason, let outcome, let isRollback):
      return "\(isRollback ? "rollback" : "migration") \(file):\(line) failed: \(reason); "
        + "\(outcome.description); \(at)"
    case .irreversible(let version, let file, _):
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
    case .database(let path, let error):
      return "\(path): \(error)\(atIfRead)"
    case .locked(let path, let error):
      let changed =
        !(state?.completed.isEmpty ?? true)
        ? "the step it was on was not committed"
        : "nothing was changed"
      return "\(path) \(error.lockedReason); \(changed)\(atIfRead)"
    case .insideTransaction(let path):
      return "the connection to \(path) is inside a transaction the app opened, and migrations "
        + "run in transactions of their own; nothing was run and the database is unchanged"
    case .stopped(let error, let state):
      return error.message(in: state)
    }
  }
}

/// "the part is marked transaction:false", in the format's own words.
private func outsideTransaction(_ format: MigrationFormat) -> String {
  format.noTransactionOption.map { "the part is marked \($0)" }
    ?? "the part runs outside a transaction"
}

private func list(_ versions: [MigrationVersion]) -> String {
  let words = versions.prefix(10).map(\.text).joined(separator: ", ")
  let more = versions.count > 10 ? " and \(versions.count - 10) more" : ""
  return (versions.count == 1 ? "version " : "versions ") + words + more
}

/// "version 3", or "version 0 (no migrations applied)".
func versionText(_ version: MigrationVersion) -> String {
  version.isZero ? "version 0 (no migrations applied)" : "version \(version)"
}
