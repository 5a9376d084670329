import Foundation

/// The database as a `DatabaseQueue`'s `read` and `write` closures see it: run statements
/// with arguments, fetch rows, `Decodable` values or one value.
///
/// Not `Sendable`: it is valid only inside the closure that received it. Every statement it
/// compiles is kept (by SQL, the most recently used 64) and reused with fresh arguments.
public final class Database {
  /// What the closure running now may do.
  enum Access {
    case reading, writing
  }

  let connection: Connection
  let busyTimeout: Int
  var access = Access.writing
  /// True only while a closure of the queue runs: a `Database` kept past its closure refuses.
  private var isInsideAccess = false
  /// Whether `PRAGMA query_only` is on now (left on between reads, turned off for a write).
  private var queryOnly = false
  private var statements = StatementCache(capacity: 64)

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
    let (statement, hasMore, _) = try prepared(sql)
    if hasMore, arguments.isEmpty {
      try executeScript(sql)
      return
    }
    if hasMore { throw DatabaseAccessError.argumentsForScript(sql: sql) }
    try run(statement, arguments) { statement in while try statement.step() {} }
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
  public func fetchOne<T: Decodable>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    let first: [T] = try decoded(sql, arguments, limit: 1)
    return first.first
  }

  /// The first column of the first row as a `T`: nil when there is no row or the value is
  /// `NULL` (never 0).
  ///
  /// - Throws: `RowDecodingError.mismatch` when the value is not a `T` (text read as an
  ///   `Int`, an integer out of range); otherwise as `execute(_:_:)`.
  public func fetchValue<T: SQLValueConvertible>(
    _ type: T.Type,
    _ sql: String,
    _ arguments: SQLArguments = []
  ) throws -> T? {
    var value: T?
    try forEachRow(sql, arguments, limit: 1) { row in
      guard let first = row.values.first, first != .null else { return }
      value = try row.decode(T.self, column: row.columns[0])
    }
    return value
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

  /// Runs one closure of the queue: the database answers only inside it, and the closure's SQL
  /// may not end the queue's transaction or change the connection's rules.
  func during<T>(_ body: (Database) throws -> T) throws -> T {
    isInsideAccess = true
    defer { isInsideAccess = false }
    return try connection.withFence(.queueAccess) { try body(self) }
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

  /// Ends the connection's use: finalizes the cached statements.
  func close() { statements.removeAll() }

  // MARK: - Running statements

  private func forEachRow(
    _ sql: String,
    _ arguments: SQLArguments,
    limit: Int = .max,
    _ body: (Row) throws -> Void
  ) throws {
    let (statement, _, columns) = try prepared(sql)
    try run(statement, arguments) { statement in
      var count = 0
      while count < limit, try statement.step() {
        try body(Row(columns: columns, values: columns.indices.map { statement.value(at: $0) }))
        count += 1
      }
    }
  }

  /// The first `limit` rows of a query, each decoded as a `T`.
  private func decoded<T: Decodable>(
    _ sql: String,
    _ arguments: SQLArguments,
    limit: Int = .max
  ) throws -> [T] {
    var values: [T] = []
    // A type stored in one value (`Date`, `Data`, `String?`) reads the first column, as
    // `fetchValue` does; any other type decodes its properties by column name.
    if let single = T.self as? any SQLValueConvertible.Type {
      try forEachRow(sql, arguments, limit: limit) { row in
        guard let first = row.columns.first else {
          throw RowDecodingError.missingColumn(column: "", type: "\(T.self)", columns: [])
        }
        // swift-format-ignore: NeverForceUnwrap
        values.append(try row.decode(single, column: first) as! T)
      }
      return values
    }
    try forEachRow(sql, arguments, limit: limit) { values.append(try T(from: RowDecoder(row: $0))) }
    return values
  }

  /// Binds, runs `body`, then resets the statement and clears its bindings for the next use.
  private func run(
    _ statement: Statement,
    _ arguments: SQLArguments,
    _ body: (Statement) throws -> Void
  ) throws {
    defer {
      statement.reset()
      statement.clearBindings()
    }
    do {
      try statement.bind(arguments)
      try body(statement)
    } catch let error as SQLiteError {
      throw translated(error)
    }
  }

  private func prepared(_ sql: String) throws -> (Statement, hasMore: Bool, columns: [String]) {
    guard isInsideAccess else { throw DatabaseAccessError.outsideAccess(path: path) }
    if let (statement, columns) = statements.statement(for: sql) {
      return (statement, false, columns)
    }
    do {
      let (statement, hasMore) = try connection.prepareFirst(sql)
      let columns = (0..<statement.columnCount).map { statement.columnName(at: $0) }
      if !hasMore { statements.insert(statement, columns: columns, for: sql) }
      return (statement, hasMore, columns)
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
