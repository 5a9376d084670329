import Foundation
import Strata

/// What the seam asks beyond single requests: a script split into its statements, prepared
/// statements, and SQLite's errors for what the node refused.
extension DqliteDatabase {
  /// Runs each statement of `script` as its own EXEC_SQL, split where SQLite would split it
  /// (`SQLStatementScanner`, complete.c's rules), so that a failure names its statement and
  /// line and `willRun` sees each statement before it runs, as on a file.
  ///
  /// - Throws: `ScriptError` for a statement the node refused; a `DqliteError` when the
  ///   connection fails (the statement in flight may or may not have run); what `willRun`
  ///   throws.
  @discardableResult
  package func executeScript(
    _ script: String,
    firstLine: Int,
    willRun: ((ScriptStatement) throws -> Void)?
  ) throws -> [ScriptStatement] {
    let bytes = Array(script.utf8)
    var ran: [ScriptStatement] = []
    for scanned in SQLStatementScanner.statements(script, firstLine: firstLine) {
      let range = scanned.start..<scanned.end
      let statement = ScriptStatement(
        sql: String(decoding: bytes[range], as: UTF8.self),
        line: scanned.line,
        byteRange: range
      )
      try willRun?(statement)
      do {
        try execute(statement.sql)
      } catch let error as SQLiteError {
        throw ScriptError(line: statement.line, statementNumber: ran.count + 1, underlying: error)
      }
      ran.append(statement)
    }
    return ran
  }

  /// PREPARE on the leader: SQL that does not compile throws here, as on a file.
  ///
  /// - Throws: `SQLiteError` for SQL the node cannot compile, or a `DqliteError`.
  package func prepare(_ sql: String) throws -> DqliteStatement {
    try DqliteStatement(sql, database: self)
  }

  /// The statement's id on the leader, and the connection it belongs to.
  func prepareOnLeader(_ sql: String) throws -> (UInt32, Int) {
    let id = try asSQLite { () throws(DqliteError) in
      try connection.prepare(database: databaseID, sql)
    }
    return (id, connectionNumber)
  }

  /// FINALIZE, when the statement's connection is still the one in use; a failure is
  /// ignored (a connection that broke frees its statements with it).
  func finalizeOnLeader(_ id: UInt32, connectionNumber number: Int) {
    guard number == connectionNumber, connection.isUsable else { return }
    try? connection.finalize(database: databaseID, statement: id)
  }

  /// EXEC of a prepared statement; returns the rows it changed.
  func execOnLeader(
    _ id: UInt32,
    connectionNumber number: Int,
    _ sql: String,
    _ values: [SQLValue]
  ) throws -> Int {
    try checkSameConnection(number, sql)
    if values.count > Wire.maximumParametersSchema0 {
      return try run(try InlinedParameters.render(sql, values), [])
    }
    let result = try asSQLite { () throws(DqliteError) in
      try connection.exec(database: databaseID, statement: id, sql: sql, values)
    }
    changes = Int(result.rowsAffected)
    lastInsertRowID = result.lastInsertID
    return changes
  }

  /// QUERY of a prepared statement: its columns and every row.
  func queryOnLeader(
    _ id: UInt32,
    connectionNumber number: Int,
    _ sql: String,
    _ values: [SQLValue]
  ) throws -> RowBatch {
    try checkSameConnection(number, sql)
    if values.count > Wire.maximumParametersSchema0 {
      let inlined = try InlinedParameters.render(sql, values)
      return try asSQLite { () throws(DqliteError) in
        try connection.queryAllColumns(database: databaseID, inlined, [])
      }
    }
    return try asSQLite { () throws(DqliteError) in
      try connection.queryAll(database: databaseID, statement: id, sql: sql, values)
    }
  }

  /// Runs a request outside a transaction again while another connection holds the write lock
  /// (SQLITE_BUSY), for up to `configuration.busyTimeout`: the leader answers BUSY at once, where
  /// a file's connection waits in SQLite. A single statement outside a transaction that
  /// answered BUSY did not run, so sending it again is safe; SQL of several statements (the
  /// first may have committed) and a statement inside a transaction are not sent again.
  func waitingForLocks<T>(_ sql: String, _ request: () throws(DqliteError) -> T) throws -> T {
    let deadline = ContinuousClock.now + .milliseconds(Int(configuration.busyTimeout * 1000))
    var pause = Duration.milliseconds(2)
    while true {
      do {
        return try asSQLite(request)
      } catch let error as SQLiteError
        where error.isBusy && isAutocommit && waitsForLocks && ContinuousClock.now < deadline
        && SQLStatementScanner.statements(sql).count <= 1
      {
        Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
        pause = min(pause * 2, .milliseconds(50))
      }
    }
  }

  /// A statement prepared before a reconnect names nothing on the new leader.
  func checkSameConnection(_ number: Int, _ sql: String) throws {
    guard number != connectionNumber else { return }
    throw DqliteError.closed(node: leader, waitingFor: "`\(sql.prefix(80))`", midMessage: false)
  }

  /// Runs a request, turning the node's refusal of a statement into SQLite's error (dqlite's
  /// codes are SQLite's); a lost leader and connection errors stay `DqliteError`.
  func asSQLite<T>(_ request: () throws(DqliteError) -> T) throws -> T {
    do {
      return try request()
    } catch {
      throw Self.asSQLite(error)
    }
  }

  /// True for a lost leader or a broken connection (`DqliteError.isLeaderGone`).
  package func isConnectionLost(_ error: any Error) -> Bool {
    (error as? DqliteError)?.isLeaderGone == true
  }

  /// True: every call is a request to the leader.
  package var isRemote: Bool { true }

  /// The error the seam's callers read: `SQLiteError` for a refused statement, else as is.
  static func asSQLite(_ error: DqliteError) -> any Error {
    guard !error.isLeaderGone, let sqlite = error.sqliteError else { return error }
    return sqlite
  }
}

extension DqliteDatabase: BatchesSentAhead {
  /// EXEC without waiting for the answer (`NodeConnection.execLater`).
  package func sendBatchAhead(_ statement: any SQLStatement) throws {
    guard let statement = statement as? DqliteStatement else {
      var before = 0
      changesAhead += try statement.runBatch(rowsBeforeFailure: &before)
      return
    }
    try statement.sendAhead()
  }

  package func rowsChangedByBatchesAhead() throws -> Int {
    let ranAsUsual = changesAhead
    changesAhead = 0
    let answered = try asSQLite { () throws(DqliteError) in try connection.answersToLater() }
    return ranAsUsual + Int(answered)
  }

  /// A prepared statement's EXEC sent ahead; one of more values than the wire carries runs
  /// as usual.
  func execAheadOnLeader(
    _ id: UInt32,
    connectionNumber number: Int,
    _ sql: String,
    _ values: [SQLValue]
  ) throws {
    guard values.count <= Wire.maximumParametersSchema0 else {
      changesAhead += try execOnLeader(id, connectionNumber: number, sql, values)
      return
    }
    try checkSameConnection(number, sql)
    try asSQLite { () throws(DqliteError) in
      try connection.execLater(database: databaseID, statement: id, sql: sql, values)
    }
  }
}
