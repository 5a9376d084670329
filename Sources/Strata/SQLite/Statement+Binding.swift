import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

// The bulk-load binders: bind straight from a caller's buffer without building an `SQLValue`
// per field. A failure throws `SQLiteError` with no SQL (the statement is known to the caller).

/// SQLITE_STATIC: SQLite reads the caller's bytes when the statement runs and does not copy
/// them. https://www.sqlite.org/c3ref/bind_blob.html
/// > If the fifth argument is the special value SQLITE_STATIC, then SQLite assumes that the
/// > information is in static, unmanaged space and does not need to be freed.
/// The caller keeps the bytes alive and unmoved until the statement has stepped.
private let staticDestructor = unsafeBitCast(0, to: sqlite3_destructor_type.self)
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension Statement {
  /// Binds `count` bytes of UTF-8 at `start` as TEXT without copying them: they must stay
  /// valid and unmoved until the statement has stepped (or is rebound). A length beyond
  /// Int32 is SQLITE_TOOBIG, never a trap.
  @inline(__always)
  package func bindTextNoCopy(_ start: UnsafeRawPointer, count: Int, at index: Int32) throws {
    guard let length = Int32(exactly: count) else { throw bindFailure(SQLITE_TOOBIG) }
    try checkBind(
      sqlite3_bind_text(
        handle,
        index,
        start.assumingMemoryBound(to: CChar.self),
        length,
        staticDestructor
      )
    )
  }

  /// Binds bytes as a BLOB, copied by SQLite (an empty one is a zero-length BLOB, not NULL).
  @inline(__always)
  package func bindBlobCopy(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      return try checkBind(sqlite3_bind_zeroblob(handle, index, 0))
    }
    guard let length = Int32(exactly: bytes.count) else { throw bindFailure(SQLITE_TOOBIG) }
    try checkBind(sqlite3_bind_blob(handle, index, base, length, transientDestructor))
  }

  @inline(__always)
  package func bindInt64(_ value: Int64, at index: Int32) throws {
    try checkBind(sqlite3_bind_int64(handle, index, value))
  }

  @inline(__always)
  package func bindDouble(_ value: Double, at index: Int32) throws {
    try checkBind(sqlite3_bind_double(handle, index, value))
  }

  @inline(__always)
  package func bindNull(at index: Int32) throws {
    try checkBind(sqlite3_bind_null(handle, index))
  }

  @inline(__always)
  private func checkBind(_ rc: Int32) throws {
    if rc != SQLITE_OK { throw bindFailure(rc) }
  }

  private func bindFailure(_ rc: Int32) -> SQLiteError {
    connection.error(code: rc, sql: nil)
  }
}

extension Connection {
  /// The most `?` parameters one statement may have (999 before SQLite 3.32, 32766 after).
  package var maximumVariableNumber: Int {
    Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
  }

  /// The error for a result code returned by a call on this connection.
  func error(code: Int32, sql: String?) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    let chosen = (extended & 0xFF) == (code & 0xFF) ? extended : code
    return SQLiteError(
      extendedCode: chosen,
      message: lastErrorMessage,
      sql: sql,
      systemErrorCode: systemErrorCode(for: chosen)
    )
  }
}

extension Statement {
  /// The name of parameter `index` (1-based) with its prefix (`:id`, `@id`, `$id`, `?3`), or
  /// nil for a plain `?`.
  func parameterName(at index: Int) -> String? {
    sqlite3_bind_parameter_name(handle, Int32(clamping: index)).map { String(cString: $0) }
  }
}

extension Connection {
  /// Compiles the first statement of `sql`; `hasMore` is true when text other than white
  /// space follows it (more statements, or a comment), so that a caller can run a script
  /// another way.
  ///
  /// - Throws: `SQLiteError` for SQL that does not compile, or holds no statement.
  func prepareFirst(_ sql: String) throws -> (statement: Statement, hasMore: Bool) {
    var statement: OpaquePointer?
    var hasMore = false
    let rc = sql.withCString { start in
      var tail: UnsafePointer<CChar>?
      let rc = sqlite3_prepare_v2(handle, start, -1, &statement, &tail)
      if let tail {
        var rest = tail
        while rest.pointee != 0, isspace(Int32(UInt8(bitPattern: rest.pointee))) != 0 { rest += 1 }
        hasMore = rest.pointee != 0
      }
      return rc
    }
    guard rc == SQLITE_OK else { throw error(sql: sql) }
    guard let statement else {
      throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql)
    }
    return (Statement(handle: statement, connection: self, sql: sql), hasMore)
  }

  /// Runs the statements of `sql` in turn, as `execute(_:)` does, but compiles each one only
  /// when the ones before it have run and shows it to `check` first, so that a caller can
  /// refuse a statement (one with parameters and no arguments) before it runs.
  ///
  /// - Throws: what `check` throws; `SQLiteError` from the first statement that fails (the
  ///   ones before it have run).
  func executeEach(_ sql: String, check: (Statement) throws -> Void) throws {
    try sql.withCString { start in
      var rest: UnsafePointer<CChar>? = start
      while let current = rest, current.pointee != 0 {
        var compiled: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        guard sqlite3_prepare_v2(handle, current, -1, &compiled, &tail) == SQLITE_OK else {
          throw error(sql: sql)
        }
        rest = tail
        // White space or a comment compiles to no statement.
        guard let compiled else { continue }
        let statement = Statement(handle: compiled, connection: self, sql: sql)
        try check(statement)
        while try statement.step() {}
      }
    }
  }
}
