import Foundation

extension DatabaseSetup {
  /// Runs the setup and opens the database as a `DatabasePool`: what `open()` does, with the
  /// database switched to WAL mode before this run's migrations whatever `usesWriteAheadLog`
  /// says (a pool needs it; the mode stays in the file). The setup's report stays in
  /// `DatabasePool.setupReport`.
  ///
  /// ```swift
  /// let pool = try setup.openPool()
  /// ```
  ///
  /// - Parameter maximumReaderCount: how many reads may run at once.
  /// - Throws: what `open()` throws; `DatabaseOpenError.walSwitchLocked` when another
  ///   connection holds the existing file in rollback-journal mode beyond the busy timeout
  ///   (nothing was changed, and no migration ran).
  public func openPool(
    maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount
  ) throws -> DatabasePool {
    let queue: DatabaseQueue
    do { queue = try writingAheadLog.open() } catch { throw poolError(error) }
    return pool(writing: queue, maximumReaderCount: maximumReaderCount)
  }

  /// `openPool()` for an `async` caller: the setup runs as `open() async` does (off the
  /// caller's actor, stopped by cancelling the task).
  ///
  /// ```swift
  /// let pool = try await setup.openPool()
  /// ```
  ///
  /// - Throws: as `openPool()`; `CancellationError` when the task was cancelled.
  public func openPool(
    maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount
  ) async throws -> DatabasePool {
    let queue: DatabaseQueue
    do { queue = try await writingAheadLog.open() } catch { throw poolError(error) }
    return pool(writing: queue, maximumReaderCount: maximumReaderCount)
  }

  /// This setup with `usesWriteAheadLog` on: the pool's writer is what its `open()` returns,
  /// so everything `open()` does and reports, the pool does and reports.
  private var writingAheadLog: DatabaseSetup {
    var setup = self
    setup.usesWriteAheadLog = true
    return setup
  }

  private func pool(writing queue: DatabaseQueue, maximumReaderCount: Int) -> DatabasePool {
    DatabasePool(
      writer: queue,
      url: database,
      configuration: connectionConfiguration,
      busyTimeout: busyTimeout,
      maximumReaderCount: maximumReaderCount
    )
  }

  /// A lock that stopped the switch to WAL, in the pool's words: SQLite's busy error on a file
  /// still in rollback-journal mode (its header says so). Any other error as it is.
  private func poolError(_ error: any Error) -> any Error {
    guard case .sqlite(let path, let sqliteError) = error as? DatabaseOpenError,
      sqliteError.isBusy, databaseFileKind(at: database.path) == .sqlite,
      !isWALDatabase(at: database.path)
    else { return error }
    return DatabasePool.walSwitchLocked(path: path, busyTimeout: busyTimeout, sqliteError)
  }
}
