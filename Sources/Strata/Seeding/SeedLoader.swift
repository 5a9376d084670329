import Foundation

/// Loads one CSV file into its table, inside the seed run's transaction.
///
/// Rows go in by multi-row prepared INSERTs; each field is bound straight from the reader's
/// buffer (TEXT without a copy, numbers parsed from the bytes), so no `String` is made per
/// field. When a statement fails on a constraint, its rows are replayed one by one to name the
/// line that failed.
final class SeedLoader {
  struct Counts {
    var rowsRead = 0
    var inserted = 0
    var updated = 0
    var deleted = 0
  }

  let file: SeedFile
  let table: Seeder.Table
  let mode: SeedMode
  private let connection: Connection
  private let reader: CSVReader
  /// For each CSV field, the index of the table column it fills.
  private(set) var fieldColumns: [Int] = []
  private var conversions: [SeedConversion] = []
  /// The key used to find existing rows (`missing`, `upsert`), and its fields.
  private(set) var key: Seeder.Key?
  private var keyFields: [Int] = []
  private var keyTable: String?
  private var statements: [Int: Statement] = [:]
  private var keyStatements: [Int: Statement] = [:]
  private var hexScratch: [UInt8] = []
  private let rowsPerStatement: Int

  /// At most this many bytes of CSV are held for one statement.
  private static let maximumHeldBytes = 1 << 20

  /// Opens the file and checks its header against the table: every header column must be a
  /// column of the table, once; every NOT NULL column without a default must be there; for
  /// `missing` and `upsert` the header must hold a key.
  init(
    file: SeedFile,
    table: Seeder.Table,
    mode: SeedMode,
    connection: Connection,
    computeChecksum: Bool = false,
    chunkSize: Int = 1 << 20,
    rowsPerStatement: Int = 64,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes
  ) throws {
    self.rowsPerStatement = rowsPerStatement
    self.file = file
    self.table = table
    self.mode = mode
    self.connection = connection
    guard file.isStandardInput || FileManager.default.fileExists(atPath: file.url.path) else {
      throw SeedError.fileNotFound(file: file.displayPath)
    }
    do {
      reader =
        file.isStandardInput
        ? try CSVReader(
          standardInputWithChunkSize: chunkSize,
          computeChecksum: computeChecksum,
          maximumFieldBytes: maximumFieldBytes
        )
        : try CSVReader(
          url: file.url,
          chunkSize: chunkSize,
          computeChecksum: computeChecksum,
          maximumFieldBytes: maximumFieldBytes
        )
      try readHeader()
    } catch let error as CSVError {
      throw SeedError.malformed(file: file.displayPath, error)
    }
  }

  private func readHeader() throws {
    guard try reader.readRecord() else {
      throw SeedError.emptyFile(file: file.displayPath)
    }
    let header = reader.held[0]
    var seen: [Int: Int] = [:]
    for position in 0..<header.fieldCount {
      let span = reader.spans[header.firstField + position]
      let name = String(
        decoding: UnsafeBufferPointer(start: reader.fieldPointer(span), count: span.count),
        as: UTF8.self
      )
      guard !name.isEmpty else {
        throw SeedError.emptyHeaderName(
          file: file.displayPath,
          line: span.line,
          column: span.column,
          position: position + 1
        )
      }
      guard let index = table.columnIndex(named: name) else {
        throw SeedError.unknownColumn(
          file: file.displayPath,
          line: span.line,
          column: span.column,
          name: name,
          table: table.name,
          columns: table.columns.filter { !$0.isGenerated }.map(\.name)
        )
      }
      if table.columns[index].isGenerated {
        throw SeedError.generatedColumn(
          file: file.displayPath,
          line: span.line,
          column: span.column,
          name: table.columns[index].name,
          table: table.name
        )
      }
      if let first = seen[index] {
        throw SeedError.duplicateColumn(
          file: file.displayPath,
          line: span.line,
          column: span.column,
          name: name,
          firstPosition: first + 1
        )
      }
      seen[index] = position
      fieldColumns.append(index)
      conversions.append(table.columns[index].conversion)
    }
    reader.releaseRecords()
    reader.limitFields(toHeaderWidth: fieldColumns.count)
    let missing = table.columns.indices.filter {
      table.columns[$0].isRequired && seen[$0] == nil
    }
    if !missing.isEmpty {
      throw SeedError.missingRequiredColumns(
        file: file.displayPath,
        table: table.name,
        columns: missing.map { table.columns[$0].name }
      )
    }
    if mode == .missing || mode == .upsert {
      let fieldOf = Dictionary(
        uniqueKeysWithValues: seen.map { (table.columns[$0.key].name, $0.value) }
      )
      guard
        let chosen = table.keys.first(where: { key in
          key.columns.allSatisfy { fieldOf[$0] != nil }
        })
      else {
        throw SeedError.noKey(
          file: file.displayPath,
          table: table.name,
          mode: mode,
          uniqueKeys: table.keys.map(\.columns)
        )
      }
      key = chosen
      keyFields = chosen.columns.compactMap { fieldOf[$0] }
    }
  }

  /// The file's size, when it is a regular file.
  var totalBytes: Int64? { reader.totalBytes }

  /// Bytes of the file read so far.
  var bytesRead: Int64 { reader.bytesRead }

  /// The checksum of the whole file, once loaded.
  func checksum() throws -> String {
    do {
      return try reader.checksum() ?? ""
    } catch let error as CSVError {
      throw SeedError.malformed(file: file.displayPath, error)
    }
  }

  // MARK: - Loading

  /// Loads every row. Throws a `SeedError` naming the line on the first problem; the caller
  /// rolls the transaction back.
  func load(progress: (Int, Int64) -> Void) throws -> Counts {
    do {
      return try loadRows(progress: progress)
    } catch let error as CSVError {
      throw SeedError.malformed(file: file.displayPath, error)
    } catch let error as SQLiteError {
      throw SeedError.database(file: file.displayPath, error: error)
    }
  }

  private func loadRows(progress: (Int, Int64) -> Void) throws -> Counts {
    var counts = Counts()
    let quotedTable = "main." + quoteIdentifier(table.name)
    if mode == .replace {
      do {
        try connection.execute("DELETE FROM \(quotedTable)")
      } catch let error as SQLiteError {
        throw SeedError.replaceFailed(file: file.displayPath, table: table.name, error: error)
      }
      counts.deleted = connection.changes
    }
    if let key { try createKeyTable(key) }
    defer { dropKeyTable() }
    let before = mode == .upsert ? try rowCount() : 0
    let width = fieldColumns.count
    let limit = connection.maximumVariableNumber
    let rowsPerStatement = max(1, min(limit / width, rowsPerStatement))
    var changes = 0
    var reported = 0
    while true {
      reader.releaseRecords()
      var count = 0
      while count < rowsPerStatement, reader.heldBytes < Self.maximumHeldBytes,
        try reader.readRecord()
      {
        let record = reader.held[count]
        if record.fieldCount != width {
          throw SeedError.fieldCount(
            file: file.displayPath,
            line: record.line,
            expected: width,
            found: record.fieldCount
          )
        }
        count += 1
      }
      if count == 0 { break }
      if key != nil { try insertKeys(count) }
      changes += try insertRows(count)
      counts.rowsRead += count
      if counts.rowsRead - reported >= 1 << 16 {
        reported = counts.rowsRead
        progress(counts.rowsRead, reader.bytesRead)
      }
    }
    reader.releaseRecords()
    switch mode {
    case .upsert:
      counts.inserted = try rowCount() - before
      counts.updated = changes - counts.inserted
    case .missing, .append, .replace:
      counts.inserted = changes
    }
    progress(counts.rowsRead, reader.bytesRead)
    return counts
  }

  private func rowCount() throws -> Int {
    Int(
      try connection.scalar("SELECT count(*) FROM main.\(quoteIdentifier(table.name))")?
        .integerValue ?? 0
    )
  }

  // MARK: - Statements

  /// Every INSERT names its conflict resolution (`OR FAIL` or `OR ABORT`): a statement's own
  /// algorithm overrides the one the schema declares (`UNIQUE ON CONFLICT REPLACE` would delete
  /// an existing row that collides on a constraint other than the key, `IGNORE` would skip a row
  /// silently, `ROLLBACK` would end the run's (or the caller's) transaction, and
  /// `NOT NULL ON CONFLICT REPLACE` would store the default for a NULL). The `ON CONFLICT (key)`
  /// of `missing` and `upsert` still applies to its key alone, and the `DO UPDATE` of an upsert
  /// always resolves with `ABORT`.
  ///
  /// `append` and `replace` insert with `OR FAIL`: a failing row stops the statement and keeps
  /// the rows before it, so SQLite needs no statement journal (with `ABORT`, every multi-row
  /// INSERT journals each page it touches to undo itself), and `changes()` then counts the rows
  /// before the failing one. The run's transaction is rolled back on any failure anyway.
  /// `missing` and `upsert` skip or update rows on their key, so the count does not locate the
  /// failure: they use `ABORT` and replay the rows one at a time.
  private var stopsAtFailure: Bool { mode == .append || mode == .replace }

  private func insertStatement(rows: Int) throws -> Statement {
    if let statement = statements[rows] { return statement }
    if statements.count > 8 { statements.removeAll() }
    let columns = fieldColumns.map { quoteIdentifier(table.columns[$0].name) }
    let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
    var sql =
      "INSERT \(stopsAtFailure ? "OR FAIL" : "OR ABORT") INTO main.\(quoteIdentifier(table.name)) "
      + "(\(columns.joined(separator: ", "))) "
      + "VALUES " + Array(repeating: tuple, count: rows).joined(separator: ",")
    if let key {
      let target = zip(key.columns, key.collations).map { column, collation in
        quoteIdentifier(column) + (collation.map { " COLLATE \(quoteIdentifier($0))" } ?? "")
      }.joined(separator: ", ")
      let keyNames = Set(key.columns.map(Seeder.folded))
      let others = columns.indices.filter {
        !keyNames.contains(Seeder.folded(table.columns[fieldColumns[$0]].name))
      }.map { columns[$0] }
      if mode == .upsert, !others.isEmpty {
        let target2 = quoteIdentifier(table.name)
        sql +=
          " ON CONFLICT (\(target)) DO UPDATE SET "
          + others.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
          + " WHERE "
          + others.map { "\(target2).\($0) IS NOT excluded.\($0) COLLATE BINARY" }
          .joined(separator: " OR ")
      } else {
        sql += " ON CONFLICT (\(target)) DO NOTHING"
      }
    }
    let statement = try connection.prepare(sql)
    statements[rows] = statement
    return statement
  }

  /// Inserts `count` held records; returns the rows changed.
  private func insertRows(_ count: Int) throws -> Int {
    let statement = try insertStatement(rows: count)
    for row in 0..<count {
      try bindRecord(row, to: statement, firstIndex: Int32(row * fieldColumns.count + 1))
    }
    let rc = statement.stepToEnd()
    guard rc == Statement.doneCode else {
      let error = connection.error(code: rc, sql: statement.sql)
      let before = connection.changes
      statement.reset()
      throw try located(error, rows: count, rowsBeforeFailure: stopsAtFailure ? before : nil)
    }
    statement.reset()
    return connection.changes
  }

  /// Binds every field of held record `row` to consecutive parameters.
  @inline(__always)
  private func bindRecord(_ row: Int, to statement: Statement, firstIndex: Int32) throws {
    // Locals: reading a class's properties in the loop would cost an exclusivity check each.
    let spans = reader.spans
    let base = reader.bufferBase
    let conversions = self.conversions
    let first = reader.held[row].firstField
    var index = firstIndex
    for field in 0..<conversions.count {
      try bind(spans[first + field], field, conversions[field], base, to: statement, at: index)
      index += 1
    }
  }

  /// Binds field `field` of held record `row` (error paths and keys).
  private func bind(_ field: Int, ofRow row: Int, to statement: Statement, at index: Int32) throws {
    let span = reader.spans[reader.held[row].firstField + field]
    try bind(span, field, conversions[field], reader.bufferBase, to: statement, at: index)
  }

  /// Binds one field by its column's conversion: TEXT straight from the buffer, numbers parsed
  /// from the bytes.
  @inline(__always)
  private func bind(
    _ span: CSVReader.Span,
    _ field: Int,
    _ conversion: SeedConversion,
    _ base: UnsafeMutablePointer<UInt8>,
    to statement: Statement,
    at index: Int32
  ) throws {
    let rc: Int32
    if span.count == 0 && !span.isQuoted {
      rc = statement.bindNull(at: index)
    } else {
      let p = UnsafePointer(base + span.start)
      switch conversion {
      case .text, .asWritten:
        rc = statement.bindTextNoCopy(p, count: span.count, at: index)
      case .integer:
        switch ValueParsing.integer(p, span.count) {
        case .integer(let value): rc = statement.bindInt64(value, at: index)
        case .invalid(let problem): throw invalid(span, field, problem)
        case .real, .text: throw invalid(span, field, .notInteger)
        }
      case .real:
        switch ValueParsing.real(p, span.count) {
        case .real(let value): rc = statement.bindDouble(value, at: index)
        case .integer(let value): rc = statement.bindDouble(Double(value), at: index)
        case .invalid(let problem): throw invalid(span, field, problem)
        case .text: throw invalid(span, field, .notNumber)
        }
      case .numeric:
        switch ValueParsing.numeric(p, span.count) {
        case .integer(let value): rc = statement.bindInt64(value, at: index)
        case .real(let value): rc = statement.bindDouble(value, at: index)
        case .text: rc = statement.bindTextNoCopy(p, count: span.count, at: index)
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
        rc = hexScratch.withUnsafeBytes { bytes in
          statement.bindBlobCopy(UnsafeRawBufferPointer(rebasing: bytes[0..<written]), at: index)
        }
      }
    }
    if rc != Statement.okCode {
      throw SeedError.database(file: file.displayPath, error: connection.error(code: rc, sql: nil))
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
    return SeedError.invalidValue(
      file: file.displayPath,
      line: span.line,
      column: span.column,
      name: column.name,
      type: type,
      problem: problem
    )
  }

  /// Turns a failed multi-row INSERT into an error on one line: on a constraint failure the
  /// rows are inserted one at a time until one fails the same way.
  private func located(
    _ error: SQLiteError,
    rows count: Int,
    rowsBeforeFailure: Int?
  ) throws -> SeedError {
    let first = reader.held[0].line
    let last = reader.held[count - 1].line
    // Replaying rows needs the run's transaction; had SQLite ended it, they would commit.
    guard error.isConstraint, !connection.isAutocommit else {
      return SeedError.batchFailed(
        file: file.displayPath,
        firstLine: first,
        lastLine: last,
        error: error
      )
    }
    if let row = rowsBeforeFailure {
      guard row < count else {
        return SeedError.batchFailed(
          file: file.displayPath,
          firstLine: first,
          lastLine: last,
          error: error
        )
      }
      return SeedError.rowFailed(
        file: file.displayPath,
        line: reader.held[row].line,
        column: column(named: error, row: row),
        error: error
      )
    }
    let single = try insertStatement(rows: 1)
    for row in 0..<count {
      try bindRecord(row, to: single, firstIndex: 1)
      let rc = single.stepToEnd()
      if rc != Statement.doneCode {
        let rowError = connection.error(code: rc, sql: single.sql)
        single.reset()
        return SeedError.rowFailed(
          file: file.displayPath,
          line: reader.held[row].line,
          column: column(named: rowError, row: row),
          error: rowError
        )
      }
      single.reset()
    }
    return SeedError.batchFailed(
      file: file.displayPath,
      firstLine: first,
      lastLine: last,
      error: error
    )
  }

  /// The character column of the field a constraint message names (`… failed: t.name`, or a
  /// CHECK expression mentioning a header column).
  private func column(named error: SQLiteError, row: Int) -> Int? {
    guard let range = error.message.range(of: "failed: ") else { return nil }
    let detail = error.message[range.upperBound...]
    let words = detail.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map {
      Seeder.folded(String($0))
    }
    let record = reader.held[row]
    for (field, columnIndex) in fieldColumns.enumerated()
    where words.contains(Seeder.folded(table.columns[columnIndex].name)) {
      return reader.spans[record.firstField + field].column
    }
    return nil
  }

  // MARK: - Keys seen in this file

  /// A temporary table of this file's keys, to catch a key that repeats inside the CSV
  /// (`ON CONFLICT DO NOTHING` would otherwise skip the second row silently).
  private func createKeyTable(_ key: Seeder.Key) throws {
    let name = "strata_seed_keys_\(UInt32.random(in: 0...UInt32.max))"
    let columns = key.columns.enumerated().map { offset, column in
      let type = table.columnIndex(named: column).map { table.columns[$0].declaredType } ?? ""
      let collation = key.collations[offset].map { " COLLATE \(quoteIdentifier($0))" } ?? ""
      return "k\(offset) \(type)\(collation)"
    }
    let primary = key.columns.indices.map { "k\($0)" }.joined(separator: ", ")
    try connection.execute(
      "CREATE TEMP TABLE \(quoteIdentifier(name)) (\(columns.joined(separator: ", ")), "
        + "line INTEGER NOT NULL, PRIMARY KEY (\(primary))) WITHOUT ROWID"
    )
    keyTable = name
  }

  private func dropKeyTable() {
    guard let keyTable else { return }
    keyStatements.removeAll()
    try? connection.execute("DROP TABLE IF EXISTS temp.\(quoteIdentifier(keyTable))")
    self.keyTable = nil
  }

  private func keyStatement(rows: Int) throws -> Statement {
    if let statement = keyStatements[rows] { return statement }
    if keyStatements.count > 8 { keyStatements.removeAll() }
    let tuple = "(" + Array(repeating: "?", count: keyFields.count + 1).joined(separator: ",") + ")"
    let statement = try connection.prepare(
      "INSERT OR FAIL INTO temp.\(quoteIdentifier(keyTable ?? "")) VALUES "
        + Array(repeating: tuple, count: rows).joined(separator: ",")
    )
    keyStatements[rows] = statement
    return statement
  }

  private func bindKey(_ row: Int, to statement: Statement, firstIndex: Int32) throws {
    let record = reader.held[row]
    var index = firstIndex
    for field in keyFields {
      let span = reader.spans[record.firstField + field]
      if span.count == 0 && !span.isQuoted {
        throw SeedError.emptyKey(
          file: file.displayPath,
          line: span.line,
          column: span.column,
          name: table.columns[fieldColumns[field]].name,
          mode: mode
        )
      }
      try bind(field, ofRow: row, to: statement, at: index)
      index += 1
    }
    _ = statement.bindInt64(Int64(record.line), at: index)
  }

  private func insertKeys(_ count: Int) throws {
    let statement = try keyStatement(rows: count)
    let width = Int32(keyFields.count + 1)
    for row in 0..<count {
      try bindKey(row, to: statement, firstIndex: Int32(row) * width + 1)
    }
    let rc = statement.stepToEnd()
    if rc == Statement.doneCode {
      statement.reset()
      return
    }
    let error = connection.error(code: rc, sql: statement.sql)
    // OR FAIL: the keys before the repeated one went in; `changes()` counts them.
    let row = connection.changes
    statement.reset()
    guard error.isConstraint, row < count else { throw error }
    throw SeedError.duplicateKey(
      file: file.displayPath,
      line: reader.held[row].line,
      firstLine: try firstLine(ofKeyIn: row),
      columns: key?.columns ?? []
    )
  }

  private func firstLine(ofKeyIn row: Int) throws -> Int {
    let condition = keyFields.indices.map { "k\($0) = ?" }.joined(separator: " AND ")
    let lookup = try connection.prepare(
      "SELECT line FROM temp.\(quoteIdentifier(keyTable ?? "")) WHERE \(condition)"
    )
    for (offset, field) in keyFields.enumerated() {
      try bind(field, ofRow: row, to: lookup, at: Int32(offset + 1))
    }
    return try lookup.step() ? Int(lookup.int64(at: 0)) : 0
  }

  // MARK: - Finding a row again

  /// The first line whose `columns` (all in the header, none NULL) have no row in `parent`
  /// matching `parentColumns`: how an orphan found by `PRAGMA foreign_key_check` is traced
  /// back to the file. Reads the file again from the start.
  static func firstOrphanLine(
    file: SeedFile,
    table: Seeder.Table,
    columns: [String],
    parent: String,
    parentColumns: [String],
    connection: Connection,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes
  ) throws -> Int? {
    let loader = try SeedLoader(
      file: file,
      table: table,
      mode: .append,
      connection: connection,
      chunkSize: 1 << 16,
      maximumFieldBytes: maximumFieldBytes
    )
    let fields = columns.compactMap { name in
      loader.fieldColumns.firstIndex {
        Seeder.folded(table.columns[$0].name) == Seeder.folded(name)
      }
    }
    guard fields.count == columns.count, fields.count == parentColumns.count else { return nil }
    let condition = parentColumns.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: " AND ")
    let lookup = try connection.prepare(
      "SELECT 1 FROM main.\(quoteIdentifier(parent)) WHERE \(condition) LIMIT 1"
    )
    while true {
      loader.reader.releaseRecords()
      guard try loader.reader.readRecord() else { return nil }
      let record = loader.reader.held[0]
      guard record.fieldCount == loader.fieldColumns.count else { continue }
      let hasNull = fields.contains { field in
        let span = loader.reader.spans[record.firstField + field]
        return span.count == 0 && !span.isQuoted
      }
      if hasNull { continue }
      for (offset, field) in fields.enumerated() {
        try loader.bind(field, ofRow: 0, to: lookup, at: Int32(offset + 1))
      }
      let found = try lookup.step()
      lookup.reset()
      if !found { return record.line }
    }
  }
}
