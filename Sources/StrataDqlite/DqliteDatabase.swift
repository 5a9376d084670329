import Strata

/// A database of a dqlite cluster, reached through its leader: the `SQLDatabase` seam over
/// dqlite's wire (docs/decisions.md, "Issue 33: the seam over the wire").
///
/// One connection to the leader, one open database on it: a transaction's statements all go
/// through it. A statement the node refuses throws SQLite's own error (`SQLiteError`, dqlite
/// runs SQLite); when the leader is lost, calls throw a `DqliteError` whose `isLeaderGone` is
/// true, and `reconnect()` finds the new leader from the same list of nodes.
public final class DqliteDatabase: SQLDatabase {
  /// The nodes as listed (any of them; the leader is found from them).
  package let nodes: [String]
  /// The database's name in the cluster.
  package let name: String
  package let configuration: DqliteConfiguration
  private(set) var connection: NodeConnection
  private(set) var databaseID: UInt32 = 0
  /// Counts the connections made: a statement prepared on an earlier one is gone.
  private(set) var connectionNumber = 0
  /// Rows changed by the most recent `execute` or `run`.
  package internal(set) var changes = 0
  /// The rowid of the most recent INSERT sent through `execute` or `run`.
  package internal(set) var lastInsertRowID: Int64 = 0
  /// Rows changed by batches meant to be sent ahead that ran as usual (`BatchesSentAhead`).
  var changesAhead = 0
  /// False while a transaction opened by `transaction` is open (tracked here: the protocol
  /// cannot ask the node).
  package private(set) var isAutocommit = true
  /// False inside `withoutWaitingForLocks`.
  var waitsForLocks = true

  /// Finds the leader among `nodes` and opens `name` on it (created on first use).
  ///
  /// - Throws: `DqliteError` when no leader answers within `configuration.leaderTimeout`.
  package init(
    nodes: [String],
    name: String,
    configuration: DqliteConfiguration = .init()
  )
    throws(DqliteError)
  {
    self.nodes = nodes
    self.name = name
    self.configuration = configuration
    connection = try LeaderDiscovery.connect(to: nodes, configuration: configuration)
    do {
      try openDatabase()
    } catch {
      connection.close()
      throw error
    }
  }

  /// OPEN on the leader's connection, then the SQLite version it runs.
  private func openDatabase() throws(DqliteError) {
    databaseID = try connection.open(name)
    let rows = try connection.queryAll(database: databaseID, "SELECT sqlite_version()", [])
    sqliteVersion = rows.first?.first?.textValue ?? ""
    let parts = sqliteVersion.split(separator: ".").map { Int($0) ?? 0 } + [0, 0, 0]
    sqliteVersionNumber = parts[0] * 1_000_000 + parts[1] * 1000 + parts[2]
  }

  deinit { connection.close() }

  /// How messages name the database: `dqlite://` the nodes `/` the name.
  package var path: String { "dqlite://\(nodes.joined(separator: ","))/\(name)" }

  /// Requests sent on the current connection, each a round trip (the benchmark's count).
  package var requestsSent: Int { connection.requestsSent }

  /// The node the client talks to: the leader when it was found.
  package var leader: String { connection.node }

  /// Finds the leader again (after `isLeaderGone`) and reopens the database. A transaction
  /// that was open is gone: the old leader's is rolled back by dqlite.
  ///
  /// - Throws: `DqliteError` when no leader answers within the time.
  package func reconnect() throws(DqliteError) {
    connection.close()
    isAutocommit = true
    connectionNumber += 1
    connection = try LeaderDiscovery.connect(to: nodes, configuration: configuration)
    try openDatabase()
  }

  /// Closes the connection to the leader; the cluster is not changed.
  public func close() { connection.close() }

  // MARK: The seam's operations

  /// The SQLite version the leader runs, such as "3.40.1", read when the database was opened
  /// (the seam reads it without a round trip).
  package private(set) var sqliteVersion = ""

  /// The version as a number, such as 3040001 for 3.40.1: which PRAGMAs the schema reader may
  /// use. Read with the version: asked for often, never a round trip.
  package private(set) var sqliteVersionNumber = 0

  /// Runs `body` without waiting out another writer's lock (`waitingForLocks`).
  package func withoutWaitingForLocks<T>(_ body: () throws -> T) rethrows -> T {
    let waited = waitsForLocks
    waitsForLocks = false
    defer { waitsForLocks = waited }
    return try body()
  }

  /// The most parameters one statement may carry over the wire: 255, as the parameter tuple
  /// every node reads counts them in one byte; what the seeder sizes its INSERTs by. A statement
  /// bound with more goes with its values written in as literals (`InlinedParameters`), which
  /// the leader parses more slowly than it binds (BENCHMARKS.md, "dqlite").
  package var maximumVariableNumber: Int { Wire.maximumParametersSchema0 }

  /// Runs SQL that returns no rows (one or more statements, one EXEC_SQL).
  ///
  /// - Throws: `SQLiteError` for a statement the node refused, or a `DqliteError`.
  package func execute(_ sql: String) throws {
    try run(sql, [])
  }

  /// Runs one statement with arguments; returns the rows it changed.
  ///
  /// - Throws: `SQLiteError` for a statement the node refused, or a `DqliteError`.
  @discardableResult
  package func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
    if arguments.count > Wire.maximumParametersSchema0 {
      return try run(try InlinedParameters.render(sql, arguments), [])
    }
    let result: (lastInsertID: Int64, rowsAffected: Int64)
    do {
      result = try waitingForLocks(sql) { () throws(DqliteError) in
        try connection.exec(database: databaseID, sql, arguments)
      }
    } catch {
      // A ROLLBACK that fails finds no transaction (SQLite rolled it back itself: a trigger's
      // RAISE(ROLLBACK), a full disk): there is none either way.
      if SQLStatementScanner.statements(sql).last?.words.first == "ROLLBACK",
        SQLStatementScanner.statements(sql).last?.words.contains("TO") == false
      {
        isAutocommit = true
      }
      throw error
    }
    changes = Int(result.rowsAffected)
    lastInsertRowID = result.lastInsertID
    trackTransaction(sql)
    return changes
  }

  /// Keeps `isAutocommit` true to a `BEGIN`, `COMMIT`, `END` or `ROLLBACK` sent as SQL (the
  /// seeder's own), since the protocol cannot ask the node.
  private func trackTransaction(_ sql: String) {
    guard let first = sql.utf8.first(where: { $0 > 32 }),
      [UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "E"), UInt8(ascii: "R")]
        .contains(first & 0xDF)
    else { return }
    for statement in SQLStatementScanner.statements(sql) {
      switch statement.words.first {
      case "BEGIN": isAutocommit = false
      case "COMMIT", "END": isAutocommit = true
      case "ROLLBACK" where !statement.words.contains("TO"): isAutocommit = true
      default: break
      }
    }
  }

  /// Runs a query and returns every row (every ROWS batch).
  ///
  /// - Throws: `SQLiteError` for a statement the node refused, or a `DqliteError`.
  package func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
    if arguments.count > Wire.maximumParametersSchema0 {
      return try rows(try InlinedParameters.render(sql, arguments), [])
    }
    return try asSQLite { () throws(DqliteError) in
      try connection.queryAll(database: databaseID, sql, arguments)
    }
  }

  /// Runs a query, handing each batch to `body`, which returns false to stop (the rest of
  /// the query is interrupted); returns the column names.
  ///
  /// - Throws: `DqliteError`, or what `body` throws.
  @discardableResult
  package func query(
    _ sql: String,
    _ arguments: [SQLValue],
    _ body: (RowBatch) throws -> Bool
  ) throws -> [String] {
    try connection.query(database: databaseID, sql, arguments, body)
  }

  /// The first column of the first row, or nil when there is no row; the rest of a long
  /// result is interrupted, not read.
  ///
  /// - Throws: `DqliteError`.
  package func scalar(_ sql: String, _ arguments: [SQLValue]) throws -> SQLValue? {
    if arguments.count > Wire.maximumParametersSchema0 {
      return try scalar(try InlinedParameters.render(sql, arguments), [])
    }
    var first: SQLValue?
    do {
      _ = try connection.query(database: databaseID, sql, arguments) { batch in
        first = batch.rows.first?.first
        return first == nil
      }
    } catch let error as DqliteError {
      throw Self.asSQLite(error)
    }
    return first
  }

  /// Runs `body` inside `BEGIN <kind>` … `COMMIT` on the leader; rolls back when it throws.
  /// A rollback that fails (the leader is gone) never hides the first error: dqlite rolls
  /// back a transaction whose leader is lost.
  ///
  /// - Throws: What `body` throws, after the rollback; `DqliteError` when `BEGIN` or `COMMIT`
  ///   fails.
  package func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
    try execute("BEGIN \(kind.rawValue)")
    isAutocommit = false
    let value: T
    do {
      value = try body()
    } catch {
      try? execute("ROLLBACK")
      isAutocommit = true
      throw error
    }
    do {
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      isAutocommit = true
      throw error
    }
    isAutocommit = true
    return value
  }

  /// Runs `body` inside a savepoint, which nests inside a transaction.
  ///
  /// - Throws: What `body` throws, after rolling back to the savepoint.
  package func savepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
    let quoted = "\"" + String(name.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    try execute("SAVEPOINT \(quoted)")
    do {
      let value = try body()
      try execute("RELEASE \(quoted)")
      return value
    } catch {
      try? execute("ROLLBACK TO \(quoted)")
      try? execute("RELEASE \(quoted)")
      throw error
    }
  }

  /// INTERRUPT: stops what the database is running.
  ///
  /// - Throws: `DqliteError`.
  package func interrupt() throws(DqliteError) {
    try connection.interrupt(database: databaseID)
  }

  /// CLUSTER: the cluster's nodes and their roles, as the leader knows them.
  ///
  /// - Throws: `DqliteError`.
  package func cluster() throws(DqliteError) -> [ClusterNode] {
    try connection.cluster()
  }

  /// DUMP: the database's files as the leader holds them: the database file, then its WAL
  /// (named as the database, with `-wal`). Written side by side, SQLite reads them as one
  /// database.
  ///
  /// - Throws: `DqliteError`.
  package func dump() throws(DqliteError) -> [DumpedFile] {
    try connection.dump(name)
  }
}
