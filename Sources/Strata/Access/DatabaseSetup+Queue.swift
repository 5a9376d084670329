import Foundation

extension DatabaseSetup {
  /// Runs the setup (`run()`), then opens the database it set up as the app's
  /// `DatabaseQueue`, with this setup's `connectionConfiguration` and `busyTimeout`; the
  /// setup's report stays in `DatabaseQueue.setupReport`.
  ///
  /// A seed file that fails to load does not stop it: the database opens at its migrated
  /// version with the seeds as they were before (rolled back; tried again at the next launch),
  /// and `setupReport?.seedProblem` says what failed, for the app to log.
  ///
  /// ```swift
  /// let queue = try await setup.open()
  /// if let problem = queue.setupReport?.seedProblem { log(problem.message) }
  /// let people = try await queue.read { db in try db.fetchRows("SELECT * FROM person_info") }
  /// ```
  ///
  /// - Throws: what `run()` throws (never a seed problem); `DatabaseOpenError` when the
  ///   database cannot be opened afterwards.
  public func open() throws -> DatabaseQueue {
    let report = try run()
    return try DatabaseQueue(
      url: database,
      configuration: connectionConfiguration,
      busyTimeout: busyTimeout,
      report: report
    )
  }

  /// `open()` for an `async` caller: the setup runs as `run() async` does (off the caller's
  /// actor, stopped by cancelling the task, with the database left as before the interrupted
  /// step), then the database opens as the app's queue.
  ///
  /// ```swift
  /// let queue = try await setup.open()   // a launch screen can show setup.progress meanwhile
  /// ```
  ///
  /// - Throws: `CancellationError` when the task was cancelled; otherwise what `run()` throws
  ///   (never a seed problem: `setupReport?.seedProblem`); `DatabaseOpenError` when the
  ///   database cannot be opened afterwards.
  public func open() async throws -> DatabaseQueue {
    let report = try await run()
    return try DatabaseQueue(
      url: database,
      configuration: connectionConfiguration,
      busyTimeout: busyTimeout,
      report: report
    )
  }
}
