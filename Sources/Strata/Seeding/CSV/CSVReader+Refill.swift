import Foundation

// Filling the reader's buffer: the first bytes (a byte order mark), then chunk after chunk,
// compacting and growing the buffer within what the size limit can need.
extension CSVReader {
  /// Reads the next chunk into the buffer, first moving held bytes (and the record in
  /// progress) to its front when that frees room, and growing it when a record is larger than
  /// the buffer, never beyond what a record within `maximumFieldBytes` can need.
  func readChunk(compacting: Bool) throws {
    if atEndOfInput { return }
    let heldCount = heldEnd - keepFrom
    var pending = dataEnd - position
    let dead = keepFrom + (position - heldEnd)
    if compacting, dead > 0, heldCount + pending < capacity / 2 || dataEnd == capacity {
      if heldCount > 0, keepFrom > 0 {
        buffer.update(from: buffer + keepFrom, count: heldCount)
      }
      for index in 0..<spanList.count { spanList.base[index].start -= keepFrom }
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
    do {
      count = try input.read(into: buffer + dataEnd, room: room)
    } catch let failure as CSVInputFailure {
      throw locate(failure)
    } catch let error as CSVError where error.problem == .readFailed {
      throw CSVError(.readFailed, line: line, column: 1, detail: error.detail)
    }
    if count == 0 {
      atEndOfInput = true
      return
    }
    dataEnd += count
  }

  /// A stage's failure, at the line and column just past the text delivered before it:
  /// `position` starts a line (a record starts there), and the line breaks from there to
  /// `dataEnd` are counted only now, so the reading pays nothing for it.
  func locate(_ failure: CSVInputFailure) -> CSVError {
    var failureLine = line
    var column = 1
    var index = position
    while index < dataEnd {
      let byte = buffer[index]
      if byte == CSVBytes.lineFeed
        || (byte == CSVBytes.carriageReturn
          && (index + 1 == dataEnd || buffer[index + 1] != CSVBytes.lineFeed))
      {
        failureLine += 1
        column = 1
      } else if byte & 0xC0 != 0x80 && byte != CSVBytes.carriageReturn {
        column += 1
      }
      index += 1
    }
    return CSVError(failure.problem, line: failureLine, column: column, detail: failure.detail)
  }

  /// The most bytes of one record worth holding: a record within the limit before its last
  /// field, then that field up to the limit, plus a few bytes for the reads to show it passed.
  static func largestPending(maximumFieldBytes: Int) -> Int {
    maximumFieldBytes > Int.max / 2 - 8 ? Int.max : 2 * maximumFieldBytes + 8
  }

  /// Puts the stages the file needs between it and the buffer: gzip inflation when it starts
  /// with gzip's magic bytes (refused when only its name says gzip), then the conversion of
  /// an encoding other than UTF-8.
  func setUpInput() throws {
    let start = try raw.peek(GzipInput.magic.count)
    if start == GzipInput.magic {
      input = try GzipInput(upstream: raw)
    } else if namedCompressed {
      throw CSVError(
        .corruptCompressedData,
        line: 1,
        column: 1,
        detail: "the file's name ends in .gz, but it does not start with gzip's magic bytes "
          + "(1F 8B)"
      )
    }
    if encoding != .utf8 { input = EncodingInput(upstream: input, encoding: encoding) }
  }

  /// Skips a UTF-8 byte order mark; refuses UTF-16.
  func checkStart() throws {
    try setUpInput()
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
}
