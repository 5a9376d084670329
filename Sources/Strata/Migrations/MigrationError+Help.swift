extension MigrationError {
  /// What to do next, for this kind of problem.
  public var help: String { help(in: nil) }

  /// The help for this failure in the state a run left (`stopped`).
  private func help(in state: MigrationRunState?) -> String {
    switch self {
    case .folderUnusable:
      return "Use a migrations folder of .sql files this user can list (check it with ls -ld; "
        + "chmod u+rx gives its owner read and search permission)."
    case .directoryNotFound:
      return "Name the migrations folder that exists, or create it with its first migration."
    case .notSQL:
      return "Write the step as SQL in a .sql file of the folder's format; or, if this database "
        + "does not need it (or gets it another way), exclude the file on purpose "
        + "(MigrationFileExclusion)."
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
        + "write the new migration's file by hand with a version below it and apply it out of "
        + "order (MigrateOptions.allowOutOfOrder)."
    case .duplicateVersion:
      return "Give each migration a unique version number."
    case .downWithoutUp:
      return "Add the .up.sql file with the same version and name, or delete the .down.sql file."
    case .mismatchedPair:
      return "Give both files the same name after the version, such as "
        + "0003_add_email.up.sql and 0003_add_email.down.sql."
    case .unreadable:
      return "Check the file's permissions and that it is UTF-8 text."
    case .emptyMigration(let file) where FlywayFileName.isFlywayPath(file):
      return "Write the migration's SQL in the file, or delete it."
    case .emptyMigration:
      return "Write the migration's SQL, or delete the file."
    case .unwrittenPart:
      return "Write the part's SQL and delete the '-- strata:todo' line; or delete the line alone "
        + "to leave the part empty on purpose (an empty part runs as a no-op)."
    case .invalidMarker(let file, _, _)
    where file.hasSuffix(".up.sql") || file.hasSuffix(".down.sql"):
      return "A file of an .up.sql/.down.sql pair holds one part: remove the marker line (the down "
        + "part goes in the .down.sql file), and reword any comment that looks like a marker."
    case .invalidMarker:
      return "Use '-- migrate:up' and '-- migrate:down' (exactly so, lowercase), each up "
        + "followed by at most one down, optionally followed by 'transaction:false'; reword any "
        + "other comment that looks "
        + "like a marker."
    case .formatProblem(_, _, let format, _):
      return "Write the file as \(format.tool) reads it (docs/migrations.md lists what each "
        + "format reads), or name the folder's format (the format parameter of MigrationSet) if "
        + "it was detected wrongly."
    case .mixedFormats:
      return "Keep one format per folder (move the other tool's files to a folder of their own), "
        + "or name the folder's format (the format parameter of MigrationSet) to read every file "
        + "as that format."
    case .changedAfterApplied:
      return "Restore the original file and put the change in a new migration "
        + "('strata new NAME'); or accept the edit (MigrateOptions.allowChanged)."
    case .unknownApplied:
      return "Use the migrations folder that produced this database, or a newer release of the "
        + "app; or migrate anyway (MigrateOptions.allowUnknown)."
    case .outOfOrder:
      return "Give the migration a version above the newest applied, or apply it anyway "
        + "(MigrateOptions.allowOutOfOrder)."
    case .failed(_, _, _, let error)
    where (state?.databaseVersion ?? .zero).isZero && error.message.hasSuffix("already exists"):
      // A database that predates strata: its schema is there, its history is not.
      return "If the database already has this schema, adopt it with 'strata baseline --version "
        + "V' (V: the newest migration it already has); otherwise fix the file and run "
        + "'strata migrate' again."
    case .failed(_, _, _, let error) where error.changesStrataTable,
      .rollbackFailed(_, _, _, let error) where error.changesStrataTable,
      .partiallyApplied(_, _, _, _, let error, _) where error.changesStrataTable:
      return "strata keeps its own tables itself: remove the statement (to undo a migration, "
        + "run 'strata rollback'; to adopt a database that predates strata, 'strata baseline')."
    case .failed(_, _, _, let error) where error.isFull,
      .rollbackFailed(_, _, _, let error) where error.isFull:
      let command = if case .rollbackFailed = self { "rollback" } else { "migrate" }
      return "The disk is full (or the database's PRAGMA max_page_count is reached); the file "
        + "is not at fault. Free disk space, then run 'strata \(command)' again."
    case .failed:
      return "Fix the file and run 'strata migrate' again."
    case .rollbackFailed:
      return "Fix the file's down part and run 'strata rollback' again."
    case .foreignKeyViolation(_, _, _, _, let isRollback):
      return "Make the \(isRollback ? "down part" : "migration") keep every child row's parent "
        + "(or delete the orphans in it), then run 'strata \(isRollback ? "rollback" : "migrate")' "
        + "again."
    case .needsNoTransaction(_, _, _, let statement)
    where TransactionBoundStatement.transactionControl.contains(statement):
      let format = state?.format ?? .dbmate
      guard format.noTransactionOption != nil else {
        return "strata runs each migration in its own transaction: remove BEGIN/COMMIT/ROLLBACK "
          + "from the file (\(format.noTransactionAdvice))."
      }
      return "strata runs each migration in its own transaction: remove BEGIN/COMMIT/ROLLBACK "
        + "from the file, or \(format.noTransactionAdvice) to manage transactions yourself."
    case .needsNoTransaction:
      let format = state?.format ?? .dbmate
      guard format.noTransactionOption != nil else { return "\(format.noTransactionAdvice)." }
      return "Put it in a migration of its own and \(format.noTransactionAdvice)."
    case .partiallyApplied(_, _, _, _, _, let isRollback):
      return "Undo those statements by hand (or make them idempotent, such as CREATE TABLE IF "
        + "NOT EXISTS), fix the file, and run 'strata \(isRollback ? "rollback" : "migrate")' again."
    case .noTransactionInSingleTransaction:
      return "Run the migrations each in its own transaction (without "
        + "MigrateOptions.singleTransaction)."
    case .ownTransactionInSingleTransaction:
      return "Run the migrations each in its own transaction (without "
        + "MigrateOptions.singleTransaction). This file then runs in its own transaction, as "
        + "written."
    case .ownTransactionRefused:
      return "Give each BEGIN of the file its COMMIT (and no ROLLBACK), or remove them so that "
        + "strata runs the part in a transaction of its own."
    case .ownTransactionFailed(_, _, let line, _, let outcome, let isRollback)
    where outcome.recorded:
      return "Run the statements from line \(line) on by hand: the "
        + "\(isRollback ? "rollback" : "migration") itself is committed and recorded."
    case .ownTransactionFailed(_, _, _, _, let outcome, let isRollback) where outcome.kept:
      return "Undo by hand what stays committed (or make it idempotent, such as CREATE TABLE IF "
        + "NOT EXISTS), fix the file, and run 'strata \(isRollback ? "rollback" : "migrate")' "
        + "again."
    case .ownTransactionFailed(_, _, _, _, _, let isRollback):
      return "Fix the file and run 'strata \(isRollback ? "rollback" : "migrate")' again."
    case .irreversible(let version, _, .flyway):
      return "Write Flyway's undo file for it (U\(version)__<description>.sql beside it), or "
        + "restore from a backup."
    case .irreversible(_, _, let format):
      return format.downPartAdvice
    case .rollbackFileMissing:
      return "Restore the migration file, or use the migrations folder that has it."
    case .unknownTarget:
      return "Run 'strata status' to list the versions; use 0 for an empty database."
    case .baselineOnManagedDatabase:
      return "Run 'strata status' to see the history; 'strata migrate' applies what is pending."
    case .invalidName:
      return "Use letters, digits and underscores, such as add_email."
    case .stopped(let error, let state):
      return error.help(in: state)
    case .locked:
      return SQLiteError.lockedHelp
    case .database(_, let error) where error.isBusy:
      return SQLiteError.lockedHelp
    case .database(_, let error) where error.isFull:
      return "Free disk space (or raise PRAGMA max_page_count), then run the command again."
    case .database:
      return "Check that the database file is writable and intact, then run the command again."
    }
  }
}
