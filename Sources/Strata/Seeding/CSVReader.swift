import Foundation

/// One field of a record, as the file has it.
public struct CSVField: Hashable, Sendable {
  /// The field's bytes: quotes removed, doubled quotes undoubled, line breaks inside quotes
  /// kept byte for byte. Always valid UTF-8.
  public let bytes: [UInt8]
  /// Whether the field was quoted: a quoted `""` is the empty string, an unquoted empty
  /// field is NULL.
  public let isQuoted: Bool

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
  public let fields: [CSVField]
}

/// A strict, streaming RFC 4180 reader: bytes in, fields out.
///
/// Reads the file in chunks into one buffer and parses fields in place, so memory stays flat
/// whatever the file's size (it holds the records not yet released, plus one chunk).
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

  private enum Source {
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
  /// The file offset of `buffer[0]`.
  private var bufferOffset: Int64 = 0
  private var atEndOfInput = false
  private var startChecked = false
  /// The physical line at `position`.
  private var line = 1
  /// Blank lines already consumed that sit between records (not at the end of the file).
  private var pendingBlankLines = 0
  private var pendingBlankLine = 0
  private let hasher: BackgroundHasher?

  /// The fields of the records held since the last `releaseRecords()`. (Plain pointer lists,
  /// copied into locals on the hot path: a class's array property costs an exclusivity check
  /// on every access.)
  private(set) var spans = GrowableList<Span>()
  /// The records held since the last `releaseRecords()`.
  private(set) var held = GrowableList<Held>()

  /// The file's size in bytes, when reading a file.
  public let totalBytes: Int64?

  /// Opens a file for reading.
  ///
  /// - Parameters:
  ///   - computeChecksum: also compute the SHA-256 of the bytes read (see `checksum`).
  public convenience init(
    url: URL,
    chunkSize: Int = 1 << 20,
    computeChecksum: Bool = false
  )
    throws
  {
    let descriptor = open(url.path, O_RDONLY)
    guard descriptor >= 0 else {
      throw CSVError(.readFailed, line: 1, column: 1, detail: String(cString: strerror(errno)))
    }
    var info = stat()
    let size: Int64? = fstat(descriptor, &info) == 0 ? Int64(info.st_size) : nil
    if size != nil, (info.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw CSVError(.readFailed, line: 1, column: 1, detail: "it is a directory")
    }
    self.init(
      source: .file(descriptor),
      chunkSize: chunkSize,
      totalBytes: size,
      computeChecksum: computeChecksum
    )
  }

  /// Reads CSV from bytes in memory; `chunkSize` sets how much each refill takes (tests use
  /// tiny chunks to cross every boundary).
  public convenience init(bytes: [UInt8], chunkSize: Int = 1 << 20, computeChecksum: Bool = false) {
    self.init(
      source: .memory(bytes, offset: 0),
      chunkSize: chunkSize,
      totalBytes: Int64(bytes.count),
      computeChecksum: computeChecksum
    )
  }

  private init(source: Source, chunkSize: Int, totalBytes: Int64?, computeChecksum: Bool) {
    self.source = source
    self.chunkSize = max(1, chunkSize)
    self.capacity = max(64, self.chunkSize)
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
  public func checksum() throws -> String? {
    guard let hasher else { return nil }
    while !atEndOfInput {
      // Whatever is left is only hashed, never parsed.
      releaseRecords()
      position = dataEnd
      keepFrom = dataEnd
      try readChunk(compacting: true)
    }
    return hasher.finalizeHex()
  }

  // MARK: - Convenience API

  /// The next record with its fields copied out, or nil at the end of the file.
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
  }

  /// Bytes held by the records not yet released.
  var heldBytes: Int { position - keepFrom }

  /// The bytes of a held field, valid until the next `readRecord()` or `releaseRecords()`.
  @inline(__always)
  func fieldPointer(_ span: Span) -> UnsafeMutablePointer<UInt8> {
    buffer + span.start
  }

  /// Where held fields' `start` offsets count from, valid until the next `readRecord()` or
  /// `releaseRecords()`.
  var bufferBase: UnsafeMutablePointer<UInt8> { buffer }

  // MARK: - Reading

  /// Reads the next chunk into the buffer, first moving held bytes to its front when that
  /// frees room, and growing it when a record is larger than the buffer.
  private func readChunk(compacting: Bool) throws {
    if atEndOfInput { return }
    if compacting, keepFrom > 0, dataEnd - keepFrom < capacity / 2 || dataEnd == capacity {
      let shift = keepFrom
      let kept = dataEnd - keepFrom
      if kept > 0 { (buffer).update(from: buffer + shift, count: kept) }
      for index in 0..<spans.count { spans.base[index].start -= shift }
      dataEnd = kept
      position -= shift
      keepFrom = 0
      bufferOffset += Int64(shift)
    }
    // A record is parsed again from its start after each refill, so a record larger than a
    // chunk reads at least as much again as it has pending: O(log n) passes, not O(n).
    let pending = dataEnd - position
    if dataEnd == capacity || (pending > chunkSize && capacity - dataEnd < pending) {
      let newCapacity = max(capacity * 2, dataEnd + pending)
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      larger.update(from: buffer, count: dataEnd)
      buffer.deallocate()
      buffer = larger
      capacity = newCapacity
    }
    let room = min(capacity - dataEnd, max(chunkSize, pending))
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
    }
  }

  private func holdBlankRecord(line recordLine: Int) {
    held.append(Held(line: recordLine, firstField: spans.count, fieldCount: 1))
    spans.append(Span(start: position, count: 0, isQuoted: false, line: recordLine, column: 1))
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
    var spans = self.spans
    defer { self.spans = spans }
    let firstSpan = spans.count
    var currentLine = line
    var lineStart = i
    // Continuation bytes since lineStart: columns count characters, not bytes.
    var continuation = 0

    func needMore() -> Outcome {
      spans.removeLast(spans.count - firstSpan)
      return .needMore
    }

    /// The error at byte `index` of the current line, its column counted in characters.
    func failure(_ problem: CSVError.Problem, at index: Int) -> CSVError {
      CSVError(problem, line: currentLine, column: index - lineStart - continuation + 1)
    }

    fields: while true {
      let column = i - lineStart - continuation + 1
      let fieldLine = currentLine
      if i < end && p[i] == Self.quote {
        i += 1
        let contentStart = i
        var escaped = false
        quoted: while true {
          if i == end {
            if eof {
              throw CSVError(.unterminatedQuote, line: fieldLine, column: column)
            }
            return needMore()
          }
          let byte = p[i]
          if byte == Self.quote {
            if i + 1 == end && !eof { return needMore() }
            if i + 1 < end && p[i + 1] == Self.quote {
              escaped = true
              i += 2
              continue quoted
            }
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
            break quoted
          } else if byte == Self.lineFeed {
            i += 1
            currentLine += 1
            lineStart = i
            continuation = 0
          } else if byte == Self.carriageReturn {
            if i + 1 == end && !eof { return needMore() }
            i += 1
            if i < end && p[i] == Self.lineFeed { i += 1 }
            currentLine += 1
            lineStart = i
            continuation = 0
          } else if byte >= 0x80 {
            let length = Self.utf8SequenceLength(p, at: i, end: end)
            if length == 0 {
              if i + 4 > end && !eof { return needMore() }
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
          return needMore()
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
              if i + 4 > end && !eof { return needMore() }
              throw failure(.invalidUTF8, at: i)
            }
            i += length
            continuation += length - 1
          }
        }
        if i == end && !eof { return needMore() }
        spans.append(
          Span(
            start: fieldStart,
            count: i - fieldStart,
            isQuoted: false,
            line: fieldLine,
            column: column
          )
        )
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
        if i + 1 == end && !eof { return needMore() }
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
    line = currentLine
    return .record
  }

  /// At a line break where a record should start: a run of blank lines. At the end of the
  /// file they are ignored; between records each is a record of one empty field.
  private func scanBlankLines() -> Outcome {
    let p = buffer
    let end = dataEnd
    var i = position
    var count = 0
    while i < end {
      let byte = p[i]
      if byte == Self.lineFeed {
        i += 1
      } else if byte == Self.carriageReturn {
        if i + 1 == end && !atEndOfInput { return .needMore }
        i += 1
        if i < end && p[i] == Self.lineFeed { i += 1 }
      } else {
        break
      }
      count += 1
    }
    if i == end {
      if !atEndOfInput { return .needMore }
      position = i
      line += count
      return .end
    }
    let first = line
    position = i
    line += count
    holdBlankRecord(line: first)
    pendingBlankLines = count - 1
    pendingBlankLine = first + 1
    return .record
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

/// A list in manually managed memory, for plain values (no deinitialisation needed). Copies
/// share the memory: the owner deallocates it once.
struct GrowableList<Element> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 256) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  @inline(__always)
  subscript(index: Int) -> Element { base[index] }

  mutating func removeLast(_ n: Int) { count -= n }

  mutating func removeAll() { count = 0 }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }

  func deallocate() { base.deallocate() }
}

/// Hashes the file's chunks on a background queue while the load goes on (SHA-256 would
/// otherwise cost the load about a tenth of its time). At most four chunks wait at once.
final class BackgroundHasher: @unchecked Sendable {
  // @unchecked: `hasher` is only touched on `queue`, a serial queue.
  private let queue = DispatchQueue(label: "strata.seed.checksum")
  private var hasher = SHA256()
  private let slots = DispatchSemaphore(value: 4)

  func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    let copy = Array(bytes)
    slots.wait()
    queue.async {
      self.hasher.update(copy)
      self.slots.signal()
    }
  }

  /// Waits for the queued chunks, then returns the digest as hex.
  func finalizeHex() -> String {
    queue.sync { hasher.finalizeHex() }
  }
}
