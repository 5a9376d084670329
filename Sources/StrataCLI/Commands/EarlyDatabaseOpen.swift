import Dispatch
@_spi(StrataCLI) import Strata

/// The database `status` reads, opened and its history read on another thread while the
/// migrations folder is read.
///
/// SQLite reads and parses the whole schema at a connection's first statement, and on a
/// database of a thousand migrations that is about as much work as reading their files; the
/// second core does it meanwhile. The reads are the ones `Migrator.plan` makes, so their errors
/// and waits are the same. The folder's errors still come first: the answer is asked for only
/// after the folder has been read, and one nobody asks for is dropped with its error. Nothing
/// is opened early when an extension is to be loaded, since loading one runs its code.
final class EarlyDatabaseOpen: @unchecked Sendable {
  private let finished = DispatchSemaphore(value: 0)
  /// Written once, by the worker, before `finished` is signalled; read only after waiting.
  private var result: Result<(Connection, RecordedHistory), any Error>?

  /// Starts opening on another thread.
  init(_ open: @escaping @Sendable () throws -> Connection) {
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      result = Result {
        let connection = try open()
        return (connection, try RecordedHistory.read(connection, includingRepeatables: true))
      }
      finished.signal()
    }
  }

  /// The connection and its history, or the error opening or reading threw; waits for the
  /// worker.
  func opened() throws -> (Connection, RecordedHistory) {
    finished.wait()
    defer { finished.signal() }
    guard let result else { preconditionFailure("the early open signalled without a result") }
    return try result.get()
  }
}
