import Foundation

/// One part of one migration, and which way running it moves the database: the up part
/// applies the migration, the down part rolls it back.
package struct MigrationPart {
  package let migration: Migration
  package let script: MigrationScript
  package let direction: MigrationStep.Direction
  /// A repeatable migration (`Migrator+Repeatables.swift`): pending while its checksum differs
  /// from the recorded one, and recorded by name.
  var isRepeatable = false

  /// The up part, to apply `migration`.
  init(applying migration: Migration) {
    self.init(migration, migration.up, .up)
  }

  init(_ migration: Migration, _ script: MigrationScript, _ direction: MigrationStep.Direction) {
    self.migration = migration
    self.script = script
    self.direction = direction
  }

  var isRollback: Bool { direction == .down }

  /// The report's line for this part.
  func step(durationMs: Int64 = 0, sql: String? = nil) -> MigrationStep {
    MigrationStep(migration, script, direction, durationMs: durationMs, sql: sql)
  }
}

/// Runs one migration part with everything that goes with it: the transaction (or none, for
/// `transaction:false`), the foreign-key check before commit, and the history row. Every path
/// goes through it: `migrate` one transaction per migration (`runAlone`) or all in one
/// (`runInTransaction`), `rollback` (`runAlone`), and `baseline` (`recordWithoutRunning`).
///
/// Foreign keys are turned off around the whole run by the caller
/// (`Migrator.withForeignKeysDeferred`), since inside a transaction the pragma is a no-op.
struct MigrationPartRunner {
  let connection: any SQLDatabase
  let history: HistoryWriter
  let baseline: ForeignKeyBaseline
  /// The folder's format: which parts may manage their own transaction (OwnTransaction.swift).
  let format: MigrationFormat
  /// Kept between `runAlone`'s commits when given (a run of parts one transaction each).
  let lock: MigrationRunLock?

  /// The database as SQLite's own connection, for its fence (Authorizer.swift), an SQLite-only
  /// power; nil on another engine, which the fence cannot guard (docs/architecture.md, "The
  /// seam to a database").
  var sqlite: Connection? { connection as? Connection }

  init(
    _ connection: any SQLDatabase,
    baseline: ForeignKeyBaseline = ForeignKeyBaseline(),
    format: MigrationFormat = .dbmate,
    lock: MigrationRunLock? = nil
  ) throws {
    self.connection = connection
    self.history = try HistoryWriter(connection)
    self.baseline = baseline
    self.format = format
    self.lock = lock
  }

  /// Runs `part` in a transaction of its own, or, for `transaction:false`, its statements on
  /// their own and the history row after they all succeed; a part that manages its own
  /// transaction, as written (`runAsWritten`). Nil when the history shows the part
  /// already ran (another process got there first).
  func runAlone(_ part: MigrationPart) throws -> MigrationStep? {
    let started = ContinuousClock.now
    let ran: Bool
    if let own = try OwnTransaction.find(in: part, format: format) {
      lock?.release()
      ran = try runAsWritten(part, own, started: started)
    } else if try runInOneRequest(part) {
      ran = true
    } else if part.script.isTransactional {
      ran = try Migrator.withForeignKeyBaseline(
        connection,
        baseline,
        afterRollback: history.reloadLayout
      ) {
        try connection.transaction(.immediate) {
          lock?.hold()
          return try runInTransaction(part, started: started)
        }
      }
    } else {
      lock?.release()
      baseline.before = nil
      ran = try runOutsideTransaction(part, started: started)
    }
    guard ran else { return nil }
    return part.step(durationMs: milliseconds(ContinuousClock.now - started))
  }

  /// Runs `part` inside the transaction the caller holds: its statements, the check that it
  /// leaves no new foreign key violation, and its history row. False when the history shows it
  /// already ran.
  func runInTransaction(_ part: MigrationPart, started: ContinuousClock.Instant) throws -> Bool {
    guard try isPending(part) else { return false }
    try run(part)
    try Migrator.checkForeignKeys(
      connection,
      migration: part.migration,
      file: part.script.file,
      isRollback: part.isRollback,
      baseline: baseline
    )
    try writeHistory(part, started: started)
    return true
  }

  /// Records `migrations` as applied without running them (`baseline`), in one transaction.
  ///
  /// - Throws: `MigrationError.baselineOnManagedDatabase` when the history is not empty.
  func recordWithoutRunning(_ migrations: [Migration]) throws {
    try recordWithoutRunning { (migrations, []) }
  }

  /// Records the migrations and repeatable migrations `choose` returns, choosing them inside
  /// the same transaction (an adoption reads the other tool's history there, so no other writer
  /// comes between).
  func recordWithoutRunning(
    choosing choose: () throws -> (migrations: [Migration], repeatables: [RepeatableMigration])
  ) throws {
    try connection.transaction(.immediate) {
      let existing = try History.read(connection)
      guard existing.isEmpty else {
        throw MigrationError.baselineOnManagedDatabase(appliedCount: existing.count)
      }
      let (migrations, repeatables) = try choose()
      try history.createTableIfNeeded()
      let now = Date()
      for migration in migrations {
        try history.record(migration, appliedAt: now, durationMs: 0)
      }
      for repeatable in repeatables {
        try history.recordRepeatable(
          name: repeatable.name,
          checksum: repeatable.checksum,
          appliedAt: now,
          durationMs: 0
        )
      }
    }
  }

  /// `transaction:false`: the statements run on their own; the history row is written only
  /// after they all succeed.
  private func runOutsideTransaction(
    _ part: MigrationPart,
    started: ContinuousClock.Instant
  ) throws -> Bool {
    guard try connection.transaction(.immediate, { try isPending(part) }) else { return false }
    try run(part)
    try connection.transaction(.immediate) {
      guard try isPending(part) else { return }
      try writeHistory(part, started: started)
    }
    return true
  }

  /// Whether the history still calls for `part`: an up part whose migration is not applied,
  /// a down part whose migration is. Creates the history table before the first up part.
  func isPending(_ part: MigrationPart) throws -> Bool {
    if part.isRollback { return try history.isApplied(part.migration.version) }
    try history.createTableIfNeeded()
    if part.isRepeatable {
      let recorded = try History.readRepeatables(connection).first {
        $0.name == part.migration.name
      }
      return recorded?.checksum != part.migration.checksum
    }
    return try !history.isApplied(part.migration.version)
  }

  /// Runs the part's statements, fenced off strata's own tables, turning a statement's
  /// failure into an error that names the file and line.
  private func run(_ part: MigrationPart) throws {
    let (migration, script) = (part.migration, part.script)
    // The user's SQL may read strata's own tables but never change them (Authorizer.swift).
    let fence = sqlite?.raiseFence(.strataTables)
    defer { if let fence { sqlite?.restoreFence(fence) } }
    var prepared = 0
    do {
      try connection.executeScript(script.sql, firstLine: script.firstLine) { statement in
        prepared += 1
        if let refused = refusedInTransaction(script, sql: statement.sql) {
          throw MigrationError.needsNoTransaction(
            version: migration.version,
            file: script.file,
            line: statement.line,
            statement: refused
          )
        }
      }
    } catch let error as ScriptError {
      // Some (such as `PRAGMA synchronous = …`) already fail when prepared, before `willRun`;
      // the authorizer has seen them all the same. (A failure with no SQL was never prepared:
      // a NUL byte in the file.)
      if prepared < error.statementNumber, let sql = error.underlying.sql,
        let refused = refusedInTransaction(script, sql: sql)
      {
        throw MigrationError.needsNoTransaction(
          version: migration.version,
          file: script.file,
          line: error.line,
          statement: refused
        )
      }
      if !script.isTransactional {
        throw MigrationError.partiallyApplied(
          version: migration.version,
          file: script.file,
          line: error.line,
          statementsRun: error.statementNumber - 1,
          error: error.underlying,
          isRollback: part.isRollback
        )
      }
      if part.isRollback {
        throw MigrationError.rollbackFailed(
          version: migration.version,
          file: script.file,
          line: error.line,
          error: error.underlying
        )
      }
      throw MigrationError.failed(
        version: migration.version,
        file: script.file,
        line: error.line,
        error: error.underlying
      )
    }
  }

  /// How a message names the statement just prepared when it cannot run in the transaction
  /// `script` runs in; nil when it can, or when `script` runs without one.
  private func refusedInTransaction(_ script: MigrationScript, sql: String) -> String? {
    guard script.isTransactional else { return nil }
    return TransactionBoundStatement.named(sqlite?.lastPreparedKind ?? .unreported, sql: sql)
  }

  /// Records an applied migration, or removes a rolled-back one.
  func writeHistory(_ part: MigrationPart, started: ContinuousClock.Instant) throws {
    if part.isRepeatable {
      try history.recordRepeatable(
        name: part.migration.name,
        checksum: part.migration.checksum,
        appliedAt: Date(),
        durationMs: milliseconds(ContinuousClock.now - started)
      )
    } else if part.isRollback {
      try history.remove(part.migration.version)
    } else {
      let duration = milliseconds(ContinuousClock.now - started)
      try history.record(part.migration, appliedAt: Date(), durationMs: duration)
    }
  }
}
