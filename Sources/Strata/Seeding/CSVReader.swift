import Foundation

/// One field of a record, as the file has it.
public struct CSVField: Hashable, Sendable {
  /// The field's bytes: quotes removed, doubled quotes undoubled, line breaks inside quotes
  /// kept byte for byte. Always valid UTF-8.
  public let bytes: [UInt8]
  /// Whether the field was quoted: a quoted `""` is the empty string, an unquoted empty
  /// field is NULL.
  public let isQuoted: Bool

  /// A field with its bytes, and whether it was quoted (which tells NULL from the empty string).
  public init(bytes: [UInt8], isQuoted: Bool) {
    self.bytes = bytes
    self.isQuoted = isQuoted
  }

  /// The field as text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// One record, with the physical line it starts on.
public struct CSVRecord: Hashable, Sendable {
  /// The physical line on which the record starts (1-based).
  public let line: Int
  /// The record's fields, in header order.
  public let fields: [CSVField]
}

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
public final class CSVReader {
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

  enum Source {
    case file(Int32)
    case memory([UInt8], offset: Int)
  }

  private enum Outcome {
    case record
    case needMore
    case end
  }

  private var source: Source
  private var buffer: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private let chunkSize: Int
  /// Valid bytes are `buffer[0 ..< dataEnd]`.
  private var dataEnd = 0
  /// The next byte to parse.
  private var position = 0
  /// Bytes before this offset may be dropped: no held record uses them.
  private var keepFrom = 0
  /// Where the last held record ends: bytes from here to `position` (blank lines already
  /// counted) are not needed either.
  private var heldEnd = 0
  /// The file offset of `buffer[0]`.
  private var bufferOffset: Int64 = 0
  private var atEndOfInput = false
  private var startChecked = false
  /// The physical line at `position`.
  private var line = 1
  /// Blank lines already consumed that sit between records (not at the end of the file).
  private var pendingBlankLines = 0
  private var pendingBlankLine = 0
  /// Blank lines consumed at the end of the buffer before more input says whether they are
  /// between records or at the end of the file, and the line of the first.
  private var blankRun = 0
  private var blankRunLine = 0
  /// Where the field being read when the buffer ran out starts, from its record's start.
  private var pendingFieldOffset = 0
  private let hasher: BackgroundHasher?
  /// The largest field, and the largest record, the reader accepts.
  public let maximumFieldBytes: Int
  /// The most fields a record may have: `maximumFieldCountLimit`, or the header's width once
  /// the seeder has read it (`limitFields(toHeaderWidth:)`). Each field costs the reader a
  /// fixed amount of memory however few bytes it has (a line of ten million commas is
  /// 10 MB of file but ten million fields), so the count is bounded as well as the bytes.
  public private(set) var maximumFieldCount = CSVReader.maximumFieldCountLimit
  /// Whether `maximumFieldCount` is a header's width (which names the error).
  private var fieldCountIsHeaderWidth = false

  /// The most fields any record may have: 32767, SQLite's hard maximum for the columns of a
  /// table (SQLITE_MAX_COLUMN cannot be compiled higher), so no row of a seed can be wider.
  public static let maximumFieldCountLimit = 32_767

  /// The default for `maximumFieldBytes`: 16 MiB, far above any real seed field, low enough
  /// that a file with a missing closing quote fails fast in a few tens of MiB of memory.
  public static let defaultMaximumFieldBytes = 16 << 20

  /// The fields of the records held since the last `releaseRecords()`. (Plain pointer lists,
  /// copied into locals on the hot path: a class's array property costs an exclusivity check
  /// on every access.)
  private(set) var spans = GrowableList<Span>()
  /// The records held since the last `releaseRecords()`.
  private(set) var held = GrowableList<Held>()

  /// The file's size in bytes, when reading a regular file (nil for a pipe or a terminal).
  public let totalBytes: Int64?

  /// Reads CSV from bytes in memory; `chunkSize` sets how much each refill takes (tests use
  /// tiny chunks to cross every boundary).
  public convenience init(
    bytes: [UInt8],
    chunkSize: Int = 1 << 20,
    computeChecksum: Bool = false,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes
  ) {
    self.init(
      source: .memory(bytes, offset: 0),
      chunkSize: chunkSize,
      totalBytes: Int64(bytes.count),
      computeChecksum: computeChecksum,
      maximumFieldBytes: maximumFieldBytes
    )
  }

  init(
    source: Source,
    chunkSize: Int,
    totalBytes: Int64?,
    computeChecksum: Bool,
    maximumFieldBytes: Int
  ) {
    self.source = source
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
    self.hasher = computeChecksum ? BackgroundHasher() : nil
  }

  deinit {
    buffer.deallocate()
    spans.deallocate()
    held.deallocate()
    if case .file(let descriptor) = source { close(descriptor) }
  }

  /// Bytes of the file consumed by the records read so far.
  public var bytesRead: Int64 { bufferOffset + Int64(position) }

  /// The SHA-256 (hex) of the whole file, once every record has been read; nil before, or
  /// when the reader was not asked to compute it.
  ///
  /// - Throws: `CSVError` when reading the rest of the input fails.
  public func checksum() throws -> String? {
    guard let hasher else { return nil }
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
  public func nextRecord() throws -> CSVRecord? {
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
  public func readAll() throws -> [CSVRecord] {
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
      while held.count < max(1, recordsPerBatch) {
        guard try readRecord() else {
          more = false
          break
        }
      }
      for index in 0..<held.count { records.append(copyOut(held[index])) }
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
    spans.removeAll()
    held.removeAll()
    keepFrom = position
    heldEnd = position
  }

  /// Memory held by the records not yet released: their bytes, and their fields' bookkeeping
  /// (a batch of many-field records must stop as soon as one of few-byte records does).
  var heldBytes: Int { position - keepFrom + spans.count * MemoryLayout<Span>.stride }

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

  // MARK: - Reading

  /// Reads the next chunk into the buffer, first moving held bytes (and the record in
  /// progress) to its front when that frees room, and growing it when a record is larger than
  /// the buffer, never beyond what a record within `maximumFieldBytes` can need.
  private func readChunk(compacting: Bool) throws {
    if atEndOfInput { return }
    let heldCount = heldEnd - keepFrom
    var pending = dataEnd - position
    let dead = keepFrom + (position - heldEnd)
    if compacting, dead > 0, heldCount + pending < capacity / 2 || dataEnd == capacity {
      if heldCount > 0, keepFrom > 0 {
        buffer.update(from: buffer + keepFrom, count: heldCount)
      }
      for index in 0..<spans.count { spans.base[index].start -= keepFrom }
      if pending > 0 { (buffer + heldCount).update(from: buffer + position, count: pending) }
      bufferOffset += Int64(position - heldCount)
      position = heldCount
      heldEnd = heldCount
      keepFrom = 0
      dataEnd = heldCount + pending
    }
    pending = dataEnd - position
    // A record is parsed again from its start after each refill, so a record larger than a
    // chunk reads at least as much again as it has pending: O(log n) passes, not O(n). It
    // fails once past the limit, so no more than twice the limit (the record before a field,
    // the field) is ever worth reading for it.
    let most = Self.largestPending(maximumFieldBytes: maximumFieldBytes)
    let useful = pending >= most ? 0 : most - pending
    let field = max(0, pending - pendingFieldOffset)
    let fieldUseful = field >= maximumFieldBytes ? 0 : maximumFieldBytes - field
    let wanted = max(chunkSize, min(pending, useful, fieldUseful))
    if capacity - dataEnd < wanted {
      let newCapacity = dataEnd + wanted
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      larger.update(from: buffer, count: dataEnd)
      buffer.deallocate()
      buffer = larger
      capacity = newCapacity
    }
    let room = min(capacity - dataEnd, wanted)
    let count: Int
    switch source {
    case .file(let descriptor):
      var result: Int
      repeat {
        result = read(descriptor, buffer + dataEnd, room)
      } while result < 0 && errno == EINTR
      guard result >= 0 else {
        throw CSVError(
          .readFailed,
          line: line,
          column: 1,
          detail: String(cString: strerror(errno))
        )
      }
      count = result
    case .memory(let bytes, let offset):
      count = min(room, bytes.count - offset)
      if count > 0 {
        bytes.withUnsafeBufferPointer { source in
          guard let base = source.baseAddress else { return }
          (buffer + dataEnd).update(from: base + offset, count: count)
        }
      }
      source = .memory(bytes, offset: offset + count)
    }
    if count == 0 {
      atEndOfInput = true
      return
    }
    hasher?.update(UnsafeBufferPointer(start: buffer + dataEnd, count: count))
    dataEnd += count
  }

  /// The most bytes of one record worth holding: a record within the limit before its last
  /// field, then that field up to the limit, plus a few bytes for the reads to show it passed.
  static func largestPending(maximumFieldBytes: Int) -> Int {
    maximumFieldBytes > Int.max / 2 - 8 ? Int.max : 2 * maximumFieldBytes + 8
  }

  /// Skips a UTF-8 byte order mark; refuses UTF-16.
  private func checkStart() throws {
    while dataEnd < 3 && !atEndOfInput { try readChunk(compacting: false) }
    startChecked = true
    if dataEnd >= 2,
      (buffer[0] == 0xFF && buffer[1] == 0xFE) || (buffer[0] == 0xFE && buffer[1] == 0xFF)
    {
      throw CSVError(.utf16, line: 1, column: 1)
    }
    if dataEnd >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
      position = 3
      keepFrom = 3
      heldEnd = 3
    }
  }

  private func holdBlankRecord(line recordLine: Int) {
    held.append(Held(line: recordLine, firstField: spans.count, fieldCount: 1))
    spans.append(Span(start: position, count: 0, isQuoted: false, line: recordLine, column: 1))
    heldEnd = position
  }

  /// Holds the first of `count` blank lines starting at `first` as a record; the rest follow
  /// from `readRecord()`.
  private func holdBlankRecords(_ count: Int, from first: Int) -> Outcome {
    holdBlankRecord(line: first)
    pendingBlankLines = count - 1
    pendingBlankLine = first + 1
    return .record
  }

  // MARK: - Parsing

  private static let comma: UInt8 = 0x2C
  private static let quote: UInt8 = 0x22
  private static let lineFeed: UInt8 = 0x0A
  private static let carriageReturn: UInt8 = 0x0D

  /// Parses one record starting at `position`. When the buffer ends before the record does,
  /// drops what it parsed and asks for more; the record is then parsed again from its start,
  /// so no state survives a refill.
  private func scanRecord() throws -> Outcome {
    let p = buffer
    let end = dataEnd
    let eof = atEndOfInput
    var i = position
    if i == end { return eof ? .end : .needMore }
    let first = p[i]
    if first == Self.lineFeed || first == Self.carriageReturn {
      return scanBlankLines()
    }
    if blankRun > 0 {
      // The blank lines read before the last refill sit between records.
      let count = blankRun
      blankRun = 0
      return holdBlankRecords(count, from: blankRunLine)
    }
    let limit = maximumFieldBytes
    let fieldLimit = maximumFieldCount
    var spans = self.spans
    defer { self.spans = spans }
    let firstSpan = spans.count
    var currentLine = line
    var lineStart = i
    // Continuation bytes since lineStart: columns count characters, not bytes.
    var continuation = 0
    // The field being read: where its bytes start, and where it starts in the file.
    var fieldBegin = i
    var fieldBeginLine = currentLine
    var fieldBeginColumn = 1
    var fieldIsQuoted = false

    /// Scanning stopped at `index` for want of input: a field past the limit fails here,
    /// before any more of it is read. (The record before it is within the limit, checked at
    /// each field's end, so at most twice the limit is ever held.)
    func needMore(at index: Int) throws -> Outcome {
      if index - fieldBegin > limit { throw fieldTooLarge(open: fieldIsQuoted) }
      pendingFieldOffset = fieldBegin - position
      spans.removeLast(spans.count - firstSpan)
      return .needMore
    }

    /// The current field is past the limit; `open`: it is quoted and did not close within it
    /// (whether it closes later depends on how much was read, so it is not looked for).
    func fieldTooLarge(open: Bool) -> CSVError {
      CSVError(
        open ? .quotedFieldTooLarge : .fieldTooLarge,
        line: fieldBeginLine,
        column: fieldBeginColumn,
        limit: limit
      )
    }

    /// A field has ended at `index`: the record so far must be within the limit.
    func checkRecord(endingAt index: Int) throws {
      if index - position > limit {
        throw CSVError(.recordTooLarge, line: line, column: 1, limit: limit)
      }
      fieldBegin = index
    }

    /// The error at byte `index` of the current line, its column counted in characters.
    func failure(_ problem: CSVError.Problem, at index: Int) -> CSVError {
      CSVError(problem, line: currentLine, column: index - lineStart - continuation + 1)
    }

    fields: while true {
      let column = i - lineStart - continuation + 1
      let fieldLine = currentLine
      if spans.count - firstSpan >= fieldLimit {
        // Fails at the first extra field: the rest of the record is never read or held.
        throw CSVError(
          fieldCountIsHeaderWidth ? .moreFieldsThanHeader : .tooManyFields,
          line: fieldLine,
          column: column,
          limit: fieldLimit
        )
      }
      fieldBeginLine = fieldLine
      fieldBeginColumn = column
      if i < end && p[i] == Self.quote {
        i += 1
        let contentStart = i
        fieldBegin = i
        fieldIsQuoted = true
        var escaped = false
        quoted: while true {
          if i == end {
            if eof {
              if i - contentStart > limit { throw fieldTooLarge(open: true) }
              throw CSVError(.unterminatedQuote, line: fieldLine, column: column)
            }
            return try needMore(at: i)
          }
          let byte = p[i]
          if byte == Self.quote {
            if i + 1 == end && !eof { return try needMore(at: i) }
            if i + 1 < end && p[i + 1] == Self.quote {
              escaped = true
              i += 2
              continue quoted
            }
            if i - contentStart > limit { throw fieldTooLarge(open: true) }
            spans.append(
              Span(
                start: contentStart,
                count: i - contentStart,
                isQuoted: true,
                hasDoubledQuotes: escaped,
                line: fieldLine,
                column: column
              )
            )
            i += 1
            try checkRecord(endingAt: i)
            break quoted
          } else if byte == Self.lineFeed {
            i += 1
            currentLine += 1
            lineStart = i
            continuation = 0
          } else if byte == Self.carriageReturn {
            if i + 1 == end && !eof { return try needMore(at: i) }
            i += 1
            if i < end && p[i] == Self.lineFeed { i += 1 }
            currentLine += 1
            lineStart = i
            continuation = 0
          } else if byte >= 0x80 {
            let length = Self.utf8SequenceLength(p, at: i, end: end)
            if length == 0 {
              if i + 4 > end && !eof { return try needMore(at: i) }
              throw failure(.invalidUTF8, at: i)
            }
            i += length
            continuation += length - 1
          } else {
            if byte == 0 {
              throw failure(.nulByte, at: i)
            }
            i += 1
          }
        }
        if i == end {
          if eof { break fields }
          return try needMore(at: i)
        }
        let next = p[i]
        if next == Self.comma {
          i += 1
          continue fields
        }
        if next == Self.lineFeed || next == Self.carriageReturn { break fields }
        throw failure(.textAfterClosingQuote, at: i)
      } else {
        let fieldStart = i
        fieldBegin = i
        fieldIsQuoted = false
        while i < end {
          let byte = p[i]
          if byte == Self.comma || byte == Self.lineFeed || byte == Self.carriageReturn { break }
          if byte < 0x80 {
            if byte == Self.quote {
              throw failure(.quoteInUnquotedField, at: i)
            }
            if byte == 0 {
              throw failure(.nulByte, at: i)
            }
            i += 1
          } else {
            let length = Self.utf8SequenceLength(p, at: i, end: end)
            if length == 0 {
              if i + 4 > end && !eof { return try needMore(at: i) }
              throw failure(.invalidUTF8, at: i)
            }
            i += length
            continuation += length - 1
          }
        }
        if i == end && !eof { return try needMore(at: i) }
        if i - fieldStart > limit { throw fieldTooLarge(open: false) }
        spans.append(
          Span(
            start: fieldStart,
            count: i - fieldStart,
            isQuoted: false,
            line: fieldLine,
            column: column
          )
        )
        try checkRecord(endingAt: i)
        if i == end { break fields }
        if p[i] == Self.comma {
          i += 1
          continue fields
        }
        break fields
      }
    }
    // The record's line break, if any (the last record may lack one).
    if i < end {
      if p[i] == Self.lineFeed {
        i += 1
      } else {
        if i + 1 == end && !eof { return try needMore(at: i) }
        i += 1
        if i < end && p[i] == Self.lineFeed { i += 1 }
      }
      currentLine += 1
    }
    // Only now that the record is complete (it will not be parsed again) are its bytes changed.
    for index in firstSpan..<spans.count where spans.base[index].hasDoubledQuotes {
      let span = spans.base[index]
      spans.base[index].count = Self.undoubleQuotes(p + span.start, count: span.count)
      spans.base[index].hasDoubledQuotes = false
    }
    held.append(Held(line: line, firstField: firstSpan, fieldCount: spans.count - firstSpan))
    position = i
    heldEnd = i
    line = currentLine
    return .record
  }

  /// At a line break where a record should start: a run of blank lines. At the end of the
  /// file they are ignored; between records each is a record of one empty field. The lines
  /// before the end of the buffer are consumed and counted, so a long run needs no memory.
  private func scanBlankLines() -> Outcome {
    let p = buffer
    let end = dataEnd
    var i = position
    var count = 0
    var cutShort = false
    while i < end {
      let byte = p[i]
      if byte == Self.lineFeed {
        i += 1
      } else if byte == Self.carriageReturn {
        if i + 1 == end && !atEndOfInput {
          cutShort = true
          break
        }
        i += 1
        if i < end && p[i] == Self.lineFeed { i += 1 }
      } else {
        break
      }
      count += 1
    }
    if blankRun == 0 { blankRunLine = line }
    blankRun += count
    position = i
    line += count
    if cutShort || i == end {
      if !atEndOfInput || cutShort { return .needMore }
      blankRun = 0
      return .end
    }
    let total = blankRun
    blankRun = 0
    return holdBlankRecords(total, from: blankRunLine)
  }

  /// Rewrites `""` as `"` in place; returns the new length.
  private static func undoubleQuotes(_ start: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
    var read = 0
    var write = 0
    while read < count {
      let byte = start[read]
      start[write] = byte
      write += 1
      read += byte == quote ? 2 : 1
    }
    return write
  }

  /// The length of the valid UTF-8 sequence at `i` (2…4), or 0 when it is invalid or cut
  /// short by `end`. Rejects overlong forms, surrogates and code points above U+10FFFF.
  @inline(__always)
  private static func utf8SequenceLength(
    _ p: UnsafeMutablePointer<UInt8>,
    at i: Int,
    end: Int
  ) -> Int {
    let lead = p[i]
    func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      i + offset < end && p[i + offset] >= low && p[i + offset] <= high
    }
    switch lead {
    case 0xC2...0xDF:
      return continuation(1) ? 2 : 0
    case 0xE0:
      return continuation(1, 0xA0) && continuation(2) ? 3 : 0
    case 0xED:
      return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
    case 0xE1...0xEF:
      return continuation(1) && continuation(2) ? 3 : 0
    case 0xF0:
      return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF1...0xF3:
      return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF4:
      return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
    default:
      return 0
    }
  }
}
