import Strata

/// The CSV reader's promises, checked on any bytes:
/// - the result (records, or the error) does not depend on how the input is cut into chunks,
///   nor on whether records are read one by one or held in batches as the seeder reads them;
/// - an error's line and column point inside the input, at a byte that shows the problem;
/// - records start on increasing lines, and their fields are UTF-8 without NUL bytes;
/// - records re-encoded as CSV and read again are the same records.
enum CSVReaderProperties {
  /// Chunk sizes that put refills inside every kind of token of a small input.
  static let chunkSizes = [1, 2, 3, 5, 64]

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    let reference = try read(input, chunkSize: 1 << 20)
    for chunkSize in chunkSizes {
      let other = try read(input, chunkSize: chunkSize)
      try require(
        other == reference,
        "chunk size \(chunkSize) gives \(other), the default gives \(reference)"
      )
    }
    let batched = try read(input, chunkSize: 7, recordsPerBatch: 3)
    try require(batched == reference, "batched reading gives \(batched), one by one \(reference)")
    switch reference {
    case .failure(let error): try checkPosition(of: error, in: input)
    case .success(let records): try checkRecords(records, of: input)
    }
  }

  /// Reads `input` one record at a time, or `recordsPerBatch` held at once.
  static func read(
    _ input: [UInt8],
    chunkSize: Int,
    recordsPerBatch: Int? = nil
  ) throws(PropertyViolation) -> Result<[CSVRecord], CSVError> {
    let reader = CSVReader(bytes: input, chunkSize: chunkSize)
    do {
      if let recordsPerBatch {
        return .success(try reader.readAllInBatches(recordsPerBatch: recordsPerBatch))
      }
      return .success(try reader.readAll())
    } catch let error as CSVError {
      return .failure(error)
    } catch {
      throw PropertyViolation("CSVReader threw something other than a CSVError: \(error)")
    }
  }

  /// The error's line and column name a byte of the input (or its end) that shows the problem.
  static func checkPosition(of error: CSVError, in input: [UInt8]) throws(PropertyViolation) {
    if error.problem == .utf16 {
      try require(error.line == 1 && error.column == 1, "UTF-16 reported at \(error)")
      return
    }
    if error.problem == .corruptCompressedData {
      // Input that starts with gzip's magic bytes is inflated; its lines are the inflated text's.
      try require(input.starts(with: [0x1F, 0x8B]), "gzip data reported in \(error)")
      return
    }
    let hasBOM = input.starts(with: [0xEF, 0xBB, 0xBF])
    let lines = physicalLines(input[(hasBOM ? 3 : 0)...])
    try require(
      error.line >= 1 && error.line <= lines.count,
      "\(error.problem) at line \(error.line) of an input of \(lines.count) lines"
    )
    let line = lines[error.line - 1]
    // Columns count characters: step over whole UTF-8 sequences (all valid before the error).
    var offset = line.lowerBound
    var column = 1
    while column < error.column, offset < line.upperBound {
      let lead = input[offset]
      offset += lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
      column += 1
    }
    try require(
      column == error.column && offset <= line.upperBound,
      "\(error.problem) at column \(error.column) of line \(error.line), which has \(column - 1) characters"
    )
    let byte: UInt8? = offset < input.count ? input[offset] : nil
    switch error.problem {
    case .unterminatedQuote, .quoteInUnquotedField:
      try require(byte == 0x22, "\(error.problem) reported at \(error), which is not a quote")
    case .nulByte:
      try require(
        byte == 0,
        "NUL byte reported at \(error), which holds \(String(describing: byte))"
      )
    case .textAfterClosingQuote:
      try require(
        offset > 0 && input[offset - 1] == 0x22 && byte != nil && byte != 0x2C,
        "text after a closing quote reported at \(error)"
      )
    case .invalidUTF8:
      let rest = Array(input[offset..<min(input.count, offset + 4)])
      try require(
        byte.map { $0 >= 0x80 } == true && !startsWithValidUTF8(rest),
        "invalid UTF-8 reported at \(error), where the bytes are \(rest)"
      )
    case .utf16, .readFailed, .invalidEncoding, .corruptCompressedData:
      try require(false, "\(error.problem) for bytes in memory at \(error)")
    case .quotedFieldTooLarge:
      try require(byte == 0x22, "\(error.problem) reported at \(error), which is not a quote")
    case .fieldTooLarge, .recordTooLarge:
      try require(
        input.count > (error.limit ?? Int.max),
        "\(error.problem) at \(error) in an input of \(input.count) bytes"
      )
    case .tooManyFields, .moreFieldsThanHeader:
      // The first field past the limit: it starts after a comma, and so many commas are there.
      try require(
        offset > 0 && input[offset - 1] == 0x2C
          && input.count(where: { $0 == 0x2C }) >= (error.limit ?? Int.max),
        "\(error.problem) reported at \(error), which is not a field past the limit"
      )
    }
  }

  /// True when `bytes` starts with one well-formed UTF-8 sequence.
  static func startsWithValidUTF8(_ bytes: [UInt8]) -> Bool {
    (1...min(4, bytes.count)).contains { String(validating: bytes[0..<$0], as: UTF8.self) != nil }
  }

  static func checkRecords(_ records: [CSVRecord], of input: [UInt8]) throws(PropertyViolation) {
    let lineCount = physicalLines(input).count
    var previousLine = 0
    for record in records {
      try require(
        record.line > previousLine && record.line <= lineCount,
        "a record on line \(record.line) after one on line \(previousLine), in \(lineCount) lines"
      )
      previousLine = record.line
      try require(!record.fields.isEmpty, "a record with no fields on line \(record.line)")
      for field in record.fields {
        try require(
          String(validating: field.bytes, as: UTF8.self) != nil && !field.bytes.contains(0),
          "a field on line \(record.line) that is not UTF-8 text: \(field.bytes)"
        )
        if !field.isQuoted {
          try require(
            !field.bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D },
            "an unquoted field on line \(record.line) holds a comma, quote or line break"
          )
        }
      }
    }
    let encoded = encode(records)
    let reread = try read(encoded, chunkSize: 3)
    try require(
      reread.map { $0.map(\.fields) } == .success(records.map(\.fields)),
      "re-encoded as \(encoded), the records read back as \(reread), not \(records)"
    )
  }

  /// RFC 4180 text for `records`: quoted fields stay quoted (quotes doubled); a byte order
  /// mark first, so that a field that itself starts with one survives.
  static func encode(_ records: [CSVRecord]) -> [UInt8] {
    var out: [UInt8] = [0xEF, 0xBB, 0xBF]
    for record in records {
      for (index, field) in record.fields.enumerated() {
        if index > 0 { out.append(0x2C) }
        if field.isQuoted {
          out.append(0x22)
          for byte in field.bytes {
            out.append(byte)
            if byte == 0x22 { out.append(0x22) }
          }
          out.append(0x22)
        } else {
          out += field.bytes
        }
      }
      out.append(0x0A)
    }
    return out
  }
}
