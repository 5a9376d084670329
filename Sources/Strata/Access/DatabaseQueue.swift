import Foundation

/// The app's one handle on its database, safe to share between tasks and threads: every
/// `read` and `write` runs in turn on one connection.
///
/// ```swift
/// let queue = try await setup.open()      // or DatabaseQueue(url: databaseURL)
/// try await queue.write { db in
///   try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", nil])
/// }
/// let students = try await queue.read { db in
///   try db.fetchAll(Student.self, "SELECT * FROM student ORDER BY stuName")
/// }
/// ```
///
/// - `write` runs its closure in `BEGIN IMMEDIATE` … `COMMIT`, and rolls back when the
///   closure throws (the error is rethrown as it was).
/// - `read` runs its closure with `PRAGMA query_only` on, so a statement that writes fails
///   with `DatabaseAccessError.writeInsideRead` and writes nothing. A read opens no
///   transaction: each statement sees the last committed state; read several statements
///   inside `write` to see them as of one moment when other processes write the file.
/// - Calling `read` or `write` from inside a closure of the same queue throws
///   `DatabaseAccessError.nestedAccess` instead of waiting for itself forever.
/// - `suspend()` stops the access running now and refuses new ones until `resume()`, so that a
///   suspended app holds no lock on its database (DatabaseQueue+Suspension.swift).
///
/// The connection is configured as strata's own: foreign keys on, the busy timeout, the
/// configuration's extensions and functions; a file in WAL mode stays in WAL mode. An app's
/// extension reads the app's database through `readOnly(url:)`, which never writes.
public final class DatabaseQueue: Sendable {
  /// The connection, used only by the thread holding `mutex`.
  private final class State: @unchecked Sendable {
    /// The open database, kept alive here; nil once closed.
    private var database: Database?
    /// The same database unretained, for the accesses: each borrows it from here without a
    /// retain and a release (`database` keeps it alive).
    private(set) var openDatabase: Unmanaged<Database>?
    var closesAfterCurrentAccess = false
    /// An error-checking mutex: the thread that holds it is told so when it asks again, which
    /// is how a nested `read` or `write` is found without any per-call bookkeeping.
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ database: Database) {
      self.database = database
      openDatabase = Unmanaged.passUnretained(database)
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
      pthread_mutex_init(mutex, &attributes)
      pthread_mutexattr_destroy(&attributes)
    }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    /// Takes the mutex, waiting for the access running now; false when this thread already
    /// holds it (a nested access).
    func lock() -> Bool { pthread_mutex_lock(mutex) != EDEADLK }

    /// Takes the mutex when no access runs (none of this thread's either); false, without
    /// waiting, otherwise.
    func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Closes the database (its statements, then its connection); again does nothing.
    func close() {
      database?.close()
      (database, openDatabase) = (nil, nil)
    }
  }

  /// Runs the `async` forms in the order they were called, off the caller's thread.
  private let dispatch: DispatchQueue
  private let state: State
  /// What `suspend()` shares with the accesses (DatabaseQueue+Suspension.swift).
  let suspension: QueueSuspension
  /// The live queries its commits notify (DatabaseQueue+Observation.swift).
  let observers = ObservationRegistry()
  /// The database file's path (`:memory:` for an in-memory database).
  public let path: String
  /// What `DatabaseSetup.open()` did before returning this queue; nil when the queue was
  /// opened on its own.
  public let setupReport: SetupReport?
  /// True for a queue opened by `readOnly(url:)`: its connection cannot write, and `write`
  /// throws `DatabaseAccessError.readOnlyQueue`.
  public let isReadOnly: Bool

  /// Opens the existing database at `url`.
  ///
  /// - Parameter url: the database file, which must exist: a mistyped path is an error, never
  ///   a new empty database.
  /// - Parameter configuration: the extensions and Swift functions the connection gets.
  /// - Parameter busyTimeout: how long a statement waits for another connection's lock, in
  ///   milliseconds.
  /// - Throws: `DatabaseOpenError` for a missing file, a file that is not SQLite or cannot be
  ///   written; what the configuration throws.
  public convenience init(
    url: URL,
    configuration: ConnectionConfiguration = .none,
    busyTimeout: Int = Connection.defaultBusyTimeout
  ) throws {
    try self.init(url: url, configuration: configuration, busyTimeout: busyTimeout, report: nil)
  }

  /// Opens `url` for `DatabaseSetup.open()`, keeping its report.
  convenience init(
    url: URL,
    configuration: ConnectionConfiguration,
    busyTimeout: Int,
    report: SetupReport?
  ) throws {
    let connection = try Connection.open(
      at: url,
      access: .write,
      busyTimeout: busyTimeout,
      configuration: configuration
    )
    self.init(connection: connection, busyTimeout: busyTimeout, report: report)
  }

  /// A queue on `connection`, which it owns from now on; `isReadOnly` for a connection opened
  /// read-only (`readOnly(url:)`).
  init(
    connection: Connection,
    busyTimeout: Int,
    report: SetupReport?,
    isReadOnly: Bool = false
  ) {
    path = connection.path
    setupReport = report
    self.isReadOnly = isReadOnly
    state = State(
      Database(connection: connection, busyTimeout: busyTimeout, observers: observers)
    )
    suspension = QueueSuspension(connection)
    dispatch = DispatchQueue(label: "strata.DatabaseQueue")
  }

  /// A private in-memory database, for tests and previews.
  ///
  /// - Throws: `SQLiteError` when SQLite cannot allocate it; what the configuration throws.
  public static func inMemory(
    configuration: ConnectionConfiguration = .none
  ) throws
    -> DatabaseQueue
  {
    DatabaseQueue(
      connection: try configuration.openInMemory(),
      busyTimeout: Connection.defaultBusyTimeout,
      report: nil
    )
  }

  /// Runs `body` in a transaction (`BEGIN IMMEDIATE`), committing when it returns and rolling
  /// back when it throws.
  ///
  /// - Throws: what `body` throws, unchanged, after the rollback;
  ///   `DatabaseAccessError.locked` when another connection holds the write lock beyond the
  ///   busy timeout, `.nestedAccess` from inside this queue's own closure, `.closed` after
  ///   `close()`, `.suspended` while suspended or when `suspend()` stopped the write (rolled
  ///   back), `.readOnlyQueue` on a queue opened by `readOnly(url:)`; `SQLiteError` when
  ///   `COMMIT` fails (after a rollback).
  // Inlinable, with the work in `enter` and `leave`: called from the app's module, the
  // generic closure is specialized there instead of run through generic metadata per call.
  @inlinable
  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    let database = try enter(.writing)
    defer { leave() }
    return try database._withUnsafeGuaranteedRef { database in
      do {
        let result = try body(database)
        try commit(database)
        return result
      } catch {
        throw rolledBack(database, after: error)
      }
    }
  }

  /// Runs `body` with the database read-only (`PRAGMA query_only`).
  ///
  /// - Throws: what `body` throws (`DatabaseAccessError.writeInsideRead` from a statement that
  ///   writes); `.nestedAccess` from inside this queue's own closure, `.closed` after
  ///   `close()`, `.suspended` while suspended or when `suspend()` stopped the read.
  @inlinable
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    let database = try enter(.reading)
    defer { leave() }
    return try database._withUnsafeGuaranteedRef { database in
      do { return try body(database) } catch { throw readFailed(error) }
    }
  }

  /// Takes the mutex and readies the open database for `access` (`query_only` for reading,
  /// `BEGIN IMMEDIATE` for writing); on failure, lets the mutex go before throwing. A write on
  /// a read-only queue, and any access while suspended, is refused first, without waiting for
  /// the access running now or touching the file.
  ///
  /// The database comes back unretained: the queue holds it until `leave()` (a `close()` during
  /// the access waits for it), so the closure borrows it without a retain and a release.
  @usableFromInline
  func enter(_ access: Database.Access) throws -> Unmanaged<Database> {
    if access == .writing, isReadOnly { throw DatabaseAccessError.readOnlyQueue(path: path) }
    if !state.tryLock() {
      // Another access runs (or this thread's own): suspended, refuse now rather than wait.
      if suspension.isSuspended { throw DatabaseAccessError.suspended(path: path) }
      guard state.lock() else { throw DatabaseAccessError.nestedAccess(path: path) }
    }
    do {
      guard let database = state.openDatabase else {
        throw DatabaseAccessError.closed(path: path)
      }
      guard suspension.beginAccess() else { throw DatabaseAccessError.suspended(path: path) }
      try database._withUnsafeGuaranteedRef { try $0.startAccess(access) }
      suspension.closureStarts()
      return database
    } catch {
      leave()
      throw suspended(error)
    }
  }

  /// Ends an access: closes the connection when `close()` was called during it, and lets the
  /// mutex go.
  @usableFromInline
  func leave() {
    state.openDatabase?._withUnsafeGuaranteedRef { $0.closeClosure() }
    suspension.closureEnded()
    if state.closesAfterCurrentAccess { closeNow() }
    state.unlock()
  }

  /// Commits the write whose closure returned, unless `suspend()` was called during it: then
  /// it throws `DatabaseAccessError.suspended` (and `write` rolls back).
  @usableFromInline
  func commit(_ database: Database) throws {
    if suspension.closureEndedStopped() { throw DatabaseAccessError.suspended(path: path) }
    try database.commit()
  }

  /// Rolls back the write that failed with `error`, and returns the error to throw: `error`
  /// as it was, or `DatabaseAccessError.suspended` for the interrupt `suspend()` caused.
  @usableFromInline
  func rolledBack(_ database: Database, after error: any Error) -> any Error {
    suspension.closureEnded()
    database.rollback()
    // An interrupt that came as the ROLLBACK started fails it: once more, so that the lock
    // goes (the interrupt is over by then).
    if !database.connection.isAutocommit { database.rollback() }
    return suspended(error)
  }

  /// The error to throw for a read that failed with `error`: as `rolledBack(_:after:)`'s.
  @usableFromInline
  func readFailed(_ error: any Error) -> any Error {
    suspension.closureEnded()
    return suspended(error)
  }

  /// `DatabaseAccessError.suspended` in place of SQLite's interrupt when `suspend()` was called
  /// during the access (only it interrupts the queue's connection); any other error as it is.
  private func suspended(_ error: any Error) -> any Error {
    guard let sqliteError = error as? SQLiteError, sqliteError.isInterrupt,
      suspension.stopsAccess
    else { return error }
    return DatabaseAccessError.suspended(path: path)
  }

  /// `write(_:)` without blocking the calling task: the closure runs on the queue.
  ///
  /// - Throws: as `write(_:)`.
  public func write<T: Sendable>(
    _ body: @escaping @Sendable (Database) throws -> T
  ) async throws
    -> T
  {
    try await later { try self.write(body) }
  }

  /// `read(_:)` without blocking the calling task: the closure runs on the queue.
  ///
  /// - Throws: as `read(_:)`.
  public func read<T: Sendable>(
    _ body: @escaping @Sendable (Database) throws -> T
  ) async throws
    -> T
  {
    try await later { try self.read(body) }
  }

  /// Closes the connection (after the closure running now, when called from one). Calling it
  /// again does nothing; `read` and `write` then throw `DatabaseAccessError.closed`.
  public func close() {
    guard state.lock() else {
      state.closesAfterCurrentAccess = true
      return
    }
    defer { state.unlock() }
    closeNow()
  }

  /// Closes the connection, which `suspend()` then no longer interrupts.
  private func closeNow() {
    suspension.detach()
    state.close()
  }

  /// Runs `body` on the serial dispatch queue without blocking the calling task.
  private func later<T: Sendable>(
    _ body: @escaping @Sendable () throws -> T
  ) async throws
    -> T
  {
    // A task cancelled before its turn does not run its closure.
    try Task.checkCancellation()
    return try await withCheckedThrowingContinuation { continuation in
      dispatch.async { continuation.resume(with: Result { try body() }) }
    }
  }
}
