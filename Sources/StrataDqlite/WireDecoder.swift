import Strata

/// One message as it came off the wire: the header's type and schema, and the body.
package struct WireMessage: Sendable, Equatable {
  package var type: UInt8
  package var schema: UInt8
  package var body: [UInt8]

  package init(type: UInt8, schema: UInt8, body: [UInt8]) {
    self.type = type
    self.schema = schema
    self.body = body
  }

  /// The header's body size in bytes (its word count times 8), its type and schema.
  package static func header(_ bytes: [UInt8]) -> (bodyBytes: UInt64, type: UInt8, schema: UInt8) {
    var words: UInt32 = 0
    for index in 0..<4 { words |= UInt32(bytes[index]) << (8 * UInt32(index)) }
    return (UInt64(words) * UInt64(Wire.wordSize), bytes[4], bytes[5])
  }
}

/// Reads a body word by word; every read is checked against the bytes left, so a short or
/// lying message is an error (`DqliteError.malformed`), never a crash.
package struct WireReader {
  private let bytes: [UInt8]
  private(set) var offset = 0
  private let node: String

  package init(_ bytes: [UInt8], node: String) {
    self.bytes = bytes
    self.node = node
  }

  package var remaining: Int { bytes.count - offset }

  /// The next byte, without reading it.
  package var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  package func malformed(_ detail: String) -> DqliteError {
    .malformed(node: node, detail: detail)
  }

  package mutating func uint64(_ what: String) throws(DqliteError) -> UInt64 {
    guard remaining >= 8 else { throw malformed("\(what) is cut short") }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
    offset += 8
    return value
  }

  package mutating func uint32(_ what: String) throws(DqliteError) -> UInt32 {
    guard remaining >= 4 else { throw malformed("\(what) is cut short") }
    var value: UInt32 = 0
    for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * UInt32(index)) }
    offset += 4
    return value
  }

  package mutating func byte(_ what: String) throws(DqliteError) -> UInt8 {
    guard remaining >= 1 else { throw malformed("\(what) is cut short") }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// Text up to its NUL, then the padding to the next word.
  package mutating func text(_ what: String) throws(DqliteError) -> String {
    guard let end = bytes[offset...].firstIndex(of: 0) else {
      throw malformed("\(what) has no terminating NUL")
    }
    let text = String(decoding: bytes[offset..<end], as: UTF8.self)
    offset = min(bytes.count, Self.alignUp(end + 1))
    return text
  }

  /// A blob: a u64 length, the bytes, the padding.
  package mutating func blob(_ what: String) throws(DqliteError) -> [UInt8] {
    let count = try uint64("\(what)'s length")
    guard count <= UInt64(remaining) else {
      throw malformed("\(what) claims \(count) bytes but \(remaining) remain")
    }
    return take(Int(count), padded: true)
  }

  /// `count` raw bytes (checked by the caller), optionally followed by padding.
  package mutating func take(_ count: Int, padded: Bool) -> [UInt8] {
    let slice = Array(bytes[offset..<offset + count])
    offset = padded ? min(bytes.count, Self.alignUp(offset + count)) : offset + count
    return slice
  }

  package mutating func skip(_ count: Int) { offset = min(bytes.count, offset + count) }

  package static func alignUp(_ value: Int) -> Int {
    (value + Wire.wordSize - 1) / Wire.wordSize * Wire.wordSize
  }
}

/// One batch of a query's rows.
package struct RowBatch: Sendable, Equatable {
  package var columns: [String]
  package var rows: [[SQLValue]]
  /// True when another ROWS message follows (the batch ended with 0xee…).
  package var more: Bool
}

/// A file of a DUMP answer: its name (the database's, or its WAL's) and its bytes.
package struct DumpedFile: Sendable, Equatable {
  package var name: String
  package var bytes: [UInt8]
}

/// A node of the cluster as CLUSTER lists it.
package struct ClusterNode: Sendable, Equatable {
  package var id: UInt64
  package var address: String
  /// 0 voter, 1 stand-by, 2 spare.
  package var role: UInt64

  package var isVoter: Bool { role == 0 }
}

/// Decodes each response the client expects. A FAILURE becomes `DqliteError.failure`; any
/// other type than the one expected, or a body that does not parse, `DqliteError.malformed`.
package enum WireDecoder {
  /// The body of a response of `expected` type.
  package static func reader(
    _ message: WireMessage,
    expecting expected: Wire.Response,
    node: String,
    sql: String? = nil
  ) throws(DqliteError) -> WireReader {
    var reader = WireReader(message.body, node: node)
    if message.type == Wire.Response.failure.rawValue, expected != .failure {
      let code = try reader.uint64("the failure's code")
      let text = try reader.text("the failure's message")
      throw .failure(code: code, message: text, sql: sql, node: node)
    }
    guard message.type == expected.rawValue else {
      throw reader.malformed(
        "expected a response of type \(expected.rawValue) (\(expected)), got type \(message.type)"
      )
    }
    return reader
  }

  /// SERVER: the leader's id and address ("" when the node knows no leader).
  package static func server(
    _ message: WireMessage,
    node: String
  ) throws(DqliteError) -> (
    id: UInt64, address: String
  ) {
    var reader = try reader(message, expecting: .server, node: node)
    let id = try reader.uint64("the leader's id")
    return (id, try reader.text("the leader's address"))
  }

  /// WELCOME: the heartbeat timeout in milliseconds.
  package static func welcome(_ message: WireMessage, node: String) throws(DqliteError) -> UInt64 {
    var reader = try reader(message, expecting: .welcome, node: node)
    return try reader.uint64("the heartbeat timeout")
  }

  /// DB: the open database's id.
  package static func database(
    _ message: WireMessage,
    node: String
  ) throws(DqliteError)
    -> UInt32
  {
    var reader = try reader(message, expecting: .database, node: node)
    return try reader.uint32("the database id")
  }

  /// STMT: the prepared statement's id and how many parameters it takes.
  package static func statement(
    _ message: WireMessage,
    node: String,
    sql: String
  ) throws(DqliteError) -> (id: UInt32, parameterCount: UInt64) {
    var reader = try reader(message, expecting: .statement, node: node, sql: sql)
    _ = try reader.uint32("the database id")
    let id = try reader.uint32("the statement id")
    return (id, try reader.uint64("the parameter count"))
  }

  /// RESULT: the last insert id and the rows changed.
  package static func result(
    _ message: WireMessage,
    node: String,
    sql: String?
  )
    throws(DqliteError) -> (lastInsertID: Int64, rowsAffected: Int64)
  {
    var reader = try reader(message, expecting: .result, node: node, sql: sql)
    let id = try reader.uint64("the last insert id")
    let changed = try reader.uint64("the rows changed")
    return (Int64(bitPattern: id), Int64(bitPattern: changed))
  }

  /// EMPTY: an acknowledgement.
  package static func empty(_ message: WireMessage, node: String) throws(DqliteError) {
    _ = try reader(message, expecting: .empty, node: node)
  }

  /// ROWS: the column names, the rows, and whether more batches follow.
  package static func rows(
    _ message: WireMessage,
    node: String,
    sql: String?
  )
    throws(DqliteError) -> RowBatch
  {
    var reader = try reader(message, expecting: .rows, node: node, sql: sql)
    let count = try reader.uint64("the column count")
    // Each name takes a word at least: a larger count is a lie, refused before allocating.
    guard count <= UInt64(reader.remaining / Wire.wordSize) else {
      throw reader.malformed("ROWS claims \(count) columns in \(reader.remaining) bytes")
    }
    var columns: [String] = []
    for index in 0..<Int(count) { columns.append(try reader.text("column \(index)'s name")) }
    var rows: [[SQLValue]] = []
    let headerBytes = WireReader.alignUp((columns.count * 4 + 7) / 8)
    while true {
      guard let first = reader.peek else {
        throw reader.malformed("ROWS ends without its end marker")
      }
      if first == Wire.moreRowsMarker || first == Wire.doneMarker {
        return RowBatch(columns: columns, rows: rows, more: first == Wire.moreRowsMarker)
      }
      guard headerBytes > 0, reader.remaining >= headerBytes else {
        throw reader.malformed("a row's header is cut short")
      }
      let header = reader.take(headerBytes, padded: false)
      var row: [SQLValue] = []
      for index in 0..<columns.count {
        let slot = header[index / 2]
        let code = index % 2 == 0 ? slot & 0x0F : slot >> 4
        row.append(try value(code, &reader, column: index))
      }
      rows.append(row)
    }
  }

  /// One value of a row, by its type code.
  static func value(
    _ code: UInt8,
    _ reader: inout WireReader,
    column: Int
  )
    throws(DqliteError) -> SQLValue
  {
    let what = "column \(column)'s value"
    switch Wire.ValueType(rawValue: code) {
    case .integer, .unixTime, .boolean:
      return .integer(Int64(bitPattern: try reader.uint64(what)))
    case .float: return .real(Double(bitPattern: try reader.uint64(what)))
    case .text, .iso8601: return .text(try reader.text(what))
    case .blob: return .blob(try reader.blob(what))
    case .null:
      _ = try reader.uint64(what)
      return .null
    case nil: throw reader.malformed("column \(column) has the unknown type code \(code)")
    }
  }

  /// SERVERS: the cluster's nodes (format 1: id, address, role).
  package static func servers(
    _ message: WireMessage,
    node: String
  ) throws(DqliteError)
    -> [ClusterNode]
  {
    var reader = try reader(message, expecting: .servers, node: node)
    let count = try reader.uint64("the node count")
    guard count <= UInt64(reader.remaining / (3 * Wire.wordSize)) else {
      throw reader.malformed("SERVERS claims \(count) nodes in \(reader.remaining) bytes")
    }
    var nodes: [ClusterNode] = []
    for index in 0..<Int(count) {
      let id = try reader.uint64("node \(index)'s id")
      let address = try reader.text("node \(index)'s address")
      nodes.append(ClusterNode(id: id, address: address, role: try reader.uint64("node's role")))
    }
    return nodes
  }

  /// FILES: each file's name and bytes.
  package static func files(
    _ message: WireMessage,
    node: String
  ) throws(DqliteError)
    -> [DumpedFile]
  {
    var reader = try reader(message, expecting: .files, node: node)
    let count = try reader.uint64("the file count")
    guard count <= UInt64(reader.remaining / (2 * Wire.wordSize)) else {
      throw reader.malformed("FILES claims \(count) files in \(reader.remaining) bytes")
    }
    var files: [DumpedFile] = []
    for index in 0..<Int(count) {
      let name = try reader.text("file \(index)'s name")
      let size = try reader.uint64("file \(index)'s size")
      guard size <= UInt64(reader.remaining) else {
        throw reader.malformed("file \(index) claims \(size) bytes but \(reader.remaining) remain")
      }
      files.append(DumpedFile(name: name, bytes: reader.take(Int(size), padded: true)))
    }
    return files
  }
}
