import Foundation

extension DatabaseSetup {
  /// Runs the setup off the caller's actor, and honours the task's cancellation: a cancelled
  /// task stops the running migration or seed run mid-statement (an SQLite progress handler
  /// asks every thousand steps), rolls it back and throws `CancellationError`.
  ///
  /// After a cancel the database is as the steps that finished left it: a copied template
  /// stays, and so does every migration that committed before the cancel; the interrupted
  /// migration (all of them, with `migrateOptions.singleTransaction`) and the whole seed run
  /// are rolled back. A migration that runs without a transaction (`transaction:false`) may
  /// stop part way, as on any failure. The next `run()` carries on from there.
  ///
  /// ```swift
  /// let task = Task { try await setup.run() }
  /// // …the user leaves the screen:
  /// task.cancel()
  /// ```
  ///
  /// - Throws: `CancellationError` when the task was cancelled; otherwise what `run()` throws.
  @discardableResult
  public func run() async throws -> SetupReport {
    try await Self.cancellable { isCancelled in try run(isCancelled: isCancelled) }
  }

  /// Runs `body` with a question that turns true once the current task is cancelled (asked
  /// from whichever thread `body` runs on), throwing `CancellationError` at once when the task
  /// is cancelled already. The async forms of the launch call wrap their work with it.
  static func cancellable<T: Sendable>(
    _ body: @Sendable (@escaping @Sendable () -> Bool) throws -> T
  ) async throws -> T {
    let flag = CancellationFlag()
    return try await withTaskCancellationHandler {
      try Task.checkCancellation()
      return try body { flag.isSet }
    } onCancel: {
      flag.set()
    }
  }

  /// Runs `body` with `connection` interrupted once `isCancelled` answers true (no handler
  /// without one); an error after a cancel comes out as `CancellationError`, with the
  /// interrupted transaction rolled back.
  static func interruptible<T>(
    _ connection: Connection,
    _ isCancelled: (@Sendable () -> Bool)?,
    _ body: () throws -> T
  ) throws -> T {
    guard let isCancelled else { return try body() }
    do {
      return try connection.withInterruptCheck(isCancelled, body)
    } catch  where isCancelled() {
      // SQLite rolls back an interrupted write itself; whatever is left open goes too.
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
      throw CancellationError()
    }
  }

  /// The migrations folder, read: a folder flattened into the bundle (its files loose beside
  /// where it should be) is said as such, not as missing.
  package func checkedMigrations() throws -> MigrationSet {
    try FlattenedFolder.check(
      migrations,
      holding: .migrations,
      name: migrations.lastPathComponent,
      container: migrations.deletingLastPathComponent().path
    )
    return try MigrationSet(
      directory: migrations,
      displayPath: migrationsDisplayPath,
      followSymlinks: followsSymlinks,
      format: migrationFormat,
      excluding: migrationExclusion
    )
  }
}

/// Set once, from the task's cancellation handler; read from the thread running the setup.
final class CancellationFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}
