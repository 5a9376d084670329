import Foundation

/// A strict, streaming RFC 4180 reader: bytes in, fields out.
///
/// Reads the file in chunks into one buffer and parses fields in place, so memory stays flat
/// whatever the file's size (it holds the records not yet released, plus one chunk). A field
/// or a record larger than `maximumFieldBytes` throws `fieldTooLarge` / `recordTooLarge` as
/// soon as the limit is passed, so one bad quote cannot make the reader hold the whole file.
/// CRLF, LF and lone CR all end a record; quoted fields may hold commas, doubled quotes and
/// line breaks (kept byte for byte); a UTF-8 byte order mark is skipped; blank lines at the end
/// are ignored. An unterminated quote, text after a closing quote, a quote in an unquoted
/// field, invalid UTF-8 or a NUL byte throws a `CSVError` with its line and column.
///
/// Not thread-safe.
package final class CSVReader {
  /// A field's place in the buffer, and where it starts in the file.
  struct Span {
    var start: Int
    var count: Int
    var isQuoted: Bool
    /// Quoted and holding `""` pairs, not yet undoubled (only while its record is parsed).
    var hasDoubledQuotes = false
    var line: Int
    var column: Int
  }

  /// A record held in the buffer: its fields are `spans[firstField ..< firstField + fieldCount]`.
  struct Held {
    let line: Int
    let firstField: Int
    let fieldCount: Int
  }

  /// What scanning found at `position`.
  enum Outcome {
    case record
    case needMore
    case end
  }

  // The reading state, shared with the refill (CSVReader+Refill.swift) and the scanner
  // (CSVReader+Scanning.swift): internal only because those live in other files; nothing
  // outside the reader touches it.
  /// The file as stored (hashed as read), and what the reader reads: the file itself, or the
  /// last stage that inflates or converts it (see `CSVInput`).
  let raw: RawInput
  var input: any CSVInput
  /// The byte between fields: a comma, a tab for `.tsv`, or what the file's format says.
  var delimiter = CSVBytes.comma
  /// The file's encoding: other than UTF-8, an `EncodingInput` converts it.
  var encoding = SeedEncoding.utf8
  /// The file's name ends in `.gz`: it must start with gzip's magic bytes.
  var namedCompressed = false
  var buffer: UnsafeMutablePointer<UInt8>
  var capacity: Int
  let chunkSize: Int
  /// Valid bytes are `buffer[0 ..< dataEnd]`.
  var dataEnd = 0
  /// The next byte to parse.
  var position = 0
  /// Bytes before this offset may be dropped: no held record uses them.
  var keepFrom = 0
  /// Where the last held record ends: bytes from here to `position` (blank lines already
  /// counted) are not needed either.
  var heldEnd = 0
  /// The file offset of `buffer[0]`.
  var bufferOffset: Int64 = 0
  var atEndOfInput = false
  var startChecked = false
  /// The physical line at `position`.
  var line = 1
  /// Blank lines already consumed that sit between records (not at the end of the file).
  var pendingBlankLines = 0
  var pendingBlankLine = 0
  /// Blank lines consumed at the end of the buffer before more input says whether they are
  /// between records or at the end of the file, and the line of the first.
  var blankRun = 0
  var blankRunLine = 0
  /// Where the field being read when the buffer ran out starts, from its record's start.
  var pendingFieldOffset = 0
  /// The largest field, and the largest record, the reader accepts.
  package let maximumFieldBytes: Int
  /// The most fields a record may have: `maximumFieldCountLimit`, or the header's width once
  /// the seeder has read it (`limitFields(toHeaderWidth:)`). Each field costs the reader a
  /// fixed amount of memory however few bytes it has (a line of ten million commas is
  /// 10 MB of file but ten million fields), so the count is bounded as well as the bytes.
  package private(set) var maximumFieldCount = CSVReader.maximumFieldCountLimit
  /// Whether `maximumFieldCount` is a header's width (which names the error).
  var fieldCountIsHeaderWidth = false

  /// The most fields any record may have: 32767, SQLite's hard maximum for the columns of a
  /// table (SQLITE_MAX_COLUMN cannot be compiled higher), so no row of a seed can be wider.
  package static let maximumFieldCountLimit = 32_767

  /// The default for `maximumFieldBytes`: 16 MiB, far above any real seed field, low enough
  /// that a file with a missing closing quote fails fast in a few tens of MiB of memory.
  package static let defaultMaximumFieldBytes = 16 << 20

  /// The fields of the records held since the last `releaseRecords()`, owned by the reader
  /// (freed with it); the scanner appends through one `inout` access per record.
  var spanList = GrowableList<Span>()
  /// The records held since the last `releaseRecords()`.
  var heldList = GrowableList<Held>()

  /// The fields of the held records, valid until the next `readRecord()` or `releaseRecords()`.
  var spans: ListView<Span> { spanList.view }
  /// The held records, valid until the next `readRecord()` or `releaseRecords()`.
  var held: ListView<Held> { heldList.view }

  /// The file's size in bytes, when reading a regular file (nil for a pipe or a terminal).
  package let totalBytes: Int64?

  /// Reads CSV from bytes in memory; `chunkSize` sets how much each refill takes (tests use
  /// tiny chunks to cross every boundary). Gzip bytes (by their magic bytes) are inflated;
  /// `delimiter` and `encoding` are as for a file.
  package convenience init(
    bytes: [UInt8],
    chunkSize: Int = 1 << 20,
    computeChecksum: Bool = false,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes,
    delimiter: UInt8 = 0x2C,
    encoding: SeedEncoding = .utf8
  ) {
    self.init(
      raw: RawInput(source: .memory(bytes, offset: 0), computeChecksum: computeChecksum),
      chunkSize: chunkSize,
      totalBytes: Int64(bytes.count),
      maximumFieldBytes: maximumFieldBytes
    )
    self.delimiter = delimiter
    self.encoding = encoding
  }

  init(
    raw: RawInput,
    chunkSize: Int,
    totalBytes: Int64?,
    maximumFieldBytes: Int
  ) {
    self.raw = raw
    self.input = raw
    self.maximumFieldBytes = max(1, maximumFieldBytes)
    self.chunkSize = max(1, chunkSize)
    // Room for the largest record the limit allows, reserved up front: the pages are only
    // touched as a record fills them, and a buffer grown by doubling would leave each smaller
    // one behind in the allocator (a 16 MiB field once cost 63 MiB that way).
    let largest = Self.largestPending(maximumFieldBytes: self.maximumFieldBytes)
    let reserved = self.chunkSize <= 64 << 20 && largest <= (256 << 20) - 2 * self.chunkSize
    self.capacity = reserved ? largest + 2 * self.chunkSize : max(64, self.chunkSize)
    self.buffer = .allocate(capacity: capacity)
    self.totalBytes = totalBytes
  }

  deinit {
    buffer.deallocate()
  }

  /// Bytes of the file consumed by the records read so far (of the file as stored: for a
  /// gzip file or a converted encoding, what the stages have read, up to a buffer ahead).
  package var bytesRead: Int64 {
    input === raw ? bufferOffset + Int64(position) : raw.consumed
  }

  /// The SHA-256 (hex) of the whole file, once every record has been read; nil before, or
  /// when the reader was not asked to compute it.
  ///
  /// - Throws: `CSVError` when reading the rest of the input fails.
  package func checksum() throws -> String? {
    guard let hasher = raw.hasher else { return nil }
    if input !== raw {
      // The rest of a gzip file or a converted text is only hashed, never inflated or
      // converted (what is left may not even be valid).
      try raw.drain()
      atEndOfInput = true
    }
    while !atEndOfInput {
      // Whatever is left is only hashed, never parsed.
      releaseRecords()
      position = dataEnd
      keepFrom = dataEnd
      heldEnd = dataEnd
      try readChunk(compacting: true)
    }
    return hasher.finalizeHex()
  }

  // MARK: - Convenience API

  /// The next record with its fields copied out, or nil at the end of the file.
  ///
  /// - Throws: `CSVError` for malformed CSV, a field or record over the limit, or a failed read,
  ///   with its line and column.
  package func nextRecord() throws -> CSVRecord? {
    releaseRecords()
    guard try readRecord() else { return nil }
    return copyOut(held[0])
  }

  /// A held record with its fields copied out of the buffer.
  private func copyOut(_ record: Held) -> CSVRecord {
    let fields = (record.firstField..<record.firstField + record.fieldCount).map { index in
      let span = spans[index]
      return CSVField(
        bytes: Array(UnsafeBufferPointer(start: fieldPointer(span), count: span.count)),
        isQuoted: span.isQuoted
      )
    }
    return CSVRecord(line: record.line, fields: fields)
  }

  /// Every record of the input.
  ///
  /// - Throws: `CSVError` for malformed CSV, a field or record over the limit, or a failed read,
  ///   with its line and column.
  package func readAll() throws -> [CSVRecord] {
    var records: [CSVRecord] = []
    while let record = try nextRecord() { records.append(record) }
    return records
  }

  /// Every record of the input, read the way the seeder reads: up to `recordsPerBatch`
  /// records held in the buffer at once, then copied out and released. The fuzzer compares
  /// it with `readAll()`, so the two paths cannot drift apart.
  package func readAllInBatches(recordsPerBatch: Int) throws -> [CSVRecord] {
    var records: [CSVRecord] = []
    var more = true
    while more {
      releaseRecords()
      while heldList.count < max(1, recordsPerBatch) {
        guard try readRecord() else {
          more = false
          break
        }
      }
      for index in 0..<heldList.count { records.append(copyOut(held[index])) }
    }
    releaseRecords()
    return records
  }

  // MARK: - Bulk API (held records, fields read in place)

  /// Reads the next record and holds it: its fields stay readable, in place, until
  /// `releaseRecords()`. Returns false at the end of the input.
  func readRecord() throws -> Bool {
    if pendingBlankLines > 0 {
      holdBlankRecord(line: pendingBlankLine)
      pendingBlankLines -= 1
      pendingBlankLine += 1
      return true
    }
    if !startChecked { try checkStart() }
    while true {
      switch try scanRecord() {
      case .record: return true
      case .end: return false
      case .needMore: try readChunk(compacting: true)
      }
    }
  }

  /// Lets the buffer reuse the bytes of every held record.
  func releaseRecords() {
    spanList.removeAll()
    heldList.removeAll()
    keepFrom = position
    heldEnd = position
  }

  /// Memory held by the records not yet released: their bytes, and their fields' bookkeeping
  /// (a batch of many-field records must stop as soon as one of few-byte records does).
  var heldBytes: Int { position - keepFrom + spanList.count * MemoryLayout<Span>.stride }

  /// From now on a record with more fields than `width` (the header's) fails at its first extra
  /// field, before the rest of the record is read.
  package func limitFields(toHeaderWidth width: Int) {
    maximumFieldCount = min(max(1, width), Self.maximumFieldCountLimit)
    fieldCountIsHeaderWidth = true
  }

  /// The bytes of a held field, valid until the next `readRecord()` or `releaseRecords()`.
  @inline(__always)
  func fieldPointer(_ span: Span) -> UnsafeMutablePointer<UInt8> {
    buffer + span.start
  }

  /// Where held fields' `start` offsets count from, valid until the next `readRecord()` or
  /// `releaseRecords()`.
  var bufferBase: UnsafeMutablePointer<UInt8> { buffer }
}
