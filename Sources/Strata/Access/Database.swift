import Foundation

/// The database as a `DatabaseQueue`'s `read` and `write` closures see it: run statements
/// with arguments, fetch rows, `Decodable` values or one value.
///
/// Not `Sendable`: it is valid only inside the closure that received it. Every statement it
/// compiles is kept (by SQL, the most recently used 64) and reused with fresh arguments.
public final class Database {
  /// What the closure running now may do.
  @usableFromInline
  enum Access {
    case reading, writing
  }

  let connection: Connection
  let busyTimeout: Int
  var access = Access.writing
  /// True only while a closure of the queue runs: a `Database` kept past its closure refuses.
  var isInsideAccess = false
  /// What to restore when the fence raised for the closures' SQL comes down; nil while it is
  /// down. It stays up from one read to the next: only the queue's own statements (`BEGIN`,
  /// `COMMIT`, the pragmas), which it refuses, take it down first.
  private var closureFence: FenceState?
  /// Whether `PRAGMA query_only` is on now (left on between reads, turned off for a write).
  /// `PRAGMA query_only` as last set; nil when setting it failed (an interrupt from
  /// `suspend()` can stop the pragma after it took effect), so the next access sets it again.
  private var queryOnly: Bool? = false
  // Used only by the thread holding the queue's mutex: no run-time exclusivity check needed.
  @exclusivity(unchecked)
  var statements = StatementCache(capacity: 64)
  /// The tables, SQL and encoder of writes from Swift values (Database+Writing.swift).
  @exclusivity(unchecked)
  var writes = WriteCache()
  /// `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK`, each compiled on its first use by the
  /// queue's transactions and kept apart from the cache.
  private var beginStatement: Statement?
  private var commitStatement: Statement?
  private var rollbackStatement: Statement?
  /// The live queries told of each commit (Observation/).
  let observers: ObservationRegistry
  /// What the statements run now read or write, while a live query watches (a write while one
  /// is registered, a live query's fetch); nil otherwise.
  var tracking: TableTracking?

  init(connection: Connection, busyTimeout: Int, observers: ObservationRegistry) {
    self.connection = connection
    self.busyTimeout = busyTimeout
    self.observers = observers
  }

  /// The database file's path (`:memory:` for an in-memory database).
  public var path: String { connection.path }

  /// Runs one statement with `arguments`, or, without arguments, a script of several
  /// statements (each run in turn).
  ///
  /// - Throws: `DatabaseAccessError` for arguments that do not match the parameters, a write
  ///   inside a read, a lock held too long by another connection, arguments given to several
  ///   statements; `SQLiteError` when SQLite fails (a constraint, a syntax error).
  public func execute(_ sql: String, _ arguments: SQLArguments = []) throws {
    let (entry, hasMore) = try prepared(sql)
    if hasMore, arguments.isEmpty {
      try executeScript(sql)
      return
    }
    if hasMore { throw DatabaseAccessError.argumentsForScript(sql: sql) }
    try run(entry, arguments) { statement in while try statement.step() {} }
    if let tracking, let step = entry.savepoint { tracking.ran(step) }
  }

  /// The rowid of the most recent successful INSERT on this connection.
  public var lastInsertRowID: Int64 { connection.lastInsertRowID }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  public var changes: Int { connection.changes }

  /// Registers a Swift function SQL on this database can call (see
  /// `Connection.registerFunction(_:argumentCount:deterministic:_:)`).
  ///
  /// - Throws: `SQLiteError` when SQLite refuses the registration.
  public func registerFunction(
    _ name: String,
    argumentCount: Int?,
    deterministic: Bool,
    _ body: @escaping SQLFunctionBody
  ) throws {
    guard isInsideAccess else { throw DatabaseAccessError.outsideAccess(path: path) }
    try connection.registerFunction(
      name,
      argumentCount: argumentCount,
      deterministic: deterministic,
      body
    )
  }

  // MARK: - The queue's transactions

  /// Readies the database for one closure of the queue: `PRAGMA query_only` on for a read
  /// (off for a write) when it is not already, `BEGIN IMMEDIATE` for a write, then the
  /// closure's fence. (The closures' SQL cannot set `query_only`: the fence refuses that, so
  /// the state known here is the connection's.)
  @inline(__always)
  func startAccess(_ access: Access) throws {
    // A read after a read: `query_only` is on and the fence up already.
    if access == .reading, queryOnly == true, closureFence != nil {
      self.access = .reading
      isInsideAccess = true
      return
    }
    try startOtherAccess(access)
  }

  /// `startAccess(_:)` of a write, or of a read after a write.
  private func startOtherAccess(_ access: Access) throws {
    self.access = access
    let wanted = access == .reading
    if queryOnly != wanted {
      lowerFence()
      queryOnly = nil
      try control(wanted ? "PRAGMA query_only = ON" : "PRAGMA query_only = OFF")
      queryOnly = wanted
    }
    if access == .writing { try begin() }
    openClosure()
  }

  /// Runs one of the queue's own statements (`BEGIN IMMEDIATE`, `COMMIT`, a pragma) outside
  /// the statement cache, so that a closure's identical SQL never reuses it past the fence.
  func control(_ sql: String) throws {
    do { try connection.execute(sql) } catch let error as SQLiteError { throw translated(error) }
  }

  /// Starts one closure of the queue: the database answers only inside it, and the closure's
  /// SQL may not end the queue's transaction or change the connection's rules (the fence).
  private func openClosure() {
    isInsideAccess = true
    if closureFence == nil { closureFence = connection.raiseFence(.queueAccess) }
  }

  /// Ends the closure (before the queue's own COMMIT or ROLLBACK, and when the access ends).
  /// The fence stays up for the next closure.
  func closeClosure() {
    isInsideAccess = false
  }

  /// Takes the closures' fence down before the queue runs a statement of its own that the
  /// fence refuses (`BEGIN`, `COMMIT`, `ROLLBACK`, `PRAGMA query_only`), also when SQLite
  /// compiles it again after a change of schema.
  private func lowerFence() {
    if let fence = closureFence { connection.restoreFence(fence) }
    closureFence = nil
  }

  /// A script without arguments, one statement at a time inside a savepoint: a statement with
  /// parameters is refused (each would be `NULL`) and the statements before it are undone.
  private func executeScript(_ sql: String) throws {
    if tracking != nil { connection.startRecordingTables(reads: false) }
    defer { if let tracking { tracking.scriptRan(connection.stopRecordingTables()) } }
    try control("SAVEPOINT strata_script")
    do {
      try connection.executeEach(sql) { statement in
        if statement.parameterCount > 0 { throw DatabaseAccessError.parametersInScript(sql: sql) }
      }
    } catch {
      try? control("ROLLBACK TO strata_script")
      try? control("RELEASE strata_script")
      if let error = error as? SQLiteError { throw translated(error) }
      throw error
    }
    try control("RELEASE strata_script")
  }

  /// Starts the write transaction (`BEGIN IMMEDIATE`).
  func begin() throws {
    lowerFence()
    let statement = try beginStatement ?? transactionStatement("BEGIN IMMEDIATE")
    beginStatement = statement
    try runOnce(statement)
    startTrackingWrites()
  }

  /// Commits the write transaction.
  @usableFromInline
  func commit() throws {
    closeClosure()
    lowerFence()
    let statement = try commitStatement ?? transactionStatement("COMMIT")
    commitStatement = statement
    let changes = tracking.map { $0.tables(on: connection) }
    try runOnce(statement)
    tracking = nil
    if let changes { committed(changes) }
  }

  /// Rolls the write transaction back, when one is open.
  @usableFromInline
  func rollback() {
    closeClosure()
    lowerFence()
    tracking = nil
    guard !connection.isAutocommit,
      let statement = try? rollbackStatement ?? transactionStatement("ROLLBACK")
    else { return }
    rollbackStatement = statement
    try? runOnce(statement)
  }

  private func transactionStatement(_ sql: String) throws -> Statement {
    do { return try connection.prepare(sql) } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  /// Runs a statement without parameters or rows, in the queue's words on failure.
  private func runOnce(_ statement: Statement) throws {
    defer { statement.reset() }
    do { try statement.step() } catch let error as SQLiteError { throw translated(error) }
  }

  /// Ends the connection's use: finalizes the cached statements.
  func close() {
    lowerFence()
    statements.removeAll()
    (beginStatement, commitStatement, rollbackStatement) = (nil, nil, nil)
    tracking = nil
    observers.closed()
  }

  // MARK: - Running statements

  /// Binds, runs `body`, then resets the statement and clears its bindings for the next use.
  private func run(
    _ entry: CachedStatement,
    _ arguments: SQLArguments,
    _ body: (Statement) throws -> Void
  ) throws {
    let statement = entry.statement
    defer {
      statement.reset()
      statement.clearBindings()
    }
    do {
      try entry.bind(arguments)
      try body(statement)
    } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  /// The statement of `sql`, from the cache or compiled (and kept, unless more statements
  /// follow it); refused outside the queue's closure.
  @inline(__always)
  func prepared(_ sql: String) throws -> (CachedStatement, hasMore: Bool) {
    guard isInsideAccess else { throw DatabaseAccessError.outsideAccess(path: path) }
    if let entry = statements.entry(for: sql) {
      if let tracking { tracking.use(entry) }
      return (entry, false)
    }
    return try compiled(sql)
  }

  /// `prepared(_:)` of SQL not in the cache.
  private func compiled(_ sql: String) throws -> (CachedStatement, hasMore: Bool) {
    do {
      // The tables it writes are kept with it, for the live queries of a later transaction.
      connection.startRecordingTables(reads: tracking?.purpose == .reads)
      let prepared = Result { try connection.prepareFirst(sql) }
      let tables = connection.stopRecordingTables()
      let (statement, hasMore) = try prepared.get()
      let entry = CachedStatement(statement, tables: tables)
      if !hasMore { statements.insert(entry, for: sql) }
      if let tracking { tracking.use(entry) }
      return (entry, hasMore)
    } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  /// SQLite's refusal of a write under `query_only`, and a lock held too long, in the queue's
  /// words; any other error as SQLite gave it.
  func translated(_ error: SQLiteError) -> any Error {
    if access == .reading, error.isReadOnly {
      return DatabaseAccessError.writeInsideRead(sql: error.sql ?? "")
    }
    if error.isBusy {
      return DatabaseAccessError.locked(path: path, timeout: busyTimeout, error)
    }
    if error.isRefusedByFence {
      return DatabaseAccessError.ownedByQueue(sql: error.sql ?? "", reason: error.message)
    }
    return error
  }
}
