import Foundation

/// The app's handle on its database when reads must not wait: several reads run at once, on
/// connections of their own, while one write runs beside them. Its API is the queue's, so an
/// app switches from `DatabaseSetup.open()` to `DatabaseSetup.openPool()` and changes nothing
/// else.
///
/// ```swift
/// let pool = try await setup.openPool()      // or DatabasePool(url: databaseURL)
/// try await pool.write { db in
///   try db.execute("INSERT INTO student VALUES (?, ?, ?)", ["S1", "Ann", nil])
/// }
/// let students = try await pool.read { db in
///   try db.fetchAll(Student.self, "SELECT * FROM student ORDER BY stuName")
/// }
/// ```
///
/// - The file is in WAL mode: the pool switches it when it opens, and the mode stays in the
///   file (the `-wal` and `-shm` files beside it are part of the database while it is open).
/// - `write` runs on one writer connection, one write at a time, exactly as
///   `DatabaseQueue.write` (the pool's writer is a `DatabaseQueue`).
/// - `read` runs on one of at most `maximumReaderCount` reader connections, made when first
///   needed, inside a read transaction: every statement of the closure sees the database as of
///   one moment, the last commit before its first statement, even while a write commits
///   meanwhile. Reads run at the same time as each other and as the write; a read beyond the
///   maximum waits for a reader. A statement that writes fails with
///   `DatabaseAccessError.writeInsideRead` and writes nothing.
/// - Calling `read` or `write` from inside a closure of the same pool throws
///   `DatabaseAccessError.nestedAccess`: use the `db` the outer closure received.
/// - `suspend()`, `resume()` and `close()` act on every connection of the pool.
///
/// A pool needs a file: an in-memory database cannot be in WAL mode (use
/// `DatabaseQueue.inMemory()` in tests and previews; `DatabaseWriter` lets an app hold either).
public final class DatabasePool: Sendable {
  /// The write connection, as a queue: the pool's writes are the queue's.
  let writer: DatabaseQueue
  /// The reader connections, made when first needed (DatabasePool+Readers.swift).
  let readers: PoolReaders
  /// Marks the threads running one of this pool's closures (nested accesses).
  private let nesting: ThreadMark
  /// Runs the `async` reads, several at a time, off the caller's thread.
  private let dispatch: DispatchQueue

  /// The database file's path.
  public var path: String { writer.path }
  /// What `DatabaseSetup.openPool()` did before returning this pool; nil when the pool was
  /// opened on its own.
  public var setupReport: SetupReport? { writer.setupReport }
  /// Always false: a pool writes (an extension reads through `DatabaseQueue.readOnly(url:)`).
  public var isReadOnly: Bool { false }
  /// The most reader connections the pool opens: as many reads run at once.
  public var maximumReaderCount: Int { readers.maximumCount }

  /// The default `maximumReaderCount`: the device's processor count, and at least 4, so that a
  /// read waiting for the disk does not hold up the others.
  public static var defaultMaximumReaderCount: Int {
    max(4, ProcessInfo.processInfo.activeProcessorCount)
  }

  /// Opens the existing database at `url` as a pool, switching it to WAL mode (once: the mode
  /// stays in the file, and a `DatabaseQueue` opened on it later keeps it).
  ///
  /// - Parameter url: the database file, which must exist.
  /// - Parameter configuration: the extensions and Swift functions every connection gets.
  /// - Parameter busyTimeout: how long a statement waits for another connection's lock, in
  ///   milliseconds.
  /// - Parameter maximumReaderCount: how many reads may run at once (at least 1).
  /// - Throws: `DatabaseOpenError` as `DatabaseQueue(url:)`; `.walSwitchLocked` when another
  ///   connection holds the file in rollback-journal mode beyond the busy timeout (the file is
  ///   unchanged); `.walUnavailable` for an in-memory database (`URL(string: ":memory:")`),
  ///   or when SQLite keeps another journal mode.
  public convenience init(
    url: URL,
    configuration: ConnectionConfiguration = .none,
    busyTimeout: Int = Connection.defaultBusyTimeout,
    maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount
  ) throws {
    // `URL(string: ":memory:")`: SQLite's name for a private in-memory database, which no
    // second connection can see, and which has no WAL.
    if [url.path, url.relativeString].contains(":memory:")
      || url.absoluteString.hasPrefix("file::memory:")
    {
      throw DatabaseOpenError.walUnavailable(path: ":memory:", journalMode: "memory")
    }
    let connection = try Connection.open(
      at: url,
      access: .write,
      busyTimeout: busyTimeout,
      configuration: configuration
    )
    try Self.useWriteAheadLog(connection, busyTimeout: busyTimeout)
    self.init(
      writer: DatabaseQueue(connection: connection, busyTimeout: busyTimeout, report: nil),
      url: url,
      configuration: configuration,
      busyTimeout: busyTimeout,
      maximumReaderCount: maximumReaderCount
    )
  }

  /// A pool writing through `writer`, a queue on `url` in WAL mode, which it owns from now on.
  init(
    writer: DatabaseQueue,
    url: URL,
    configuration: ConnectionConfiguration,
    busyTimeout: Int,
    maximumReaderCount: Int
  ) {
    self.writer = writer
    readers = PoolReaders(
      url: url,
      path: writer.path,
      configuration: configuration,
      busyTimeout: busyTimeout,
      maximumCount: max(1, maximumReaderCount)
    )
    nesting = ThreadMark()
    dispatch = DispatchQueue(label: "strata.DatabasePool.read", attributes: .concurrent)
  }

  /// Runs `body` in a transaction on the writer connection (`BEGIN IMMEDIATE`), committing
  /// when it returns and rolling back when it throws; reads go on meanwhile, and see the write
  /// once it commits.
  ///
  /// - Throws: as `DatabaseQueue.write(_:)`; `DatabaseAccessError.nestedAccess` from inside any
  ///   closure of this pool.
  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    try nesting.enter(path: path)
    defer { nesting.leave() }
    return try writer.write(body)
  }

  /// Runs `body` on a reader connection, inside a read transaction (one moment of the
  /// database for all its statements), read-only (`PRAGMA query_only`). Waits for a reader
  /// when `maximumReaderCount` reads run already.
  ///
  /// - Throws: what `body` throws (`DatabaseAccessError.writeInsideRead` from a statement that
  ///   writes); `.nestedAccess` from inside any closure of this pool, `.closed` after
  ///   `close()`, `.suspended` while suspended or when `suspend()` stopped the read;
  ///   `DatabaseOpenError` when a new reader connection cannot be opened.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try nesting.enter(path: path)
    defer { nesting.leave() }
    let reader = try readers.checkOut()
    defer { readers.checkIn(reader) }
    return try reader.read(body)
  }

  /// `write(_:)` without blocking the calling task: the closure runs on the writer's queue.
  ///
  /// - Throws: as `write(_:)`.
  public func write<T: Sendable>(
    _ body: @escaping @Sendable (Database) throws -> T
  ) async throws
    -> T
  {
    let nesting = self.nesting
    let path = self.path
    return try await writer.write { db in
      try nesting.enter(path: path)
      defer { nesting.leave() }
      return try body(db)
    }
  }

  /// `read(_:)` without blocking the calling task: the closure runs on a reader, beside the
  /// other reads.
  ///
  /// - Throws: as `read(_:)`.
  public func read<T: Sendable>(
    _ body: @escaping @Sendable (Database) throws -> T
  ) async throws
    -> T
  {
    // A task cancelled before its turn does not run its closure.
    try Task.checkCancellation()
    return try await withCheckedThrowingContinuation { continuation in
      dispatch.async { continuation.resume(with: Result { try self.read(body) }) }
    }
  }

  /// Closes every connection: the idle readers and the writer now (the writer after its write
  /// running now), each reader in use when its read returns; reads and writes then throw
  /// `DatabaseAccessError.closed`. Calling it again does nothing. The last connection to close
  /// folds the `-wal` file back into the database and removes it.
  public func close() {
    readers.close()
    writer.close()
  }

  /// Stops the reads and the write running now, and refuses every access until `resume()`,
  /// so that no connection of the pool holds a lock while the app is suspended (see
  /// `DatabaseQueue.suspend()`, which says when to call it).
  public func suspend() {
    readers.suspend()
    writer.suspend()
  }

  /// Lets reads and writes run again after `suspend()`.
  public func resume() {
    writer.resume()
    readers.resume()
  }

  /// True between `suspend()` and `resume()`.
  public var isSuspended: Bool { writer.isSuspended }

  /// Switches `connection`'s database to WAL mode, or says why it cannot be: another
  /// connection's rollback-journal lock, or a database that has no WAL (in memory).
  static func useWriteAheadLog(_ connection: Connection, busyTimeout: Int) throws {
    let path = connection.path
    do {
      if try connection.scalar("PRAGMA journal_mode")?.textValue == "wal" { return }
      let mode = try connection.scalar("PRAGMA journal_mode = WAL")?.textValue ?? "unknown"
      guard mode == "wal" else {
        throw DatabaseOpenError.walUnavailable(path: path, journalMode: mode)
      }
    } catch let error as SQLiteError where error.isBusy {
      throw walSwitchLocked(path: path, busyTimeout: busyTimeout, error)
    } catch let error as SQLiteError {
      throw DatabaseOpenError.sqlite(path: path, error)
    }
  }

  /// The error for a switch to WAL that another connection's lock stopped.
  static func walSwitchLocked(
    path: String,
    busyTimeout: Int,
    _ error: SQLiteError
  ) -> DatabaseOpenError {
    .walSwitchLocked(
      path: path,
      holder: rollbackLockHolder(path: path),
      timeout: busyTimeout,
      error
    )
  }
}

/// Which threads run a closure of one pool now: a thread-specific value, so that the check
/// costs no lock.
final class ThreadMark: @unchecked Sendable {
  private var key = pthread_key_t()

  init() { pthread_key_create(&key, nil) }

  deinit { pthread_key_delete(key) }

  /// Marks this thread; `DatabaseAccessError.nestedAccess` when it is marked already.
  func enter(path: String) throws {
    guard pthread_getspecific(key) == nil else {
      throw DatabaseAccessError.nestedAccess(path: path)
    }
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
  }

  func leave() { pthread_setspecific(key, nil) }
}
