extension Migrator {
  // MARK: - State

  func databaseVersion(_ connection: any SQLDatabase) throws -> MigrationVersion {
    try History.currentVersion(connection)
  }

  func checkTarget(_ target: MigrationVersion, plan: MigrationPlan) throws {
    guard target.isZero || plan.migrations.contains(where: { $0.version == target }) else {
      throw MigrationError.unknownTarget(version: target)
    }
  }

  /// Runs `body`; a failure comes out as a `MigrationError` that says what state the database
  /// is in now (its transaction is rolled back by then) and which steps of the run, committed
  /// before it (`completed`), stay done. The one place a run's error gets that state
  /// (`MigrationError.stopped`).
  func reportingState<T>(
    _ connection: any SQLDatabase,
    completed: () -> [MigrationStep] = { [] },
    _ body: () throws -> T
  ) throws -> T {
    do {
      return try body()
    } catch {
      let done = completed()
      let failure: MigrationError
      let version: MigrationVersion?
      switch error {
      case let error as MigrationError:
        failure = error
        version = try? databaseVersion(connection)
      case let error as SQLiteError where error.isBusy:
        failure = .locked(path: connection.path, error: error)
        version = try? connection.withoutWaitingForLocks { try databaseVersion(connection) }
      case let error as SQLiteError:
        failure = .database(path: connection.path, error: error)
        version = try? databaseVersion(connection)
      default:
        // The engine lost its connection (a remote leader gone): the state cannot be read
        // here; the caller reconnects and reads it.
        if connection.isConnectionLost(error) {
          throw MigrationInterrupted(underlying: error, completed: done)
        }
        throw error
      }
      guard failure.changesTheDatabase || !done.isEmpty else { throw failure }
      throw MigrationError.stopped(
        failure,
        state: MigrationRunState(
          databaseVersion: version,
          completed: done,
          format: migrations.format
        )
      )
    }
  }
}

extension MigrationError {
  /// Whether the failure happened while the run was changing the database, so its message
  /// must say the state the database is left in.
  fileprivate var changesTheDatabase: Bool {
    switch self {
    case .failed, .rollbackFailed, .foreignKeyViolation, .foreignKeyMismatch, .needsNoTransaction,
      .partiallyApplied,
      .database, .locked, .ownTransactionRefused, .ownTransactionFailed,
      .ownTransactionInSingleTransaction:
      return true
    default:
      return false
    }
  }
}

/// A run stopped because the engine lost its connection to the database (a remote engine's
/// leader gone, `SQLDatabase.isConnectionLost`): the steps committed before it stay done, and
/// the part in flight was committed whole or not at all. Thrown for the engine's caller to
/// reconnect and read the version, which the lost connection cannot.
package struct MigrationInterrupted: Error {
  /// The engine's error.
  package let underlying: any Error
  /// The parts committed before the connection was lost.
  package let completed: [MigrationStep]
}
