import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// One open SQLite database connection.
///
/// Not thread-safe: use a connection from one task at a time. Closed when released.
public final class Connection {
  /// How a connection opens its file.
  public enum OpenMode: Sendable {
    /// Read only; the file must exist.
    case readOnly
    /// Read and write; the file must exist.
    case readWrite
    /// Read and write, creating the file when it does not exist.
    case readWriteCreate
    /// Read only, from a file that does not change while it is open (a template in an app
    /// bundle): SQLite takes no locks and creates no `-shm` or `-journal`, so the file's folder
    /// may be read-only even when the file is in WAL mode. A `-wal` file beside it is ignored.
    case immutable
  }

  let handle: OpaquePointer
  /// How long a statement waits for another connection's lock, in milliseconds.
  private(set) var busyTimeout: Int32 = 0
  /// The path this connection was opened with (`:memory:` for an in-memory database); for a
  /// new database being built beside its final name, that name.
  public let path: String
  /// The fence's rules and last refusal (Authorizer.swift); nil until a fence is first raised.
  var authorizer: Authorizer?

  /// Configures SQLite once, before the first connection (or any other SQLite call).
  static let configured: Void = {
    #if os(Linux)
    _ = strata_sqlite_disable_memstatus()
    #endif
  }()

  /// How long a connection waits for another process's lock, in milliseconds, unless told
  /// otherwise: the one default for apps, `DatabaseSetup`, `Connection.open(at:)` and the CLI.
  public static let defaultBusyTimeout = 10_000

  /// Opens `path`. The default busy timeout lets a second process wait for a writer.
  ///
  /// - Parameter path: the database file; `:memory:` for a private in-memory database.
  /// - Parameter mode: read-only, read-write, read-write-create (the default) or immutable.
  /// - Parameter busyTimeout: how long to wait for another connection's lock, in milliseconds.
  /// - Parameter foreignKeys: enforce foreign keys (`PRAGMA foreign_keys = ON`), as strata's
  ///   own connections do; SQLite's default is off, which lets an app write orphan rows that
  ///   fail the next migration.
  /// - Throws: `SQLiteError` when SQLite cannot open the file (missing, not a database, no
  ///   permission).
  public convenience init(
    path: String,
    mode: OpenMode = .readWriteCreate,
    busyTimeout: Int = Connection.defaultBusyTimeout,
    foreignKeys: Bool = true
  ) throws {
    try self.init(
      path: path,
      mode: mode,
      busyTimeout: busyTimeout,
      foreignKeys: foreignKeys,
      shownAs: nil
    )
  }

  /// `init(path:mode:busyTimeout:foreignKeys:)`, with `shownAs` as the `path` errors name: a
  /// database built in a temporary file is spoken of by the name it will have.
  init(
    path: String,
    mode: OpenMode,
    busyTimeout: Int,
    foreignKeys: Bool,
    shownAs: String?
  ) throws {
    Self.configured
    var flags: Int32 = SQLITE_OPEN_NOMUTEX
    switch mode {
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    case .immutable: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
    }
    var name = path
    if mode == .immutable {
      let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
      name = "file:\(escaped)?immutable=1"
    }
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(name, &db, flags, nil)
    guard let db else {
      throw SQLiteError(extendedCode: rc, message: String(cString: sqlite3_errstr(rc)))
    }
    guard rc == SQLITE_OK else {
      let error = SQLiteError(
        extendedCode: sqlite3_extended_errcode(db),
        message: String(cString: sqlite3_errmsg(db)),
        // Apple's SQLite reports the system's refusal to open the file as SQLITE_AUTH.
        systemErrorCode: rc & 0xFF == SQLITE_AUTH ? EPERM : sqlite3_system_errno(db)
      )
      sqlite3_close_v2(db)
      throw error
    }
    self.handle = db
    self.path = shownAs ?? path
    sqlite3_extended_result_codes(db, 1)
    self.busyTimeout = Int32(clamping: busyTimeout)
    sqlite3_busy_timeout(db, self.busyTimeout)
    if foreignKeys {
      sqlite3_exec(db, "PRAGMA foreign_keys = ON", nil, nil, nil)
    }
    // A commit and a checkpoint reach the storage itself, not just the drive's cache: on Apple
    // platforms `fsync` stops at the cache, and only F_FULLFSYNC survives a power cut
    // (docs/RELIABILITY.md, "Power cuts, per platform"). SQLite ignores both elsewhere, where
    // `fsync` already flushes the cache; set everywhere, so every platform runs one code path.
    sqlite3_exec(db, "PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON", nil, nil, nil)
  }

  /// Opens the database file at `url`, as `init(path:mode:busyTimeout:foreignKeys:)` opens its
  /// path: the form an app has (a file in its container, a bundle resource).
  ///
  /// - Throws: `SQLiteError` when SQLite cannot open the file (missing, not a database, no
  ///   permission).
  public convenience init(
    url: URL,
    mode: OpenMode = .readWriteCreate,
    busyTimeout: Int = Connection.defaultBusyTimeout,
    foreignKeys: Bool = true
  ) throws {
    try self.init(path: url.path, mode: mode, busyTimeout: busyTimeout, foreignKeys: foreignKeys)
  }

  /// An in-memory database, private to this connection.
  ///
  /// - Throws: `SQLiteError` when SQLite cannot allocate the database.
  public static func inMemory() throws -> Connection {
    try Connection(path: ":memory:")
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// The linked SQLite's version, such as 3040001 for 3.40.1.
  package static var libraryVersionNumber: Int { Int(sqlite3_libversion_number()) }

  /// The linked SQLite's version string, such as "3.40.1".
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  /// Runs SQL that returns no rows (one or more statements).
  ///
  /// - Throws: `SQLiteError` from the first statement that fails; the ones before it have run.
  public func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(handle, sql, nil, nil, &message)
    if rc != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? lastErrorMessage
      sqlite3_free(message)
      throw fencedError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
    }
  }

  /// Compiles one statement.
  ///
  /// - Throws: `SQLiteError` for SQL that does not compile (a syntax error, a missing table).
  package func prepare(_ sql: String) throws -> Statement {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard rc == SQLITE_OK else { throw error(sql: sql) }
    guard let statement else {
      throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql)
    }
    return Statement(handle: statement, connection: self, sql: sql)
  }

  /// Runs a query and returns every row, each as its column values.
  ///
  /// - Throws: `SQLiteError` when the query does not compile, a value does not bind, or a step
  ///   fails.
  public func rows(_ sql: String, _ arguments: [SQLValue] = []) throws -> [[SQLValue]] {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    var result: [[SQLValue]] = []
    while try statement.step() {
      result.append((0..<statement.columnCount).map { statement.value(at: $0) })
    }
    return result
  }

  /// The first column of the first row, or nil when there is no row.
  ///
  /// - Throws: `SQLiteError` when the query does not compile, a value does not bind, or a step
  ///   fails.
  public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue? {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    return try statement.step() ? statement.value(at: 0) : nil
  }

  /// Runs one statement with arguments, returning the number of rows it changed.
  ///
  /// - Throws: `SQLiteError` when the statement does not compile, a value does not bind, or it
  ///   fails (a constraint, a busy database).
  @discardableResult
  public func run(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    while try statement.step() {}
    return changes
  }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// The rowid of the most recent successful INSERT.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// False while a transaction is open.
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// Whether the connection may not write its `main` database (opened read-only, or a file
  /// SQLite could only open so).
  package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// SQLite's message for the most recent failure on this connection.
  package var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

  /// Runs `body` without waiting for locks: after a command gave up on a lock, reading the
  /// database's state for its message must not wait a second full busy timeout.
  package func withoutWaitingForLocks<T>(_ body: () throws -> T) rethrows -> T {
    sqlite3_busy_timeout(handle, 0)
    defer { sqlite3_busy_timeout(handle, busyTimeout) }
    return try body()
  }

  /// Fences in SQL from an untrusted source (the fuzzer): no attached files (so no
  /// `ATTACH` or `VACUUM INTO` writes one), no `load_extension()` (the authorizer's
  /// `.noOutsideFiles`, as in the migrations' replay), strings and blobs of at most
  /// `maximumLength` bytes, and every statement stopped with SQLITE_INTERRUPT after about
  /// `instructionBudget` virtual-machine steps, so that no input can loop forever.
  package func restrictForUntrustedSQL(maximumLength: Int32 = 100_000, instructionBudget: Int32) {
    sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
    sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, maximumLength)
    sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, maximumLength)
    sqlite3_progress_handler(handle, instructionBudget, { _ in 1 }, nil)
    _ = raiseFence(.noOutsideFiles)
  }

  func error(sql: String?) -> SQLiteError {
    fencedError(code: sqlite3_extended_errcode(handle), message: lastErrorMessage, sql: sql)
  }

  /// The system's error number behind an I/O or open failure `code`, or 0 for any other code
  /// (SQLite keeps the last one, which would be stale there).
  func systemErrorCode(for code: Int32) -> Int32 {
    let primary = code & 0xFF
    return primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN ? sqlite3_system_errno(handle) : 0
  }

}
