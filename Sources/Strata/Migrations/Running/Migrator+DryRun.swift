import Foundation

/// What a dry run of pending migrations tried on the database's rows: each pending part it
/// could, run as `migrate` runs it (fenced off strata's tables, the foreign-key check before
/// commit, the history row) in one transaction that it then rolled back.
package struct DryRunTrial: Hashable, Sendable, Codable {
  /// Whether the parts ran on the database at all: false when the connection could only read
  /// it, so nothing was tried on its rows (the report is the plan alone).
  package let ranOnTheDatabase: Bool
  /// The parts that ran there without error, in order; all rolled back.
  package internal(set) var tried: [MigrationStep] = []
  /// The parts the dry run could not run inside its transaction, by file and line, and why: a
  /// part that runs outside a transaction or manages its own, or one with a statement that
  /// reaches outside the database's file (`ATTACH` of a file, `VACUUM INTO`,
  /// `load_extension()`).
  package internal(set) var notTried: [UncheckedStatement] = []
  /// Whether the trial's transaction began: false when it could not take the database's write
  /// lock (another connection held it longer than the busy timeout) or another failure came
  /// first, so nothing ran.
  package internal(set) var began = false
  /// Whether the database had no tables when the trial began (a database that does not exist
  /// yet is tried as a new, empty one): the migrations met no rows, only each other.
  package internal(set) var onEmptyDatabase = false

  /// A trial that ran `tried` and could not run `notTried`.
  init(
    ranOnTheDatabase: Bool,
    tried: [MigrationStep] = [],
    notTried: [UncheckedStatement] = []
  ) {
    self.ranOnTheDatabase = ranOnTheDatabase
    self.tried = tried
    self.notTried = notTried
  }

  /// What `failure`'s message adds in a dry run: nothing was changed, what ran before it, and
  /// what was not tried before it (the failure may come from that).
  func failureNote(for failure: MigrationError) -> String {
    guard began else {
      let why: String
      switch failure {
      case .locked: why = "the database is locked by another connection"
      case .database(_, let error) where error.isBusy:
        why = "the database is locked by another connection"
      default: why = "that failed before its transaction began"
      }
      return "; this was a dry run, and it could not start (\(why)), so no migration ran and "
        + "nothing was changed"
    }
    var note =
      onEmptyDatabase
      ? "; this was a dry run on a new, empty database (it has no tables, so no rows of it "
        + "were involved): the pending migrations ran in a transaction that was rolled back, so "
        + "nothing was created or changed"
      : "; this was a dry run: the pending migrations ran on the database's rows in a "
        + "transaction that was rolled back, so nothing was changed"
    if !tried.isEmpty {
      note += " (before it, \(tried.map(\.file).joined(separator: ", ")) ran there without error)"
    }
    if !notTried.isEmpty {
      note +=
        "; not tried before it: \(notTriedPlaces), which cannot run in the dry run's "
        + "transaction, so this failure may come only from their absence (the real run runs "
        + "them first and may succeed)"
    }
    return note
  }

  /// The parts not tried, as `file:line`.
  var notTriedPlaces: String {
    notTried.map { place in place.line.map { "\(place.file):\($0)" } ?? place.file }
      .joined(separator: ", ")
  }
}

extension Migrator {
  /// Runs `parts` on `connection`'s database inside one `BEGIN IMMEDIATE` transaction that is
  /// always rolled back, each part as `migrate` runs it (`MigrationPartRunner`), so the
  /// database's own rows meet the migrations: a `UNIQUE` index over duplicates, a `NOT NULL`
  /// column over existing rows, a new foreign key violation fail here as they would in the run.
  /// A part that cannot run in that transaction is reported as not tried; so is one whose
  /// statement the fence keeps from reaching a file outside the database.
  ///
  /// The write lock is the one each migration of a run takes, waited for as long (the busy
  /// timeout). Nothing is tried on a read-only connection.
  ///
  /// - Throws: `MigrationError.stopped` with the first failure, its state carrying the trial
  ///   (`MigrationRunState.dryRun`); the database is unchanged.
  func tryOnTheRows(_ parts: [MigrationPart], _ connection: Connection) throws -> DryRunTrial {
    guard !connection.isReadOnly else { return DryRunTrial(ranOnTheDatabase: false) }
    var trial = DryRunTrial(ranOnTheDatabase: true)
    guard !parts.isEmpty else { return trial }
    let empty = try? connection.scalar("SELECT count(*) FROM sqlite_master")?.integerValue == 0
    let baseline = ForeignKeyBaseline()
    do {
      try reportingState(connection) {
        // Every page the trial changes stays in memory until the rollback: a spill would
        // write them into the database file (rollback journal) or its -wal before the end.
        try Self.withoutCacheSpill(connection) {
          // As the replays: nothing reaches a file outside the database; the runner adds the
          // fence around strata's own tables, as in a run.
          try connection.withFence(.noOutsideFiles) {
            try Self.withForeignKeysDeferred(connection) {
              try Self.withForeignKeyBaseline(connection, baseline) {
                trial = DryRunTrial(ranOnTheDatabase: true)
                trial.onEmptyDatabase = empty ?? false
                try connection.execute("BEGIN IMMEDIATE")
                trial.began = true
                defer { if !connection.isAutocommit { try? connection.execute("ROLLBACK") } }
                try tryEach(parts, connection, baseline: baseline, into: &trial)
              }
            }
          }
        }
      }
    } catch MigrationError.stopped(let failure, var state) {
      state.dryRun = trial
      throw MigrationError.stopped(failure, state: state)
    }
    return trial
  }

  /// Runs `body` with the pager's cache spill off (`PRAGMA cache_spill`, set outside any
  /// transaction), then restores it. With the spill on, a transaction that changes more pages
  /// than the page cache holds writes some of them before it ends: into the database file (with
  /// a rollback journal, which the rollback then copies back) or into the `-wal` (which then
  /// keeps them, and the `-shm` changes). Off, they stay in memory: the trial costs as much
  /// memory as the pages it changes.
  private static func withoutCacheSpill<T>(
    _ connection: Connection,
    _ body: () throws -> T
  )
    throws -> T
  {
    let wasOn = try connection.scalar("PRAGMA cache_spill")?.integerValue != 0
    try connection.execute("PRAGMA cache_spill = OFF")
    // The boolean form leaves the spill threshold (PRAGMA cache_spill = N) as it was.
    defer { if wasOn { try? connection.execute("PRAGMA cache_spill = ON") } }
    return try body()
  }

  /// The parts in order, inside the dry run's transaction, each in a savepoint of its own so
  /// that one not tried leaves nothing of it behind.
  private func tryEach(
    _ parts: [MigrationPart],
    _ connection: Connection,
    baseline: ForeignKeyBaseline,
    into trial: inout DryRunTrial
  ) throws {
    let runner = try MigrationPartRunner(connection, baseline: baseline, format: migrations.format)
    // Made before any savepoint, so that rolling one back never takes the table with it.
    try runner.history.createTableIfNeeded()
    for part in parts {
      if let reason = try notTriable(part) {
        trial.notTried.append(reason)
        continue
      }
      do {
        let ran = try connection.savepoint("strata_dry_run") {
          try runner.runInTransaction(part, started: ContinuousClock.now)
        }
        if ran { trial.tried.append(part.step(sql: part.script.sql)) }
      } catch let error as MigrationError {
        guard case .failed(_, let file, let line, let sqlError) = error,
          sqlError.isRefusedByFence, !sqlError.changesStrataTable
        else { throw error }
        trial.notTried.append(
          UncheckedStatement(
            file: file,
            line: line,
            statement: oneLine(sqlError.sql),
            reason: "\(sqlError.message); a dry run keeps every statement inside the database's "
              + "file, so this part was not tried"
          )
        )
      }
    }
  }

  /// Why `part` cannot run inside the dry run's transaction, at its line; nil when it can.
  private func notTriable(_ part: MigrationPart) throws -> UncheckedStatement? {
    let script = part.script
    if let own = try OwnTransaction.find(in: part, format: migrations.format) {
      return UncheckedStatement(
        file: script.file,
        line: own.statements[own.blocks[0].begin].line,
        statement: nil,
        reason: "the file manages its own transaction (BEGIN here), which cannot run inside the "
          + "dry run's transaction"
      )
    }
    guard !script.isTransactional else { return nil }
    let marked =
      migrations.format.noTransactionOption.map { "the part is marked \($0)" }
      ?? "the part runs outside a transaction"
    return UncheckedStatement(
      file: script.file,
      line: SQLStatementScanner.statements(script.sql, firstLine: script.firstLine).first?.line
        ?? script.firstLine,
      statement: nil,
      reason: "\(marked), so it cannot run inside the dry run's transaction"
    )
  }

  private func oneLine(_ sql: String?) -> String? {
    guard let sql else { return nil }
    let text = sql.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: " ")
    return text.count > 200 ? String(text.prefix(200)) + "…" : text
  }
}

extension MigrationError {
  /// A failure of a migration's own statements or of the checks after them (not of the lock,
  /// the disk or the file system).
  var isStepFailure: Bool {
    switch self {
    case .failed, .foreignKeyViolation, .foreignKeyMismatch, .partiallyApplied,
      .needsNoTransaction:
      true
    default: false
    }
  }
}
