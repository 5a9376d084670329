import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A compiled SQL statement, finalized when released.
@usableFromInline
package final class Statement {
  let handle: OpaquePointer
  /// Keeps the connection open while the statement lives.
  let connection: Connection
  /// The SQL this statement was compiled from.
  package let sql: String

  init(handle: OpaquePointer, connection: Connection, sql: String) {
    self.handle = handle
    self.connection = connection
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// The number of columns in a row of the result.
  package var columnCount: Int { Int(sqlite3_column_count(handle)) }

  /// The number of `?` / `:name` parameters.
  package var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

  /// The name of result column `index` (0-based).
  package func columnName(at index: Int) -> String {
    sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
  }

  /// True when the statement only reads (SELECT, most PRAGMAs).
  package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  /// Binds values to parameters 1, 2, … in order.
  ///
  /// - Throws: `SQLiteError` when a value cannot be bound (too many values, too large).
  package func bind(_ values: [SQLValue]) throws {
    for (offset, value) in values.enumerated() {
      try bind(value, at: offset + 1)
    }
  }

  /// Binds one value to parameter `index` (1-based, as in SQLite).
  ///
  /// - Throws: `SQLiteError` for an index out of range or a value too large.
  package func bind(_ value: SQLValue, at index: Int) throws {
    // Out of Int32's range is out of SQLite's too: SQLITE_RANGE or SQLITE_TOOBIG, never a trap.
    let i = Int32(clamping: index)
    let rc: Int32
    switch value {
    case .null: rc = sqlite3_bind_null(handle, i)
    case .integer(let v): rc = sqlite3_bind_int64(handle, i, v)
    case .real(let v): rc = sqlite3_bind_double(handle, i, v)
    case .text(let v): rc = sqlite3_bind_text(handle, i, v, -1, transient)
    case .blob(let bytes):
      rc = bytes.withUnsafeBytes {
        guard let length = Int32(exactly: $0.count) else { return SQLITE_TOOBIG }
        return sqlite3_bind_blob(handle, i, $0.baseAddress, length, transient)
      }
    }
    try check(rc)
  }

  /// Binds one value to the parameter named `name` (with its prefix: `:id`, `@id`, `$id`).
  ///
  /// - Throws: `SQLiteError` for an unknown parameter name or a value too large.
  package func bind(_ value: SQLValue, named name: String) throws {
    let index = sqlite3_bind_parameter_index(handle, name)
    guard index > 0 else {
      throw SQLiteError(
        extendedCode: SQLITE_RANGE,
        message: "no parameter named \(name)",
        sql: sql
      )
    }
    try bind(value, at: Int(index))
  }

  /// Advances to the next row: true when a row is ready, false when done.
  ///
  /// - Throws: `SQLiteError` when the step fails (a constraint, a busy database, a read error).
  @discardableResult
  package func step() throws -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.error(sql: sql)
    }
  }

  /// Makes the statement ready to run again; bindings stay.
  package func reset() {
    sqlite3_reset(handle)
  }

  /// Sets every parameter back to NULL.
  package func clearBindings() {
    sqlite3_clear_bindings(handle)
  }

  /// The value of column `index` (0-based) in the current row.
  @usableFromInline
  package func value(at index: Int) -> SQLValue {
    // One look-up of the column, then its type and content from the value it holds: each
    // `sqlite3_column_*` call would look the column up again. (The value is "unprotected":
    // safe here, as this connection is used by one thread at a time.)
    let value = sqlite3_column_value(handle, Int32(index))
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      guard let text = sqlite3_value_text(value) else { return .text("") }
      return .text(String(cString: text))
    case SQLITE_BLOB:
      let count = Int(sqlite3_value_bytes(value))
      guard count > 0, let base = sqlite3_value_blob(value) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
    default: return .null
    }
  }

  /// Column `index` as an integer (NULL reads as 0).
  package func int64(at index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

  /// Column `index` as text, or nil when NULL.
  package func string(at index: Int) -> String? {
    guard let pointer = sqlite3_column_text(handle, Int32(index)) else { return nil }
    return String(cString: pointer)
  }

  /// Column `index` as a double (NULL reads as 0).
  package func double(at index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

  /// True when column `index` is NULL in the current row.
  package func isNull(at index: Int) -> Bool {
    sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
  }

  private func check(_ rc: Int32) throws {
    guard rc == SQLITE_OK else { throw connection.error(sql: sql) }
  }
}
