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
  private var isInsideAccess = false
  /// The fence to restore when the closure running now ends.
  private var closureFence: FenceState?
  /// Whether `PRAGMA query_only` is on now (left on between reads, turned off for a write).
  private var queryOnly = false
  private var statements = StatementCache(capacity: 64)
  /// `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK`, each compiled on its first use by the
  /// queue's transactions and kept apart from the cache.
  private var beginStatement: Statement?
  private var commitStatement: Statement?
  private var rollbackStatement: Statement?

  init(connection: Connection, busyTimeout: Int) {
    self.connection = connection
    self.busyTimeout = busyTimeout
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
  }

  /// Every row of a query, each by column name.
  ///
  /// - Throws: as `execute(_:_:)`.
  public func fetchRows(_ sql: String, _ arguments: SQLArguments = []) throws -> [Row] {
    var rows: [Row] = []
    try forEachRow(sql, arguments) { rows.append($0) }
    return rows
  }

  /// Every row of a query as a `T`, each property from the column of its name (see
  /// `RowDecodingError` for a column missing or holding another type).
  ///
  /// - Throws: `RowDecodingError` for a row that is not a `T`; otherwise as `execute(_:_:)`.
  public func fetchAll<T: Decodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> [T] {
    try decoded(sql, arguments)
  }

  /// The first row of a query as a `T`, or nil when there is no row.
  ///
  /// - Throws: as `fetchAll(_:_:_:)`.
  @inlinable
  public func fetchOne<T: Decodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    var first: T?
    // Decoded in place from the statement's first row, without copying it into a `Row`.
    try forEachLiveRow(sql, arguments, limit: 1) { row in first = try Self.decode(T.self, row) }
    return first
  }

  /// One row as a `T`: a type stored in one value (`Date`, `Data`, `String?`) reads the first
  /// column, as `fetchValue` does; any other type decodes its properties by column name.
  @inlinable
  static func decode<T: Decodable>(_ type: T.Type, _ row: LiveRow) throws -> T {
    // The conformance check runs once per statement and type: a struct read again and again
    // skips it.
    let type = ObjectIdentifier(T.self)
    if !row.decodesByName(type) {
      if let single = T.self as? any SQLValueConvertible.Type {
        // swift-format-ignore: NeverForceUnwrap
        return try row.first(single) as! T
      }
      row.rememberDecodesByName(type)
    }
    return try T(from: row.decoder)
  }

  /// The first column of the first row as a `T`: nil when there is no row or the value is
  /// `NULL` (never 0).
  ///
  /// - Throws: `RowDecodingError.mismatch` when the value is not a `T` (text read as an
  ///   `Int`, an integer out of range); otherwise as `execute(_:_:)`.
  @inlinable
  public func fetchValue<T: SQLValueConvertible>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    guard let (value, column) = try firstValue(sql, arguments) else { return nil }
    guard let converted = T(sqlValue: value) else {
      throw RowDecodingError.mismatch(column: column, type: Row.name(of: T.self), value: value)
    }
    return converted
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

  /// Turns `PRAGMA query_only` on for a read, or off for a write, when it is not already.
  /// (The closures' SQL cannot set it: the queue's fence refuses that, so the state known here
  /// is the connection's.)
  func prepare(for access: Access) throws {
    self.access = access
    let wanted = access == .reading
    guard queryOnly != wanted else { return }
    try control(wanted ? "PRAGMA query_only = ON" : "PRAGMA query_only = OFF")
    queryOnly = wanted
  }

  /// Runs one of the queue's own statements (`BEGIN IMMEDIATE`, `COMMIT`, a pragma) outside
  /// the statement cache, so that a closure's identical SQL never reuses it past the fence.
  func control(_ sql: String) throws {
    do { try connection.execute(sql) } catch let error as SQLiteError { throw translated(error) }
  }

  /// Starts one closure of the queue: the database answers only inside it, and the closure's
  /// SQL may not end the queue's transaction or change the connection's rules (the fence).
  @usableFromInline
  func openClosure() {
    isInsideAccess = true
    closureFence = connection.raiseFence(.queueAccess)
  }

  /// Ends the closure (before the queue's own COMMIT or ROLLBACK, and when the access ends).
  @usableFromInline
  func closeClosure() {
    isInsideAccess = false
    if let fence = closureFence { connection.restoreFence(fence) }
    closureFence = nil
  }

  /// A script without arguments, one statement at a time inside a savepoint: a statement with
  /// parameters is refused (each would be `NULL`) and the statements before it are undone.
  private func executeScript(_ sql: String) throws {
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
    let statement = try beginStatement ?? transactionStatement("BEGIN IMMEDIATE")
    beginStatement = statement
    try runOnce(statement)
  }

  /// Commits the write transaction.
  @usableFromInline
  func commit() throws {
    closeClosure()
    let statement = try commitStatement ?? transactionStatement("COMMIT")
    commitStatement = statement
    try runOnce(statement)
  }

  /// Rolls the write transaction back, when one is open.
  @usableFromInline
  func rollback() {
    closeClosure()
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
    statements.removeAll()
    (beginStatement, commitStatement, rollbackStatement) = (nil, nil, nil)
  }

  // MARK: - Running statements

  // `fetchOne` and `fetchValue` are inlinable (specialized in the caller's module) around
  // these, which do the work without generics.

  /// The first column of the first row and its name, read straight from the statement; nil
  /// when there is no row or the value is `NULL`.
  @usableFromInline
  func firstValue(_ sql: String, _ arguments: SQLArguments) throws -> (SQLValue, String)? {
    let (entry, _) = try prepared(sql)
    var first: (SQLValue, String)?
    try run(entry, arguments) { statement in
      guard try statement.step(), !entry.columns.isEmpty else { return }
      let value = statement.value(at: 0)
      if value != .null { first = (value, entry.columns[0]) }
    }
    return first
  }

  private func forEachRow(
    _ sql: String,
    _ arguments: SQLArguments,
    _ body: (Row) throws -> Void
  ) throws {
    try forEachLiveRow(sql, arguments) { try body($0.row) }
  }

  /// Runs `body` on each row of a query (up to `limit`), read in place from the statement.
  @usableFromInline
  func forEachLiveRow(
    _ sql: String,
    _ arguments: SQLArguments,
    limit: Int = .max,
    _ body: (LiveRow) throws -> Void
  ) throws {
    let (entry, _) = try prepared(sql)
    try run(entry, arguments) { statement in
      let row = LiveRow(entry)
      var count = 0
      while count < limit, try statement.step() {
        try body(row)
        count += 1
      }
    }
  }

  /// Every row of a query, each decoded as a `T`.
  private func decoded<T: Decodable>(_ sql: String, _ arguments: SQLArguments) throws -> [T] {
    var values: [T] = []
    try forEachLiveRow(sql, arguments) { values.append(try Self.decode(T.self, $0)) }
    return values
  }

  /// Binds, runs `body`, then resets the statement and clears its bindings for the next use.
  private func run(
    _ entry: StatementCache.Entry,
    _ arguments: SQLArguments,
    _ body: (Statement) throws -> Void
  ) throws {
    let statement = entry.statement
    defer {
      statement.reset()
      statement.clearBindings()
    }
    do {
      try statement.bind(arguments, isPositional: entry.isPositional)
      try body(statement)
    } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  private func prepared(_ sql: String) throws -> (StatementCache.Entry, hasMore: Bool) {
    guard isInsideAccess else { throw DatabaseAccessError.outsideAccess(path: path) }
    if let entry = statements.entry(for: sql) { return (entry, false) }
    do {
      let (statement, hasMore) = try connection.prepareFirst(sql)
      let entry = StatementCache.Entry(statement)
      if !hasMore { statements.insert(entry, for: sql) }
      return (entry, hasMore)
    } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  /// SQLite's refusal of a write under `query_only`, and a lock held too long, in the queue's
  /// words; any other error as SQLite gave it.
  private func translated(_ error: SQLiteError) -> any Error {
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
