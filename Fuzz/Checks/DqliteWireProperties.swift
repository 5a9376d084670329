import StrataDqlite

/// The dqlite client's decoder, fed a hostile server's bytes: the input is what a node sent,
/// a header then a body. Properties:
/// - the header's size is read without trapping, and one over the limit is refused before any
///   allocation;
/// - every response decoder (FAILURE, SERVER, WELCOME, SERVERS, DB, RESULT, ROWS, EMPTY, FILES)
///   given the body under any type returns a value or throws `DqliteError` (typed: no other
///   error, no trap, no hang);
/// - a decoded ROWS batch has as many values in each row as it has columns, and decoding
///   twice gives the same answer.
enum DqliteWireProperties {
  static let node = "fuzz:1"

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    guard input.count >= 8 else { return }
    let header = WireMessage.header(Array(input[0..<8]))
    try require(header.bodyBytes % 8 == 0, "a body size that is not whole words")
    let body = Array(input[8...])
    // As the connection does: the declared size bounds nothing until the bytes arrive.
    let limit = 1 << 12
    if header.bodyBytes > UInt64(limit) { return }
    for type in 0...10 {
      let message = WireMessage(type: UInt8(type), schema: header.schema, body: body)
      _ = try? WireDecoder.server(message, node: node)
      _ = try? WireDecoder.welcome(message, node: node)
      _ = try? WireDecoder.servers(message, node: node)
      _ = try? WireDecoder.database(message, node: node)
      _ = try? WireDecoder.result(message, node: node, sql: "SELECT 1")
      _ = try? WireDecoder.empty(message, node: node)
      _ = try? WireDecoder.files(message, node: node)
      let first = Result { () throws(DqliteError) in
        try WireDecoder.rows(message, node: node, sql: nil)
      }
      if case .success(let batch) = first {
        for row in batch.rows {
          try require(
            row.count == batch.columns.count,
            "a row of \(row.count) values in a batch of \(batch.columns.count) columns"
          )
        }
      }
      let second = Result { () throws(DqliteError) in
        try WireDecoder.rows(message, node: node, sql: nil)
      }
      try require(
        first.map(canonical) == second.map(canonical),
        "decoding the same ROWS twice differed"
      )
    }
  }

  /// A batch with each float as its bits: NaN equals itself.
  static func canonical(_ batch: RowBatch) -> RowBatch {
    var copy = batch
    copy.rows = batch.rows.map { row in
      row.map { value in
        if case .real(let number) = value { return .text("real \(number.bitPattern)") }
        return value
      }
    }
    return copy
  }
}
