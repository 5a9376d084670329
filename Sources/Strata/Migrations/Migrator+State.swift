import Foundation

extension Migrator {
  // MARK: - State

  func databaseVersion(_ connection: Connection) throws -> Int64 {
    try History.currentVersion(connection)
  }

  func checkTarget(_ target: Int64, plan: MigrationPlan) throws {
    guard target == 0 || plan.migrations.contains(where: { $0.version == target }) else {
      throw MigrationError.unknownTarget(version: target)
    }
  }

  /// Runs `body`; a failure comes out as a `MigrationError` that says what state the database
  /// is in now (its transaction is rolled back by then) and which steps of the run, committed
  /// before it (`completed`), stay done.
  func reportingState<T>(
    _ connection: Connection,
    completed: () -> [MigrationStep] = { [] },
    _ body: () throws -> T
  ) throws -> T {
    do {
      return try body()
    } catch {
      let done = completed()
      let reported = stateError(error, connection, keptEarlier: !done.isEmpty)
      guard let reported else { throw error }
      throw done.isEmpty ? reported : .stoppedAfter(completed: done, error: reported)
    }
  }

  private func stateError(
    _ error: any Error,
    _ connection: Connection,
    keptEarlier: Bool
  ) -> MigrationError? {
    switch error {
    case let error as MigrationError:
      return withState(error, connection, keptEarlier: keptEarlier)
    case let error as SQLiteError where error.isBusy:
      return MigrationError.locked(
        path: connection.path,
        error: error,
        databaseVersion: try? connection.withoutWaitingForLocks { try databaseVersion(connection) },
        keptEarlier: keptEarlier
      )
    case let error as SQLiteError:
      return MigrationError.database(
        path: connection.path,
        error: error,
        databaseVersion: try? databaseVersion(connection)
      )
    default:
      return nil
    }
  }

  /// Fills in the database's version now that the failed transaction is rolled back.
  func withState(
    _ error: MigrationError,
    _ connection: Connection,
    keptEarlier: Bool
  )
    -> MigrationError
  {
    let version = (try? databaseVersion(connection)) ?? 0
    switch error {
    case .failed(let v, let file, let line, let underlying, _, _):
      return .failed(
        version: v,
        file: file,
        line: line,
        error: underlying,
        databaseVersion: version,
        keptEarlier: keptEarlier
      )
    case .rollbackFailed(let v, let file, let line, let underlying, _):
      return .rollbackFailed(
        version: v,
        file: file,
        line: line,
        error: underlying,
        databaseVersion: version
      )
    case .foreignKeyViolation(let v, let file, let violations, let preexisting, let isRollback, _):
      return .foreignKeyViolation(
        version: v,
        file: file,
        violations: violations,
        preexisting: preexisting,
        isRollback: isRollback,
        databaseVersion: version
      )
    case .needsNoTransaction(let v, let file, let line, let statement, _):
      return .needsNoTransaction(
        version: v,
        file: file,
        line: line,
        statement: statement,
        databaseVersion: version
      )
    case .partiallyApplied(let v, let file, let line, let run, let underlying, let isRollback, _):
      return .partiallyApplied(
        version: v,
        file: file,
        line: line,
        statementsRun: run,
        error: underlying,
        isRollback: isRollback,
        databaseVersion: version
      )
    default:
      return error
    }
  }
}
