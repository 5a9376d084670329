import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// A prepared multi-row INSERT run many times with fresh bindings: the seeder's fast path.
///
/// Each run steps the statement to its end and resets it (`SQLStatement.runBatch`): a failure
/// throws `SQLiteError`, built from the engine's message before the reset clears it, and
/// `rowsBeforeFailure` keeps what the engine counted by then (an `INSERT OR FAIL` keeps the rows
/// before the failing one, so the count names it).
final class BulkInsert {
  /// The statement to bind each run's values to (see `SQLStatement`'s bulk binders).
  let statement: any SQLStatement
  /// Rows the last failed run had written before it failed.
  private(set) var rowsBeforeFailure = 0

  /// Prepares `sql` on `database`.
  ///
  /// - Throws: `SQLiteError` when the statement does not compile.
  init(_ database: any SQLDatabase, sql: String) throws {
    statement = try database.prepare(sql)
  }

  /// The SQL the insert was compiled from.
  var sql: String { statement.sql }

  /// Runs the statement with its current bindings; returns the rows it changed.
  ///
  /// - Throws: `SQLiteError` when a row fails (a constraint, a full disk, …); the statement is
  ///   reset either way.
  @inline(__always)
  @discardableResult
  func run() throws -> Int {
    try statement.runBatch(rowsBeforeFailure: &rowsBeforeFailure)
  }
}

extension Statement {
  /// Steps to the end and resets, keeping SQLite's result codes inside this folder: the error
  /// and the rows changed before it are read before the reset clears them.
  ///
  /// - Throws: `SQLiteError` when a row fails; the statement is reset either way.
  @inline(__always)
  package func runBatch(rowsBeforeFailure: inout Int) throws -> Int {
    var rc = sqlite3_step(handle)
    while rc == SQLITE_ROW { rc = sqlite3_step(handle) }
    guard rc == SQLITE_DONE else {
      let error = connection.error(code: rc, sql: sql)
      rowsBeforeFailure = connection.changes
      sqlite3_reset(handle)
      throw error
    }
    sqlite3_reset(handle)
    return connection.changes
  }
}
