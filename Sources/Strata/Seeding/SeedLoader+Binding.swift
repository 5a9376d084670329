import Foundation

// Binding the reader's fields to a statement's parameters by each column's conversion.
extension SeedLoader {
  /// Binds every field of held record `row` to consecutive parameters.
  @inline(__always)
  func bindRecord(_ row: Int, to statement: some SQLStatement, firstIndex: Int32) throws {
    // Locals: reading a class's properties in the loop would cost an exclusivity check each.
    let spans = reader.spans
    let base = reader.bufferBase
    let conversions = self.conversions
    let first = reader.held[row].firstField
    var index = firstIndex
    do {
      for field in 0..<conversions.count {
        try bind(
          spans[first + field],
          field,
          conversions[field],
          base,
          to: statement,
          at: index,
          countsNulls: true
        )
        index += 1
      }
    } catch let error as SQLiteError {
      throw refused(error)
    }
  }

  /// Binds field `field` of held record `row` (error paths and keys).
  func bind(_ field: Int, ofRow row: Int, to statement: some SQLStatement, at index: Int32) throws {
    let span = reader.spans[reader.held[row].firstField + field]
    do {
      try bind(span, field, conversions[field], reader.bufferBase, to: statement, at: index)
    } catch let error as SQLiteError {
      throw refused(error)
    }
  }

  /// A value SQLite refuses to bind (too large) fails the run naming the file.
  private func refused(_ error: SQLiteError) -> SeedError {
    SeedError.database(file: file.displayPath, error: error)
  }

  /// Binds one field by its column's conversion: TEXT straight from the buffer, numbers parsed
  /// from the bytes; an unquoted null token is NULL (counted for the report when
  /// `countsNulls`, which only the rows' own binding sets). Throws `SeedError` for a value that
  /// does not convert, `SQLiteError` for one SQLite refuses.
  @inline(__always)
  private func bind(
    _ span: CSVReader.Span,
    _ field: Int,
    _ conversion: SeedConversion,
    _ base: UnsafeMutablePointer<UInt8>,
    to statement: some SQLStatement,
    at index: Int32,
    countsNulls: Bool = false
  ) throws {
    if span.count == 0 && !span.isQuoted {
      return try statement.bindNull(at: index)
    }
    let p = UnsafePointer(base + span.start)
    if !nullTokens.isEmpty, !span.isQuoted, let token = nullToken(p, span.count) {
      if countsNulls { nullCounts[field][token] += 1 }
      return try statement.bindNull(at: index)
    }
    switch conversion {
    case .text, .asWritten:
      try statement.bindTextNoCopy(p, count: span.count, at: index)
    case .integer:
      switch ValueParsing.integer(p, span.count) {
      case .integer(let value): try statement.bindInt64(value, at: index)
      case .invalid(let problem): throw invalid(span, field, problem)
      case .real, .text: throw invalid(span, field, .notInteger)
      }
    case .real:
      switch ValueParsing.real(p, span.count) {
      case .real(let value): try statement.bindDouble(value, at: index)
      case .integer(let value): try statement.bindDouble(Double(value), at: index)
      case .invalid(let problem): throw invalid(span, field, problem)
      case .text: throw invalid(span, field, .notNumber)
      }
    case .boolean:
      guard let value = ValueParsing.boolean(p, span.count) else {
        throw invalid(span, field, .notBoolean)
      }
      try statement.bindInt64(value, at: index)
    case .numeric:
      switch ValueParsing.numeric(p, span.count) {
      case .integer(let value): try statement.bindInt64(value, at: index)
      case .real(let value): try statement.bindDouble(value, at: index)
      case .text: try statement.bindTextNoCopy(p, count: span.count, at: index)
      case .invalid(let problem): throw invalid(span, field, problem)
      }
    case .hexBlob:
      if hexScratch.count < span.count / 2 + 1 {
        hexScratch = Array(repeating: 0, count: span.count / 2 + 1)
      }
      let written = hexScratch.withUnsafeMutableBufferPointer { output in
        output.baseAddress.flatMap { ValueParsing.hexBytes(p, span.count, into: $0) }
      }
      guard let written else { throw invalid(span, field, .notHexadecimal) }
      try hexScratch.withUnsafeBytes { bytes in
        try statement.bindBlobCopy(UnsafeRawBufferPointer(rebasing: bytes[0..<written]), at: index)
      }
    }
  }

  /// Whether the field loads as NULL: unquoted and empty, or unquoted and a null token.
  func isNull(_ span: CSVReader.Span) -> Bool {
    guard !span.isQuoted else { return false }
    return span.count == 0
      || (!nullTokens.isEmpty
        && nullToken(UnsafePointer(reader.bufferBase + span.start), span.count) != nil)
  }

  /// The index of the null token the field's bytes equal, if any.
  @inline(__always)
  private func nullToken(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    nullTokens.firstIndex { token in
      token.count == count && token.elementsEqual(UnsafeBufferPointer(start: p, count: count))
    }
  }

  private func invalid(
    _ span: CSVReader.Span,
    _ field: Int,
    _ problem: SeedValueProblem
  ) -> SeedError {
    let column = table.columns[fieldColumns[field]]
    let type =
      column.declaredType.isEmpty ? column.conversion.typeName : column.declaredType.uppercased()
    if !span.isQuoted,
      let token = SeedMissingValue.commonToken(
        UnsafeBufferPointer(start: reader.bufferBase + span.start, count: span.count)
      )
    {
      return SeedError.missingValueToken(
        file: file.displayPath,
        line: span.line,
        column: span.column,
        name: column.name,
        type: type,
        problem: problem,
        token: token
      )
    }
    return SeedError.invalidValue(
      file: file.displayPath,
      line: span.line,
      column: span.column,
      name: column.name,
      type: type,
      problem: problem
    )
  }
}
