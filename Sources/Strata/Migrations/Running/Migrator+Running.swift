import Foundation

/// Running a migrate or rollback run's parts through the part runner (`MigrationPartRunner`):
/// each in a transaction of its own, or all in one, with what must be refused before the first
/// part runs.
extension Migrator {
  /// Runs each part in a transaction of its own (or none, for `transaction:false`); the parts
  /// that ran before a failure stay done. The database's lock is kept from one commit to the
  /// next (`MigrationRunLock`).
  func runEach(
    _ parts: [MigrationPart],
    _ connection: any SQLDatabase,
    baseline: ForeignKeyBaseline,
    willRun: WillRun? = nil
  ) throws -> [MigrationStep] {
    var steps: [MigrationStep] = []
    try reportingState(connection, completed: { steps }) {
      // Given up after the foreign keys' setting is restored, and before a failure is read.
      // `locking_mode` is SQLite's: another engine's run keeps no lock between migrations.
      let lock = (connection as? Connection).map(MigrationRunLock.init)
      defer { lock?.release() }
      try Self.withForeignKeysDeferred(connection) {
        let runner = try MigrationPartRunner(
          connection,
          baseline: baseline,
          format: migrations.format,
          lock: lock
        )
        for (index, part) in parts.enumerated() {
          try willRun?(part, index + 1, parts.count)
          if let step = try runner.runAlone(part) { steps.append(step) }
        }
      }
    }
    return steps
  }

  /// `--single-transaction`: every part in one transaction, so a failure leaves none applied.
  func runAllInOneTransaction(
    _ parts: [MigrationPart],
    _ connection: any SQLDatabase,
    baseline: ForeignKeyBaseline,
    willRun: WillRun?
  ) throws -> [MigrationStep] {
    try refuseLooseParts(parts, singleTransaction: true)
    return try reportingState(connection) {
      try checkOwnTransactions(parts, singleTransaction: true)
      return try Self.withForeignKeysDeferred(connection) {
        try Self.withForeignKeyBaseline(connection, baseline) {
          try connection.transaction(.immediate) { () -> [MigrationStep] in
            let runner = try MigrationPartRunner(connection, baseline: baseline)
            var steps: [MigrationStep] = []
            for (index, part) in parts.enumerated() {
              try willRun?(part, index + 1, parts.count)
              let started = ContinuousClock.now
              guard try runner.runInTransaction(part, started: started) else { continue }
              steps.append(part.step(durationMs: milliseconds(ContinuousClock.now - started)))
            }
            return steps
          }
        }
      }
    }
  }

  /// In a run in one transaction, refuses a part marked to run outside a transaction.
  func refuseLooseParts(_ parts: [MigrationPart], singleTransaction: Bool) throws {
    guard singleTransaction, let loose = parts.first(where: { !$0.script.isTransactional })
    else { return }
    throw MigrationError.noTransactionInSingleTransaction(
      version: loose.migration.version,
      file: loose.script.file,
      format: migrations.format
    )
  }

  /// Refuses, before anything runs, a part whose own transaction cannot work as written, and
  /// in a run in one transaction any part that manages its own (its `BEGIN` would fail there).
  func checkOwnTransactions(_ parts: [MigrationPart], singleTransaction: Bool) throws {
    for part in parts {
      guard let own = try OwnTransaction.find(in: part, format: migrations.format),
        singleTransaction
      else { continue }
      throw MigrationError.ownTransactionInSingleTransaction(
        version: part.migration.version,
        file: part.script.file,
        line: own.statements[own.blocks[0].begin].line
      )
    }
  }
}
