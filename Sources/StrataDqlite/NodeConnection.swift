import Strata

/// How long the client waits, and how much it accepts.
package struct DqliteConfiguration: Sendable {
  /// Seconds to wait for a node to accept a connection.
  package var connectTimeout: Double = 5
  /// Seconds to wait for each answer (each ROWS batch of a query, the whole of a DUMP).
  package var requestTimeout: Double = 30
  /// Seconds leader discovery keeps asking the listed nodes while none leads (an election
  /// takes a few seconds after a leader is lost).
  package var leaderTimeout: Double = 10
  /// Seconds a statement outside a transaction (a `BEGIN IMMEDIATE` among them) is sent again
  /// while another client holds the write lock, as a file's busy timeout waits.
  package var busyTimeout: Double = 5
  /// The largest message accepted (a DUMP is one message holding the whole database).
  package var maximumMessageBytes = 1 << 30
  /// The id this client registers with (CLIENT).
  package var clientID = UInt64.random(in: 1...UInt64.max)

  package init() {}
}

/// One connection to one node: the protocol version sent first, then requests, each answered
/// by one message (a query by one per batch of rows). The node serves one request at a time.
package final class NodeConnection {
  package let address: NodeAddress
  package let configuration: DqliteConfiguration
  private let socket: NodeSocket
  /// False once a message was cut short or timed out: the stream is out of step and the
  /// connection must not be used again.
  package private(set) var isUsable = true
  /// Seconds each answer is waited for: `requestTimeout`, or the connect timeout while the
  /// leader is being found (a silent node must not hold the search for a whole request's time).
  package var answerTimeout: Double
  /// Requests sent, each a round trip to the node (the benchmark counts them).
  package internal(set) var requestsSent = 0
  /// EXEC requests sent without waiting (`execLater`) whose answers are not read yet, the rows
  /// the read ones changed, and the first failure among them.
  var unanswered: [String] = []
  var laterRows: Int64 = 0
  var laterFailure: DqliteError?
  /// At most this many requests are sent ahead of their answers: how many may run after one
  /// that failed before the client reads its failure and stops sending.
  package static let requestsAhead = 8

  /// Connects and sends the protocol version.
  ///
  /// - Throws: `DqliteError` when the node cannot be reached.
  package init(_ address: NodeAddress, configuration: DqliteConfiguration) throws(DqliteError) {
    self.address = address
    self.configuration = configuration
    answerTimeout = configuration.requestTimeout
    socket = try NodeSocket(connectingTo: address, timeout: configuration.connectTimeout)
    var version = WireEncoder()
    version.putUInt64(Wire.protocolVersion)
    try send(version.body, waitingFor: "the handshake")
  }

  package var node: String { address.description }

  package func close() {
    socket.close()
    isUsable = false
  }

  /// Sends one request and reads its first answer.
  ///
  /// - Throws: `DqliteError` for a connection that fails or an answer that does not parse.
  package func call(_ request: [UInt8], named name: String) throws(DqliteError) -> WireMessage {
    // Answers come in order: those owed to requests sent ahead are read first (a failure
    // among them fails this call, before it is sent).
    if !unanswered.isEmpty { try readAnswersAhead() }
    requestsSent += 1
    try send(request, waitingFor: "the \(name) request")
    return try receive(answering: name)
  }

  /// Reads the next message (the next ROWS batch, the answers after an INTERRUPT).
  ///
  /// - Throws: `DqliteError.timedOut`, `.closed`, `.tooLarge` or `.malformed`.
  package func receive(answering name: String) throws(DqliteError) -> WireMessage {
    guard isUsable else {
      throw .closed(node: node, waitingFor: "the answer to \(name)", midMessage: false)
    }
    let timeout = answerTimeout
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    let waitingFor = "the answer to \(name)"
    do throws(DqliteError) {
      let header = try socket.receive(
        Wire.wordSize,
        until: deadline,
        waitingFor: waitingFor,
        timeout: timeout,
        started: false
      )
      let (size, type, schema) = WireMessage.header(header)
      guard size <= UInt64(configuration.maximumMessageBytes) else {
        throw DqliteError.tooLarge(
          node: node,
          bytes: size,
          limit: configuration.maximumMessageBytes
        )
      }
      guard Wire.Response(rawValue: type) != nil else {
        throw DqliteError.malformed(
          node: node,
          detail: "a message of the unknown type \(type) (\(size) bytes announced)"
        )
      }
      let body = try socket.receive(
        Int(size),
        until: deadline,
        waitingFor: waitingFor,
        timeout: timeout,
        started: true
      )
      return WireMessage(type: type, schema: schema, body: body)
    } catch {
      close()
      throw error
    }
  }

  func send(_ bytes: [UInt8], waitingFor: String) throws(DqliteError) {
    guard isUsable else { throw .closed(node: node, waitingFor: waitingFor, midMessage: false) }
    let timeout = answerTimeout
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    do {
      try socket.send(bytes, until: deadline, waitingFor: waitingFor, timeout: timeout)
    } catch {
      close()
      throw error
    }
  }

  // MARK: The requests

  /// LEADER: the address of the node this node thinks leads, or "" when it knows none.
  package func leader() throws(DqliteError) -> String {
    try WireDecoder.server(call(WireRequest.leader(), named: "LEADER"), node: node).address
  }

  /// CLIENT: registers this client; returns the heartbeat timeout (milliseconds).
  @discardableResult
  package func register() throws(DqliteError) -> UInt64 {
    let request = WireRequest.client(id: configuration.clientID)
    return try WireDecoder.welcome(call(request, named: "CLIENT"), node: node)
  }

  /// OPEN: the database named `name` (created on first use); returns its id.
  package func open(_ name: String) throws(DqliteError) -> UInt32 {
    try WireDecoder.database(call(WireRequest.open(name), named: "OPEN"), node: node)
  }

  /// EXEC_SQL: runs one or more statements; parameters bind to the first.
  package func exec(
    database: UInt32,
    _ sql: String,
    _ parameters: [SQLValue]
  )
    throws(DqliteError) -> (lastInsertID: Int64, rowsAffected: Int64)
  {
    let request = try WireRequest.sql(
      .execSQL,
      database: database,
      sql: sql,
      parameters: parameters
    )
    return try WireDecoder.result(call(request, named: "EXEC_SQL"), node: node, sql: sql)
  }

  /// QUERY_SQL: runs a query, handing each batch of rows to `body`; when `body` returns false
  /// before the last batch, the query is interrupted (INTERRUPT) and the rest discarded.
  package func query(
    database: UInt32,
    _ sql: String,
    _ parameters: [SQLValue],
    _ body: (RowBatch) throws -> Bool
  ) throws -> [String] {
    let request = try WireRequest.sql(
      .querySQL,
      database: database,
      sql: sql,
      parameters: parameters
    )
    var batch = try WireDecoder.rows(call(request, named: "QUERY_SQL"), node: node, sql: sql)
    var empty = EmptyBatches(node: node)
    while true {
      let goOn = try body(batch)
      if !batch.more { return batch.columns }
      try empty.check(batch, self)
      if !goOn {
        try interrupt(database: database)
        return batch.columns
      }
      batch = try WireDecoder.rows(receive(answering: "QUERY_SQL"), node: node, sql: sql)
    }
  }

  /// QUERY_SQL: every row of a query, from every batch.
  package func queryAll(
    database: UInt32,
    _ sql: String,
    _ parameters: [SQLValue]
  )
    throws(DqliteError) -> [[SQLValue]]
  {
    let request = try WireRequest.sql(
      .querySQL,
      database: database,
      sql: sql,
      parameters: parameters
    )
    return try allRows(request, named: "QUERY_SQL", sql: sql).rows
  }

  /// QUERY_SQL: the column names and every row, from every batch.
  package func queryAllColumns(
    database: UInt32,
    _ sql: String,
    _ parameters: [SQLValue]
  )
    throws(DqliteError) -> RowBatch
  {
    let request = try WireRequest.sql(
      .querySQL,
      database: database,
      sql: sql,
      parameters: parameters
    )
    return try allRows(request, named: "QUERY_SQL", sql: sql)
  }

  /// Sends a query and reads every ROWS batch of its answer into one.
  private func allRows(
    _ request: [UInt8],
    named name: String,
    sql: String
  ) throws(DqliteError) -> RowBatch {
    var batch = try WireDecoder.rows(call(request, named: name), node: node, sql: sql)
    var all = batch
    var empty = EmptyBatches(node: node)
    while batch.more {
      try empty.check(batch, self)
      batch = try WireDecoder.rows(receive(answering: name), node: node, sql: sql)
      all.rows += batch.rows
    }
    all.more = false
    return all
  }

  /// PREPARE: compiles `sql` on the node; returns its statement id.
  package func prepare(database: UInt32, _ sql: String) throws(DqliteError) -> UInt32 {
    let request = try WireRequest.prepare(database: database, sql: sql)
    return try WireDecoder.statement(call(request, named: "PREPARE"), node: node, sql: sql).id
  }

  /// EXEC: runs a prepared statement with `parameters`.
  package func exec(
    database: UInt32,
    statement: UInt32,
    sql: String,
    _ parameters: [SQLValue]
  ) throws(DqliteError) -> (lastInsertID: Int64, rowsAffected: Int64) {
    let request = try WireRequest.statement(
      .exec,
      database: database,
      statement: statement,
      parameters: parameters
    )
    return try WireDecoder.result(call(request, named: "EXEC"), node: node, sql: sql)
  }

  /// QUERY: every row of a prepared statement's result, and its column names.
  package func queryAll(
    database: UInt32,
    statement: UInt32,
    sql: String,
    _ parameters: [SQLValue]
  ) throws(DqliteError) -> RowBatch {
    let request = try WireRequest.statement(
      .query,
      database: database,
      statement: statement,
      parameters: parameters
    )
    return try allRows(request, named: "QUERY", sql: sql)
  }

  /// FINALIZE: frees a prepared statement on the node.
  package func finalize(database: UInt32, statement: UInt32) throws(DqliteError) {
    let request = WireRequest.finalize(database: database, statement: statement)
    try WireDecoder.empty(call(request, named: "FINALIZE"), node: node)
  }

  /// INTERRUPT: stops the query in flight; reads the answers up to the EMPTY that ends it.
  package func interrupt(database: UInt32) throws(DqliteError) {
    var message = try call(WireRequest.interrupt(database: database), named: "INTERRUPT")
    // Batches already on their way come first; a hostile node's endless ones meet the limit.
    var skipped = 0
    while message.type != Wire.Response.empty.rawValue {
      if message.type == Wire.Response.failure.rawValue {
        try WireDecoder.empty(message, node: node)
      }
      skipped += 1
      guard skipped < 1_000_000 else {
        close()
        throw .malformed(node: node, detail: "INTERRUPT never answered EMPTY")
      }
      message = try receive(answering: "INTERRUPT")
    }
  }

  /// CLUSTER: the nodes of the cluster and their roles.
  package func cluster() throws(DqliteError) -> [ClusterNode] {
    try WireDecoder.servers(call(WireRequest.cluster(), named: "CLUSTER"), node: node)
  }

  /// DUMP: the database's files (the database, then its WAL).
  package func dump(_ name: String) throws(DqliteError) -> [DumpedFile] {
    try WireDecoder.files(call(WireRequest.dump(name), named: "DUMP"), node: node)
  }
}

/// Counts a query's batches in a row that hold no row yet promise more: a node that sends them
/// without end (dqlite 1.11 was seen to, for a row larger than its answer buffer) would hold
/// the client forever, each batch arriving within the time.
private struct EmptyBatches {
  static let limit = 1_000
  let node: String
  var count = 0

  mutating func check(_ batch: RowBatch, _ connection: NodeConnection) throws(DqliteError) {
    count = batch.rows.isEmpty ? count + 1 : 0
    guard count >= Self.limit else { return }
    connection.close()
    throw .malformed(
      node: node,
      detail: "it sent \(Self.limit) batches of rows in a row without a row, each promising more "
        + "(a row too large for the node to send?)"
    )
  }
}
