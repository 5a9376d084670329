import Strata

/// dqlite's wire protocol, version 1 (docs/dqlite.md, "The wire protocol"): every message is an
/// 8-byte header (body size in 8-byte words as a little-endian u32, the type, the schema
/// version, two unused bytes) and a body padded to 8 bytes.
package enum Wire {
  /// The protocol version the client sends first, as one little-endian u64.
  package static let protocolVersion: UInt64 = 1
  /// Bytes in a word: every body, text and blob is padded to a multiple of it.
  package static let wordSize = 8

  /// A request's type byte.
  package enum Request: UInt8, Sendable {
    case leader = 0, client = 1, heartbeat = 2, open = 3, prepare = 4, exec = 5, query = 6
    case finalize = 7, execSQL = 8, querySQL = 9, interrupt = 10, add = 12, assign = 13
    case remove = 14, dump = 15, cluster = 16

    /// The name messages give the request.
    package var name: String {
      switch self {
      case .leader: "LEADER"
      case .client: "CLIENT"
      case .heartbeat: "HEARTBEAT"
      case .open: "OPEN"
      case .prepare: "PREPARE"
      case .exec: "EXEC"
      case .query: "QUERY"
      case .finalize: "FINALIZE"
      case .execSQL: "EXEC_SQL"
      case .querySQL: "QUERY_SQL"
      case .interrupt: "INTERRUPT"
      case .add: "ADD"
      case .assign: "ASSIGN"
      case .remove: "REMOVE"
      case .dump: "DUMP"
      case .cluster: "CLUSTER"
      }
    }
  }

  /// A response's type byte.
  package enum Response: UInt8, Sendable {
    case failure = 0, server = 1, welcome = 2, servers = 3, database = 4, statement = 5
    case result = 6, rows = 7, empty = 8, files = 9, metadata = 10
  }

  /// A value's type code, in a parameter tuple and in a row's header.
  package enum ValueType: UInt8, Sendable {
    case integer = 1, float = 2, text = 3, blob = 4, null = 5
    /// A column declared DATETIME (or DATE, TIMESTAMP) holding an integer: Unix seconds.
    case unixTime = 9
    /// A column declared DATETIME (or DATE, TIMESTAMP) holding text.
    case iso8601 = 10
    /// A column declared BOOLEAN: an integer.
    case boolean = 11
  }

  /// The end of a ROWS batch: more batches follow.
  package static let moreRowsMarker: UInt8 = 0xEE
  /// The end of a ROWS batch: the result is complete.
  package static let doneMarker: UInt8 = 0xFF
  /// The most parameters the tuple of schema 0 holds (its count is one byte).
  package static let maximumParametersSchema0 = 255
}

/// Builds one request: its body word by word, then the header that counts them.
package struct WireEncoder {
  private(set) var body: [UInt8] = []

  package init() {}

  package mutating func putUInt64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
  }

  package mutating func putUInt32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
  }

  /// Text: UTF-8, one NUL, zeros to the next word.
  ///
  /// - Throws: `DqliteError.cannotEncode` for text holding a NUL, which the node would cut.
  package mutating func putText(_ text: String) throws(DqliteError) {
    let bytes = Array(text.utf8)
    if bytes.contains(0) {
      throw .cannotEncode(detail: "text holds a NUL byte, which dqlite's protocol cannot carry")
    }
    body.append(contentsOf: bytes)
    body.append(0)
    pad()
  }

  /// A blob: its length as a u64, its bytes, zeros to the next word.
  package mutating func putBlob(_ bytes: [UInt8]) {
    putUInt64(UInt64(bytes.count))
    body.append(contentsOf: bytes)
    pad()
  }

  /// A parameter tuple (schema 0): a one-byte count, the type codes, padded to a word, then
  /// each value. (Schema 1, a u32 count, is refused by the nodes of Debian's dqlite 1.11.)
  ///
  /// - Throws: `DqliteError.cannotEncode` for more than 255 values, or text holding a NUL.
  package mutating func putParameters(_ values: [SQLValue]) throws(DqliteError) {
    guard values.count <= Wire.maximumParametersSchema0 else {
      throw .cannotEncode(
        detail: "\(values.count) parameters, more than the \(Wire.maximumParametersSchema0) "
          + "one statement may carry"
      )
    }
    body.append(UInt8(values.count))
    for value in values { body.append(Self.typeCode(of: value).rawValue) }
    pad()
    for value in values {
      switch value {
      case .integer(let number): putUInt64(UInt64(bitPattern: number))
      case .real(let number): putUInt64(number.bitPattern)
      case .text(let text): try putText(text)
      case .blob(let bytes): putBlob(bytes)
      case .null: putUInt64(0)
      }
    }
  }

  /// The wire type of a value.
  package static func typeCode(of value: SQLValue) -> Wire.ValueType {
    switch value {
    case .integer: .integer
    case .real: .float
    case .text: .text
    case .blob: .blob
    case .null: .null
    }
  }

  /// The header then the body: the bytes to send.
  package func message(_ type: Wire.Request, schema: UInt8 = 0) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Wire.wordSize + body.count)
    let words = UInt32(body.count / Wire.wordSize)
    withUnsafeBytes(of: words.littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: [type.rawValue, schema, 0, 0])
    bytes.append(contentsOf: body)
    return bytes
  }

  private mutating func pad() {
    while body.count % Wire.wordSize != 0 { body.append(0) }
  }
}

/// The requests the client sends, each as the bytes of one message.
package enum WireRequest {
  /// LEADER: which node leads (one unused word).
  package static func leader() -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt64(0)
    return encoder.message(.leader)
  }

  /// CLIENT: registers this client's id.
  package static func client(id: UInt64) -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt64(id)
    return encoder.message(.client)
  }

  /// OPEN: a database by name (flags 0, the node's default VFS).
  package static func open(_ name: String) throws(DqliteError) -> [UInt8] {
    var encoder = WireEncoder()
    try encoder.putText(name)
    encoder.putUInt64(0)
    try encoder.putText("volatile")
    return encoder.message(.open)
  }

  /// EXEC_SQL or QUERY_SQL: SQL with its parameters on an open database.
  package static func sql(
    _ type: Wire.Request,
    database: UInt32,
    sql: String,
    parameters: [SQLValue]
  ) throws(DqliteError) -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt64(UInt64(database))
    try encoder.putText(sql)
    try encoder.putParameters(parameters)
    return encoder.message(type)
  }

  /// PREPARE: compiles one statement on an open database, to run many times by its id.
  package static func prepare(database: UInt32, sql: String) throws(DqliteError) -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt64(UInt64(database))
    try encoder.putText(sql)
    return encoder.message(.prepare)
  }

  /// EXEC or QUERY: a prepared statement, by its id, with its parameters.
  package static func statement(
    _ type: Wire.Request,
    database: UInt32,
    statement: UInt32,
    parameters: [SQLValue]
  ) throws(DqliteError) -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt32(database)
    encoder.putUInt32(statement)
    try encoder.putParameters(parameters)
    return encoder.message(type)
  }

  /// FINALIZE: frees a prepared statement.
  package static func finalize(database: UInt32, statement: UInt32) -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt32(database)
    encoder.putUInt32(statement)
    return encoder.message(.finalize)
  }

  /// INTERRUPT: stops the query running on the database.
  package static func interrupt(database: UInt32) -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt64(UInt64(database))
    return encoder.message(.interrupt)
  }

  /// CLUSTER: the nodes, with their roles (format 1).
  package static func cluster() -> [UInt8] {
    var encoder = WireEncoder()
    encoder.putUInt64(1)
    return encoder.message(.cluster)
  }

  /// DUMP: the database's files.
  package static func dump(_ name: String) throws(DqliteError) -> [UInt8] {
    var encoder = WireEncoder()
    try encoder.putText(name)
    return encoder.message(.dump)
  }
}
