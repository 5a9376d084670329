/// The narrow seam between strata's jobs and a database engine: what the migrator, the seeder
/// and the inspector need, and nothing else. `Connection` (SQLite through its C API) is one
/// engine; a second one (a dqlite client, issue 33) implements this protocol and its statement
/// instead of editing every file that runs SQL.
///
/// The operations: run a script (`execute`, `executeScript`), query rows with parameters
/// (`rows`, `scalar`, `run`), a statement prepared once and run many times (`prepare`, the
/// seeder's hot path and the PRAGMA reader's), a transaction (`transaction`, `savepoint`), and
/// the state a run reads back (`changes`, `isAutocommit`, the engine's SQLite version). The
/// history table, the foreign-key check (`PRAGMA foreign_key_check`) and the schema PRAGMAs
/// (`SchemaPragmas`) are SQL sent through these operations, so an engine speaking SQLite's SQL
/// (as dqlite does) gets them for free. Failures are `SQLiteError`: an engine built on SQLite
/// reports SQLite's result codes, and the messages and remedies read them.
///
/// Not in the seam, because only a local SQLite file has them: the authorizer fence
/// (Authorizer.swift), the backup API (`Connection+Backup`), `locking_mode` across a run
/// (`MigrationRunLock`), the interrupt and progress handlers, extensions, custom SQL functions
/// and the `sqlite3_*` handles. Code that needs one of them names `Connection` and uses it only
/// when the database is one (docs/architecture.md, "The seam to a database").
package protocol SQLDatabase: AnyObject {
  /// The engine's compiled statement.
  associatedtype PreparedStatement: SQLStatement

  /// How messages name the database (a file's path; an address for a remote engine).
  var path: String { get }

  /// The SQLite version the engine runs, such as 3040001 for 3.40.1: which PRAGMAs the schema
  /// reader may use (`pragma_table_list` from 3.37).
  var sqliteVersionNumber: Int { get }

  /// The SQLite version the engine runs, such as "3.40.1", as an inspection reports it.
  var sqliteVersion: String { get }

  /// Runs SQL that returns no rows (one or more statements).
  ///
  /// - Throws: `SQLiteError` from the first statement that fails; the ones before it have run.
  func execute(_ sql: String) throws

  /// Runs every statement of `script` in order, telling `willRun` each one (with its line)
  /// before it runs, as a migration's statements run.
  ///
  /// - Throws: `ScriptError` naming the statement and line that failed, or what `willRun`
  ///   threw.
  @discardableResult
  func executeScript(
    _ script: String,
    firstLine: Int,
    willRun: ((ScriptStatement) throws -> Void)?
  ) throws -> [ScriptStatement]

  /// Compiles one statement, to run many times with fresh bindings.
  ///
  /// - Throws: `SQLiteError` for SQL that does not compile.
  func prepare(_ sql: String) throws -> PreparedStatement

  /// Runs a query and returns every row, each as its column values.
  ///
  /// - Throws: `SQLiteError` when the query fails.
  func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]]

  /// The first column of the first row, or nil when there is no row.
  ///
  /// - Throws: `SQLiteError` when the query fails.
  func scalar(_ sql: String, _ arguments: [SQLValue]) throws -> SQLValue?

  /// Runs one statement with arguments, returning the number of rows it changed.
  ///
  /// - Throws: `SQLiteError` when the statement fails.
  @discardableResult
  func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int

  /// Runs `body` inside `BEGIN <kind>` … `COMMIT`; rolls back when it throws.
  ///
  /// - Throws: What `body` throws, after the rollback; `SQLiteError` when `BEGIN` or `COMMIT`
  ///   fails.
  func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T

  /// Runs `body` inside a savepoint, which nests inside a transaction.
  ///
  /// - Throws: What `body` throws, after rolling back to the savepoint.
  func savepoint<T>(_ name: String, _ body: () throws -> T) throws -> T

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  var changes: Int { get }

  /// False while a transaction is open.
  var isAutocommit: Bool { get }

  /// The most `?` parameters one statement may have: how many rows one INSERT may carry.
  var maximumVariableNumber: Int { get }

  /// Runs `body` without waiting for other writers' locks: reading the state for a message
  /// after a lock was given up on must not wait again. An engine without a busy wait runs
  /// `body` as is.
  func withoutWaitingForLocks<T>(_ body: () throws -> T) rethrows -> T

  /// Whether `error` means the connection to the database is gone (a remote engine's leader
  /// lost): the run stops, and its caller reconnects before reading the state. False for a
  /// file's connection, which cannot be lost.
  func isConnectionLost(_ error: any Error) -> Bool

  /// Whether each call is a round trip to a server: the migrator then sends an ordinary
  /// migration whole, as one script, and goes statement by statement only when it fails.
  /// False for a file's connection.
  var isRemote: Bool { get }
}

/// An engine that can run a prepared statement without waiting for each answer (a server's):
/// a load whose batches only add up their counts sends them ahead and reads the answers once.
package protocol BatchesSentAhead: SQLDatabase {
  /// Runs `statement` with its current bindings, sent before the answers to the batches sent
  /// ahead of it are read.
  ///
  /// - Throws: `SQLiteError` from an earlier batch's answer read to make room.
  func sendBatchAhead(_ statement: any SQLStatement) throws

  /// The rows the batches sent ahead changed, together, once every answer is read.
  ///
  /// - Throws: The first refused batch's `SQLiteError` (the batches after it ran all the same).
  func rowsChangedByBatchesAhead() throws -> Int
}

/// A statement of an `SQLDatabase`, compiled once: bound, stepped, read and reset, many times.
///
/// The bulk binders (`bindTextNoCopy`, `bindInt64`, …) and `runBatch` are the seeder's hot
/// path: each field is bound straight from the CSV reader's buffer, and each batch of rows is
/// one step.
package protocol SQLStatement: AnyObject {
  /// The SQL this statement was compiled from.
  var sql: String { get }

  /// The number of columns in a row of the result.
  var columnCount: Int { get }

  /// The name of result column `index` (0-based).
  func columnName(at index: Int) -> String

  /// Binds values to parameters 1, 2, … in order.
  ///
  /// - Throws: `SQLiteError` when a value cannot be bound.
  func bind(_ values: [SQLValue]) throws

  /// Binds one value to parameter `index` (1-based).
  ///
  /// - Throws: `SQLiteError` for an index out of range or a value too large.
  func bind(_ value: SQLValue, at index: Int) throws

  /// Advances to the next row: true when a row is ready, false when done.
  ///
  /// - Throws: `SQLiteError` when the step fails.
  @discardableResult
  func step() throws -> Bool

  /// Makes the statement ready to run again; bindings stay.
  func reset()

  /// Sets every parameter back to NULL.
  func clearBindings()

  /// The value of column `index` (0-based) in the current row.
  func value(at index: Int) -> SQLValue

  /// Column `index` as an integer (NULL reads as 0).
  func int64(at index: Int) -> Int64

  /// Column `index` as text, or nil when NULL.
  func string(at index: Int) -> String?

  /// Column `index` as a double (NULL reads as 0).
  func double(at index: Int) -> Double

  /// True when column `index` is NULL in the current row.
  func isNull(at index: Int) -> Bool

  /// Binds `count` bytes of UTF-8 at `start` as TEXT without copying them: they stay valid and
  /// unmoved until the statement has stepped (or is rebound).
  func bindTextNoCopy(_ start: UnsafeRawPointer, count: Int, at index: Int32) throws

  /// Binds bytes as a BLOB, copied (an empty one is a zero-length BLOB, not NULL).
  func bindBlobCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws

  /// Binds an integer to parameter `index` (1-based).
  func bindInt64(_ value: Int64, at index: Int32) throws

  /// Binds a double to parameter `index` (1-based).
  func bindDouble(_ value: Double, at index: Int32) throws

  /// Binds NULL to parameter `index` (1-based).
  func bindNull(at index: Int32) throws

  /// Runs the statement to its end with its current bindings and resets it (bindings stay);
  /// returns the rows it changed. On a failure, `rowsBeforeFailure` is set to the rows changed
  /// before it (an `INSERT OR FAIL` keeps them, so the count names the failing row).
  ///
  /// - Throws: `SQLiteError`, read before the reset clears it.
  func runBatch(rowsBeforeFailure: inout Int) throws -> Int
}

extension SQLDatabase {
  /// False: a file's connection cannot be lost.
  package func isConnectionLost(_ error: any Error) -> Bool { false }

  /// False: a file's connection is in this process.
  package var isRemote: Bool { false }

  /// `executeScript(_:firstLine:willRun:)` from line 1, with nothing told before each statement.
  ///
  /// - Throws: `ScriptError` naming the statement and line that failed.
  @discardableResult
  package func executeScript(_ script: String) throws -> [ScriptStatement] {
    try executeScript(script, firstLine: 1, willRun: nil)
  }

  /// `rows(_:_:)` with no arguments.
  ///
  /// - Throws: `SQLiteError` when the query fails.
  package func rows(_ sql: String) throws -> [[SQLValue]] { try rows(sql, []) }

  /// `scalar(_:_:)` with no arguments.
  ///
  /// - Throws: `SQLiteError` when the query fails.
  package func scalar(_ sql: String) throws -> SQLValue? { try scalar(sql, []) }

  /// `run(_:_:)` with no arguments.
  ///
  /// - Throws: `SQLiteError` when the statement fails.
  @discardableResult
  package func run(_ sql: String) throws -> Int { try run(sql, []) }

  /// `transaction(_:_:)`, `BEGIN IMMEDIATE`.
  ///
  /// - Throws: What `body` throws, after the rollback; `SQLiteError` when `BEGIN` or `COMMIT`
  ///   fails.
  package func transaction<T>(_ body: () throws -> T) throws -> T {
    try transaction(.immediate, body)
  }

  /// `savepoint(_:_:)` named `strata`.
  ///
  /// - Throws: What `body` throws, after rolling back to the savepoint.
  package func savepoint<T>(_ body: () throws -> T) throws -> T {
    try savepoint("strata", body)
  }
}

extension Connection: SQLDatabase {
  /// The linked SQLite's version number (`libraryVersionNumber`).
  package var sqliteVersionNumber: Int { Self.libraryVersionNumber }

  /// The linked SQLite's version string (`libraryVersion`).
  package var sqliteVersion: String { Self.libraryVersion }
}

extension Statement: SQLStatement {}
