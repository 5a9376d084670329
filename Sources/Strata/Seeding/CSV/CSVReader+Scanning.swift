// Scanning records in the buffer: fields, quotes, line breaks and blank lines, with every
// error located by line and column.
extension CSVReader {
  func holdBlankRecord(line recordLine: Int) {
    heldList.append(Held(line: recordLine, firstField: spanList.count, fieldCount: 1))
    spanList.append(Span(start: position, count: 0, isQuoted: false, line: recordLine, column: 1))
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

  /// Parses one record starting at `position`. When the buffer ends before the record does,
  /// drops what it parsed and asks for more; the record is then parsed again from its start,
  /// so no state survives a refill.
  func scanRecord() throws -> Outcome {
    let position = self.position
    if position == dataEnd { return atEndOfInput ? .end : .needMore }
    let first = buffer[position]
    if first == CSVBytes.lineFeed || first == CSVBytes.carriageReturn {
      return scanBlankLines()
    }
    if blankRun > 0 {
      // The blank lines read before the last refill sit between records.
      let count = blankRun
      blankRun = 0
      return holdBlankRecords(count, from: blankRunLine)
    }
    // One access to the span list for the whole record: a class's stored property would cost
    // an exclusivity check at every field.
    return try scanFields(appendingTo: &spanList)
  }

  /// Parses the fields of the record starting at `position` (not a blank line) into `spans`.
  private func scanFields(appendingTo spans: inout GrowableList<Span>) throws -> Outcome {
    let p = buffer
    let end = dataEnd
    let eof = atEndOfInput
    var i = position
    let limit = maximumFieldBytes
    let fieldLimit = maximumFieldCount
    let delimiter = self.delimiter
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

    /// Steps over the UTF-8 sequence at `i` (a byte of 0x80 or more), counting its
    /// continuation bytes; false when the buffer ends inside it and more input may complete it.
    @inline(__always)
    func stepOverUTF8() throws -> Bool {
      let length = CSVBytes.utf8SequenceLength(p, at: i, end: end)
      if length == 0 {
        if i + 4 > end && !eof { return false }
        throw failure(.invalidUTF8, at: i)
      }
      i += length
      continuation += length - 1
      return true
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
      if i < end && p[i] == CSVBytes.quote {
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
          if byte == CSVBytes.quote {
            if i + 1 == end && !eof { return try needMore(at: i) }
            if i + 1 < end && p[i + 1] == CSVBytes.quote {
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
          } else if byte == CSVBytes.lineFeed {
            i += 1
            currentLine += 1
            lineStart = i
            continuation = 0
          } else if byte == CSVBytes.carriageReturn {
            if i + 1 == end && !eof { return try needMore(at: i) }
            i += 1
            if i < end && p[i] == CSVBytes.lineFeed { i += 1 }
            currentLine += 1
            lineStart = i
            continuation = 0
          } else if byte >= 0x80 {
            guard try stepOverUTF8() else { return try needMore(at: i) }
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
        if next == delimiter {
          i += 1
          continue fields
        }
        if next == CSVBytes.lineFeed || next == CSVBytes.carriageReturn { break fields }
        throw failure(.textAfterClosingQuote, at: i)
      } else {
        let fieldStart = i
        fieldBegin = i
        fieldIsQuoted = false
        while i < end {
          let byte = p[i]
          if byte == delimiter || byte == CSVBytes.lineFeed || byte == CSVBytes.carriageReturn {
            break
          }
          if byte < 0x80 {
            if byte == CSVBytes.quote {
              throw failure(.quoteInUnquotedField, at: i)
            }
            if byte == 0 {
              throw failure(.nulByte, at: i)
            }
            i += 1
          } else {
            guard try stepOverUTF8() else { return try needMore(at: i) }
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
        if p[i] == delimiter {
          i += 1
          continue fields
        }
        break fields
      }
    }
    // The record's line break, if any (the last record may lack one).
    if i < end {
      if p[i] == CSVBytes.lineFeed {
        i += 1
      } else {
        if i + 1 == end && !eof { return try needMore(at: i) }
        i += 1
        if i < end && p[i] == CSVBytes.lineFeed { i += 1 }
      }
      currentLine += 1
    }
    // Only now that the record is complete (it will not be parsed again) are its bytes changed.
    for index in firstSpan..<spans.count where spans.base[index].hasDoubledQuotes {
      let span = spans.base[index]
      spans.base[index].count = CSVBytes.undoubleQuotes(p + span.start, count: span.count)
      spans.base[index].hasDoubledQuotes = false
    }
    heldList.append(Held(line: line, firstField: firstSpan, fieldCount: spans.count - firstSpan))
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
      if byte == CSVBytes.lineFeed {
        i += 1
      } else if byte == CSVBytes.carriageReturn {
        if i + 1 == end && !atEndOfInput {
          cutShort = true
          break
        }
        i += 1
        if i < end && p[i] == CSVBytes.lineFeed { i += 1 }
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
}
