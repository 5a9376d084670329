import Foundation

extension DatabaseSetup {
  /// Runs the setup (`run()`), then opens the database it set up as the app's
  /// `DatabaseQueue`, with this setup's `connectionConfiguration` and `busyTimeout`; the
  /// setup's report stays in `DatabaseQueue.setupReport`.
  ///
  /// ```swift
  /// let queue = try setup.open()
  /// let people = try queue.read { db in try db.fetchRows("SELECT * FROM person_info") }
  /// ```
  ///
  /// - Throws: what `run()` throws; `DatabaseOpenError` when the database cannot be opened
  ///   afterwards.
  public func open() throws -> DatabaseQueue {
    let report = try run()
    return try DatabaseQueue(
      url: database,
      configuration: connectionConfiguration,
      busyTimeout: busyTimeout,
      report: report
    )
  }
}
