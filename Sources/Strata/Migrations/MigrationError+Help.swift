extension MigrationError: RemedialError {
  /// What to do next, for this kind of problem.
  public var help: String { help { $0.description } }

  /// The help, with each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String { help(in: nil, saying: say) }

  /// The help for this failure in the state a run left (`stopped`).
  private func help(in state: MigrationRunState?, saying say: (Remedy) -> String) -> String {
    switch self {
    case .folderUnusable:
      return sentence(say(.listableMigrationsFolder)) + "."
    case .directoryNotFound:
      return sentence(say(.existingMigrationsFolder)) + "."
    case .notSQL(let file):
      let name = file.split(separator: "/").last.map(String.init) ?? file
      return "Write the step as SQL in a .sql file of the folder's format; or, if this database "
        + "does not need it (or gets it another way), \(say(.excludeFile(name: name)))."
    case .invalidFileName:
      return "Rename it like 0004_add_email.sql (digits, underscore, name)."
    case .versionTooLarge:
      return "Rename it with a shorter version, such as a UTC timestamp (20240131120000) or the "
        + "next number after the folder's newest."
    case .versionZero:
      return "Versions start at 1: rename it with a version of 1 or more that no other file has, "
        + "such as 0001_create_person.sql."
    case .notCreated(_, _, true):
      return "Another file took that name a moment ago: \(say(.runAgain(.newMigration))) for "
        + "the next version."
    case .notCreated:
      return "Check that the migrations folder can be written, then try again."
    case .noVersionLeft:
      return "If that migration has not been applied to any database yet, rename it with a "
        + "smaller version (such as a UTC timestamp), then \(say(.runAgain(.newMigration))); "
        + "otherwise write the new migration's file by hand with a version below it and "
        + "\(say(.allowOutOfOrder))."
    case .duplicateVersion:
      return "Give each migration a unique version number."
    case .downWithoutUp:
      return "Add the .up.sql file with the same version and name, or delete the .down.sql file."
    case .mismatchedPair:
      return "Give both files the same name after the version, such as "
        + "0003_add_email.up.sql and 0003_add_email.down.sql."
    case .unreadable(_, let reason) where reason.hasSuffix(linkOutsideFolder):
      return "Move the file into the folder, or \(say(.followSymlinks))."
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
        + "format reads), or \(say(.migrationFormat)) if it was detected "
        + "wrongly."
    case .mixedFormats:
      return "Keep one format per folder (move the other tool's files to a folder of their own), "
        + "or \(say(.migrationFormat)) to read every file as that format."
    case .changedAfterApplied:
      return "Restore the original file and put the change in \(say(.newMigration)); or "
        + "\(say(.allowChanged))."
    case .unknownApplied:
      return sentence(say(.useMigrationsFolder)) + " that produced this database, or a newer "
        + "release of the app; or \(say(.allowUnknown))."
    case .outOfOrder:
      return "Give the migration a version above the newest applied, or \(say(.allowOutOfOrder))."
    case .failed(_, _, _, let error)
    where (state?.databaseVersion ?? .zero).isZero && error.message.hasSuffix("already exists"):
      // A database that predates strata: its schema is there, its history is not.
      return "If the database already has this schema, \(say(.baseline)); otherwise fix the "
        + "file and \(say(.runAgain(.migrate)))."
    case .failed(_, _, _, let error) where error.changesStrataTable,
      .rollbackFailed(_, _, _, let error) where error.changesStrataTable,
      .partiallyApplied(_, _, _, _, let error, _) where error.changesStrataTable:
      return
        "strata keeps its own tables itself: remove the statement (\(say(.rollbackOrBaseline)))."
    case .failed(_, _, _, let error) where error.isFull,
      .rollbackFailed(_, _, _, let error) where error.isFull:
      let operation: Remedy.Operation =
        if case .rollbackFailed = self { .rollback } else { .migrate }
      return "The disk is full (or the database's PRAGMA max_page_count is reached); the file "
        + "is not at fault. Free disk space, then \(say(.runAgain(operation)))."
    case .failed:
      return "Fix the file and \(say(.runAgain(.migrate)))."
    case .rollbackFailed:
      return "Fix the file's down part and \(say(.runAgain(.rollback)))."
    case .foreignKeyViolation(_, _, _, _, let isRollback):
      return "Make the \(isRollback ? "down part" : "migration") keep every child row's parent "
        + "(or delete the orphans in it), then \(say(.runAgain(isRollback ? .rollback : .migrate)))."
    case .foreignKeyMismatch(_, _, _, _, _, _, let isRollback):
      return "Point the foreign key at its parent table's PRIMARY KEY or at columns that are "
        + "UNIQUE together (this \(isRollback ? "down part" : "migration") can add the UNIQUE "
        + "index, with the columns' own collation); then "
        + "\(say(.runAgain(isRollback ? .rollback : .migrate))). Tools that never check foreign "
        + "keys, such as diesel, apply it as written, and the table then refuses every write "
        + "while foreign keys are on."
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
        + "NOT EXISTS), fix the file, and \(say(.runAgain(isRollback ? .rollback : .migrate)))."
    case .noTransactionInSingleTransaction:
      return sentence(say(.withoutSingleTransaction)) + "."
    case .ownTransactionInSingleTransaction:
      return sentence(say(.withoutSingleTransaction)) + ". This file then runs in its own "
        + "transaction, as written."
    case .ownTransactionRefused:
      return "Give each BEGIN of the file its COMMIT (and no ROLLBACK), or remove them so that "
        + "strata runs the part in a transaction of its own."
    case .ownTransactionFailed(_, _, let line, _, let outcome, let isRollback)
    where outcome.recorded:
      return "Run the statements from line \(line) on by hand: the "
        + "\(isRollback ? "rollback" : "migration") itself is committed and recorded."
    case .ownTransactionFailed(_, _, _, _, let outcome, let isRollback) where outcome.kept:
      return "Undo by hand what stays committed (or make it idempotent, such as CREATE TABLE IF "
        + "NOT EXISTS), fix the file, and \(say(.runAgain(isRollback ? .rollback : .migrate)))."
    case .ownTransactionFailed(_, _, _, _, _, let isRollback):
      return "Fix the file and \(say(.runAgain(isRollback ? .rollback : .migrate)))."
    case .irreversible(let version, _, .flyway):
      return "Write Flyway's undo file for it (U\(version)__<description>.sql beside it), or "
        + "restore from a backup."
    case .irreversible(_, _, let format):
      return format.downPartAdvice
    case .rollbackFileMissing:
      return "Restore the migration file, or \(say(.useMigrationsFolder)) that has it."
    case .unknownTarget:
      return sentence(say(.showHistory)) + "; use 0 for an empty database."
    case .baselineOnManagedDatabase:
      return sentence(say(.showHistory)) + "; migrating applies what is pending."
    case .invalidName:
      return "Use letters, digits and underscores, such as add_email."
    case .insideTransaction:
      return "Commit or roll back the transaction the app opened on this connection first (or "
        + "migrate on a connection of its own), then try again."
    case .stopped(let error, let state)
    where state.dryRun.map { $0.began && !$0.notTried.isEmpty } == true && error.isStepFailure:
      // The part not tried may be what this one needs (a table it makes): the real run, which
      // runs it first, may succeed. Said plainly, and how to be sure; never "fix the file".
      return "This failure may come only from what the dry run could not try before it "
        + "(\(state.dryRun?.notTriedPlaces ?? "")): a migration that needs what that part makes "
        + "fails here, although the real run, which runs that part first, may succeed. To be "
        + "sure, migrate a copy of the database (or a backup of it) and look at the result; only "
        + "if it fails there too is this migration (or the rows it meets) at fault. Nothing was "
        + "changed."
    case .stopped(.failed(_, _, _, let error), let state)
    where state.dryRun.map { !$0.onEmptyDatabase } == true && error.isConstraint:
      return "The rows this migration meets break it (\(error.message)): the database's, or "
        + "those the migrations insert themselves. Change the migration to deal with them "
        + "(remove duplicates before a UNIQUE index, give a NOT NULL column a DEFAULT) or fix "
        + "those rows first, then try again; nothing was changed."
    case .stopped(let error, let state):
      return error.help(in: state, saying: say)
    case .locked:
      return sentence(say(.waitForLock)) + "."
    case .database(_, let error) where error.isBusy:
      return sentence(say(.waitForLock)) + "."
    case .database(_, let error) where error.isFull:
      return "Free disk space (or raise PRAGMA max_page_count), then try again."
    case .database:
      return "Check that the database file is writable and intact, then try again."
    }
  }
}
