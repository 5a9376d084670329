#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// The question a progress handler asks, kept alive while the handler is installed.
private final class InterruptQuestion {
  let isCancelled: @Sendable () -> Bool
  init(_ isCancelled: @escaping @Sendable () -> Bool) { self.isCancelled = isCancelled }
}

extension Connection {
  /// How many SQLite virtual-machine steps run between two calls of the question: frequent
  /// enough to stop a long statement within milliseconds, rare enough to cost nothing
  /// measurable.
  package static let interruptCheckInterval: Int32 = 1000

  /// Runs `body` with an SQLite progress handler that asks `isCancelled` every
  /// `interruptCheckInterval` steps of a running statement; when it answers true the
  /// statement stops with SQLITE_INTERRUPT (and SQLite rolls the statement back; the caller's
  /// transaction code rolls the transaction back). The handler is removed when `body` returns.
  ///
  /// Safer than `sqlite3_interrupt` from another thread, which can race the connection's
  /// close: here the question is asked on the thread running the statement. Replaces any
  /// handler set before (`restrictForUntrustedSQL`'s), which is not put back.
  package func withInterruptCheck<T>(
    _ isCancelled: @escaping @Sendable () -> Bool,
    _ body: () throws -> T
  ) rethrows -> T {
    let question = InterruptQuestion(isCancelled)
    sqlite3_progress_handler(
      handle,
      Self.interruptCheckInterval,
      { context in
        guard let context else { return 0 }
        let question = Unmanaged<InterruptQuestion>.fromOpaque(context).takeUnretainedValue()
        return question.isCancelled() ? 1 : 0
      },
      Unmanaged.passUnretained(question).toOpaque()
    )
    defer {
      sqlite3_progress_handler(handle, 0, nil, nil)
      withExtendedLifetime(question) {}
    }
    return try body()
  }
}

extension SQLiteError {
  /// The statement was stopped by an interrupt (a progress handler that asked to stop).
  package var isInterrupt: Bool { code == SQLITE_INTERRUPT }
}
