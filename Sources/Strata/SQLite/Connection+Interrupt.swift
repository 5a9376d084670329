#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

// Stopping a statement from outside it, for `DatabaseQueue.suspend()`: `interrupt()` from the
// thread that suspends, and a progress handler asked on the thread running the statements.

extension Connection {
  /// What a progress handler installed by `startInterruptChecks(_:_:)` calls: nonzero stops the
  /// running statement with SQLITE_INTERRUPT. It gets the context it was installed with.
  package typealias InterruptCheck = @convention(c) (UnsafeMutableRawPointer?) -> Int32

  /// Stops the statement running now on this connection (`sqlite3_interrupt`), from any
  /// thread: it fails with SQLITE_INTERRUPT, and a statement that writes inside a transaction
  /// takes the whole transaction with it (SQLite rolls it back). With no statement running it
  /// does nothing: the next statement starts afresh.
  ///
  /// The caller must make sure the connection stays open until this returns (SQLite's rule):
  /// `DatabaseQueue` calls it under a lock that its `close()` takes before closing.
  package func interrupt() {
    sqlite3_interrupt(handle)
  }

  /// Installs a progress handler that calls `check` with `context` every
  /// `interruptCheckInterval` steps of a running statement, until `stopInterruptChecks()`;
  /// `context` must stay valid as long. As `withInterruptCheck(_:_:)`, without a closure or an
  /// allocation per use, and replacing any handler set before.
  package func startInterruptChecks(_ context: UnsafeMutableRawPointer, _ check: InterruptCheck) {
    sqlite3_progress_handler(handle, Self.interruptCheckInterval, check, context)
  }

  /// Removes the progress handler `startInterruptChecks(_:_:)` installed.
  package func stopInterruptChecks() {
    sqlite3_progress_handler(handle, 0, nil, nil)
  }
}
