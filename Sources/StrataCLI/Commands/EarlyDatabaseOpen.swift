import Dispatch
import Strata

/// The database `status` reads, opened and its history read on another thread while the
/// migrations folder is read; or, while the database is as it was, its history from the copy
/// `status` keeps (`DatabaseHistoryCache`), opening nothing.
///
/// SQLite reads and parses the whole schema at a connection's first statement; on a database
/// of a thousand migrations that is about half the work of reading their files, and here it
/// overlaps with it (BENCHMARKS.md has what it saves). The reads are the ones `Migrator.plan`
/// makes, so their errors and waits are the same. The folder's errors still come first: the
/// answer is asked for only after the folder has been read, and one nobody asks for is dropped
/// with its error. `status` opens nothing early when an extension is to be loaded (loading
/// one runs its code) or when the database is in WAL mode (see `StatusCommand.earlyOpen`).
final class EarlyDatabaseOpen: @unchecked Sendable {
  /// What the worker read.
  struct Opened {
    /// Nil when the history came from the copy `status` keeps (`DatabaseHistoryCache`).
    let connection: Connection?
    let history: RecordedHistory
    /// Whether the database file was there when it was opened (if not, the connection is an
    /// empty in-memory database, as `DatabaseSession.open` gives a reader).
    let existed: Bool
  }

  private let finished = DispatchSemaphore(value: 0)
  /// Written once, by the worker, before `finished` is signalled; read only after waiting.
  private var result: Result<Opened, any Error>?

  /// Starts opening the database at `path` on another thread, or reading its history from
  /// `cache` while the database is unchanged.
  init(
    at path: String,
    cache: DatabaseHistoryCache?,
    _ open: @escaping @Sendable () throws -> Connection
  ) {
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      result = Result {
        let existed = databaseFileKind(at: path) != .missing
        var connection: Connection?
        let read = {
          let opened = try open()
          connection = opened
          return try RecordedHistory.read(opened, includingRepeatables: true)
        }
        let history = try cache.map { try $0.history(ofDatabaseAt: path, read: read).0 } ?? read()
        return Opened(connection: connection, history: history, existed: existed)
      }
      finished.signal()
    }
  }

  /// What the worker read, or the error opening or reading threw; waits for the worker.
  func opened() throws -> Opened {
    finished.wait()
    defer { finished.signal() }
    guard let result else { preconditionFailure("the early open signalled without a result") }
    return try result.get()
  }
}
