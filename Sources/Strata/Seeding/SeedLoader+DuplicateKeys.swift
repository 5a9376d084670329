import Foundation

// A key that repeats inside one CSV: `ON CONFLICT DO NOTHING` would otherwise skip the second
// row silently. Each file's keys go into a temporary table as they are read; a repeat fails
// the run naming both lines.
extension SeedLoader {
  /// Creates the temporary table of this file's keys.
  func createKeyTable(_ key: Seeder.Key) throws {
    let name = "strata_seed_keys_\(UInt32.random(in: 0...UInt32.max))"
    try connection.execute(SeedSQL.createKeyTable(name, key: key, of: table))
    keyTable = name
  }

  /// Drops the temporary table, whichever way the load ends.
  func dropKeyTable() {
    guard let keyTable else { return }
    keyInserts.removeAll()
    try? connection.execute("DROP TABLE IF EXISTS temp.\(quoteIdentifier(keyTable))")
    self.keyTable = nil
  }

  private func keyInsert(rows: Int) throws -> BulkInsert {
    if let insert = keyInserts[rows] { return insert }
    if keyInserts.count > 8 { keyInserts.removeAll() }
    let insert = try BulkInsert(
      connection,
      sql: SeedSQL.insertKeys(into: keyTable ?? "", width: keyFields.count, rows: rows)
    )
    keyInserts[rows] = insert
    return insert
  }

  private func bindKey(_ row: Int, to statement: some SQLStatement, firstIndex: Int32) throws {
    try requireKey(row)
    let record = reader.held[row]
    var index = firstIndex
    for field in keyFields {
      try bind(field, ofRow: row, to: statement, at: index)
      index += 1
    }
    try statement.bindInt64(Int64(record.line), at: index)
  }

  /// Refuses held row `row` when a field of its key is empty: NULL would never match an
  /// existing row (and an INTEGER PRIMARY KEY would make up a rowid).
  private func requireKey(_ row: Int) throws {
    let record = reader.held[row]
    for field in keyFields {
      let span = reader.spans[record.firstField + field]
      guard isNull(span) else { continue }
      throw SeedError.emptyKey(
        file: file.displayPath,
        line: span.line,
        column: span.column,
        name: table.columns[fieldColumns[field]].name,
        mode: mode
      )
    }
  }

  /// Refuses an empty key among `count` held rows, as recording them does, for a load whose
  /// keys are checked afterwards (`checksKeysAfterwards`).
  func requireKeys(_ count: Int) throws {
    for row in 0..<count { try requireKey(row) }
  }

  /// Binds the keys of `count` held rows, `width` parameters each, to `statement`.
  @inline(__always)
  private func bindKeys(_ count: Int, width: Int32, to statement: some SQLStatement) throws {
    for row in 0..<count {
      try bindKey(row, to: statement, firstIndex: Int32(row) * width + 1)
    }
  }

  /// Records the keys of `count` held rows; throws `SeedError.duplicateKey` on a repeat.
  func insertKeys(_ count: Int) throws {
    let insert = try keyInsert(rows: count)
    let width = Int32(keyFields.count + 1)
    // As for the rows (`insertRows`): SQLite's own statement takes the specialized path.
    if let statement = insert.statement as? Statement {
      try bindKeys(count, width: width, to: statement)
    } else {
      try bindKeys(count, width: width, to: insert.statement)
    }
    do {
      try insert.run()
    } catch let error as SQLiteError {
      // OR FAIL: the keys before the repeated one went in; `changes()` counts them.
      let row = insert.rowsBeforeFailure
      guard error.isConstraint, row < count else { throw error }
      throw SeedError.duplicateKey(
        file: file.displayPath,
        line: reader.held[row].line,
        firstLine: try firstLine(ofKeyIn: row),
        columns: key?.columns ?? []
      )
    }
  }

  private func firstLine(ofKeyIn row: Int) throws -> Int {
    let lookup = try connection.prepare(
      SeedSQL.firstLineOfKey(in: keyTable ?? "", width: keyFields.count)
    )
    for (offset, field) in keyFields.enumerated() {
      try bind(field, ofRow: row, to: lookup, at: Int32(offset + 1))
    }
    return try lookup.step() ? Int(lookup.int64(at: 0)) : 0
  }
}
