import Foundation

/// Loads one CSV file into its table, inside the seed run's transaction.
///
/// Rows go in by multi-row prepared INSERTs (`BulkInsert`); each field is bound straight from
/// the reader's buffer (TEXT without a copy, numbers parsed from the bytes), so no `String` is
/// made per field. When a statement fails on a constraint, its rows are replayed one by one to
/// name the line that failed.
///
/// Its jobs are split by file: the header (`+Header`), the SQL (`SeedSQL`), binding fields
/// (`+Binding`), locating a failure (`+ErrorLocation`), keys repeated in the file
/// (`+DuplicateKeys`) and tracing an orphan back to its line (`SeedOrphanTracing`).
final class SeedLoader {
  struct Counts {
    var rowsRead = 0
    var inserted = 0
    var updated = 0
    var deleted = 0
    /// Rows left alone because the user changed or deleted them (`sync`), and of those the
    /// rows still in the file.
    var kept = 0
    var keptAmongRead = 0
    /// Per column and null token, the fields it turned into NULL (only counts above zero).
    var nulls: [SeedNullCount] = []
  }

  let file: SeedFile
  let table: Seeder.Table
  let mode: SeedMode
  let rules: SeedModeRules
  let connection: any SQLDatabase
  let reader: CSVReader
  /// For each CSV field, the index of the table column it fills.
  var fieldColumns: [Int] = []
  var conversions: [SeedConversion] = []
  /// The key used to find existing rows (for a mode with a `keyConflict`), and its fields.
  var key: Seeder.Key?
  var keyFields: [Int] = []
  /// The temporary table of this file's keys (see `+DuplicateKeys`), and its inserts by rows.
  var keyTable: String?
  var keyInserts: [Int: BulkInsert] = [:]
  /// The file's keys are not recorded as they are read: the table was empty and every row
  /// must go in, so a row left out means a repeated key (`Seeder+KeysAfterwards.swift`).
  var checksKeysAfterwards = false
  /// The engine the rows are sent ahead to, not waiting for each batch's answer, and the
  /// temporary table each INSERT requires, made inside the transaction (`Seeder+KeysAfterwards`).
  var sendsAhead: (engine: any BatchesSentAhead, marker: String)?
  var hexScratch: [UInt8] = []
  /// The file's null tokens as bytes (`SeedFileFormat.nullTokens`; the empty token, already
  /// NULL when unquoted, and repeats left out).
  let nullTokens: [[UInt8]]
  /// Per CSV field, per null token: the fields that token turned into NULL.
  var nullCounts: [[Int]] = []
  private var inserts: [Int: BulkInsert] = [:]
  private let rowsPerStatement: Int
  /// A table without a key syncs by rowid rather than being refused
  /// (`SeedMode.seedsKeylessOnce`).
  let keylessOnce: Bool
  /// The header holds no key: the rows are followed by rowid (`SeedKeylessSync`). On the
  /// file's first load, plain inserts whose rowids are recorded.
  var seedsOnce = false
  /// The file was loaded before: its rows are staged and merged by the ledger
  /// (`SeedKeylessSync`), and the line of each staged row kept to name it in an error.
  var mergesKeyless = false
  var stagedLines: [Int] = []
  /// The temporary table a `sync` load stages its rows in before the merge.
  private var stage: String?

  /// At most this many bytes of CSV are held for one statement.
  private static let maximumHeldBytes = 1 << 20

  /// Opens the file and checks its header against the table: every header column must be a
  /// column of the table, once; every NOT NULL column without a default must be there; for a
  /// mode that finds existing rows the header must hold a key.
  init(
    file: SeedFile,
    table: Seeder.Table,
    mode: SeedMode,
    connection: any SQLDatabase,
    computeChecksum: Bool = false,
    chunkSize: Int = 1 << 20,
    rowsPerStatement: Int = 64,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes,
    keylessOnce: Bool = false
  ) throws {
    self.rowsPerStatement = rowsPerStatement
    self.keylessOnce = keylessOnce
    self.file = file
    self.table = table
    self.mode = mode
    self.rules = mode.rules
    self.connection = connection
    var tokens: [[UInt8]] = []
    for token in file.format.nullTokens where !token.isEmpty && !tokens.contains(Array(token.utf8))
    {
      tokens.append(Array(token.utf8))
    }
    nullTokens = tokens
    guard file.isStandardInput || FileManager.default.fileExists(atPath: file.url.path) else {
      throw SeedError.fileNotFound(file: file.displayPath)
    }
    do {
      reader = try file.openReader(
        chunkSize: chunkSize,
        computeChecksum: computeChecksum,
        maximumFieldBytes: maximumFieldBytes
      )
      try readHeader()
    } catch let error as CSVError {
      throw SeedError.malformed(file: file.displayPath, error)
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
    if rules.deletesFirst {
      do {
        try connection.execute("DELETE FROM main.\(quoteIdentifier(table.name))")
      } catch let error as SQLiteError {
        throw SeedError.replaceFailed(file: file.displayPath, table: table.name, error: error)
      }
      counts.deleted = connection.changes
      try forgetRecordedRowsWhenKeyless()
    }
    let firstLoad = seedsOnce && !mergesKeyless
    let firstRowid = firstLoad ? try largestRowid() : 0
    if let key, !checksKeysAfterwards { try createKeyTable(key) }
    defer { dropKeyTable() }
    if (rules.mergesFromStage && key != nil) || mergesKeyless { try createStage() }
    defer { dropStage() }
    let countsByRows = rules.keyConflict == .updateExisting
    let before = countsByRows ? try rowCount() : 0
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
      if key != nil { try checksKeysAfterwards ? requireKeys(count) : insertKeys(count) }
      if mergesKeyless { stagedLines += (0..<count).map { reader.held[$0].line } }
      changes += try insertRows(count)
      counts.rowsRead += count
      if counts.rowsRead - reported >= 1 << 16 {
        reported = counts.rowsRead
        progress(counts.rowsRead, reader.bytesRead)
      }
    }
    reader.releaseRecords()
    if let ahead = sendsAhead { changes += try ahead.engine.rowsChangedByBatchesAhead() }
    // An upsert's `changes()` counts inserts and updates alike: the table's growth tells them
    // apart. Every other mode's changes are inserts.
    if mergesKeyless, let stage {
      try mergeKeyless(stage: stage, into: &counts)
    } else if countsByRows {
      counts.inserted = try rowCount() - before
      counts.updated = changes - counts.inserted
    } else if let stage, let key {
      try merge(stage: stage, key: key, into: &counts)
    } else {
      counts.inserted = changes
    }
    if checksKeysAfterwards, counts.inserted != counts.rowsRead { throw KeysNeedChecking() }
    if firstLoad { try recordRows(above: firstRowid) }
    progress(counts.rowsRead, reader.bytesRead)
    counts.nulls = nullCountsReport()
    return counts
  }

  /// The null-token counts above zero, by header order then token order.
  private func nullCountsReport() -> [SeedNullCount] {
    var report: [SeedNullCount] = []
    for (field, counts) in nullCounts.enumerated() {
      for (token, count) in counts.enumerated() where count > 0 {
        report.append(
          SeedNullCount(
            column: table.columns[fieldColumns[field]].name,
            token: String(decoding: nullTokens[token], as: UTF8.self),
            count: count
          )
        )
      }
    }
    return report
  }

  private func rowCount() throws -> Int {
    Int(
      try connection.scalar("SELECT count(*) FROM main.\(quoteIdentifier(table.name))")?
        .integerValue ?? 0
    )
  }

  /// The INSERT of `rows` rows, prepared once per row count.
  func insertStatement(rows: Int) throws -> BulkInsert {
    if let insert = inserts[rows] { return insert }
    if inserts.count > 8 { inserts.removeAll() }
    let insert = try BulkInsert(
      connection,
      sql: SeedSQL.insert(
        into: table,
        fields: fieldColumns,
        rows: rows,
        key: key,
        rules: rules,
        stage: stage,
        onlyWhile: sendsAhead?.marker
      )
    )
    inserts[rows] = insert
    return insert
  }

  /// The stage of a `sync` load: the file's columns, no constraints (the merge checks them).
  private func createStage() throws {
    let name = "strata_seed_stage_\(UInt32.random(in: 0...UInt32.max))"
    let names = fieldColumns.map { quoteIdentifier(table.columns[$0].name) }
    try connection.execute(
      "CREATE TEMP TABLE \(quoteIdentifier(name)) AS SELECT \(names.joined(separator: ", ")) "
        + "FROM main.\(quoteIdentifier(table.name)) WHERE 0"
    )
    stage = name
  }

  private func dropStage() {
    guard let stage else { return }
    inserts.removeAll()
    try? connection.execute("DROP TABLE IF EXISTS temp.\(quoteIdentifier(stage))")
    self.stage = nil
  }

  /// Merges the staged rows into the table (`SeedSync`), indexing the stage by its key first.
  private func merge(stage: String, key: Seeder.Key, into counts: inout Counts) throws {
    let indexed = zip(key.columns, key.collations).map { column, collation in
      quoteIdentifier(column) + (collation.map { " COLLATE \(quoteIdentifier($0))" } ?? "")
    }
    try connection.execute(
      "CREATE INDEX temp.\(quoteIdentifier(stage + "_key")) ON \(quoteIdentifier(stage)) "
        + "(\(indexed.joined(separator: ", ")))"
    )
    let merged = try SeedSync(
      connection: connection,
      table: table,
      key: key,
      columns: columnsInTableOrder,
      file: file.ledgerName,
      displayPath: file.displayPath,
      stage: stage,
      keyTable: keyTable ?? ""
    ).merge()
    counts.inserted = merged.inserted
    counts.updated = merged.updated
    counts.deleted = merged.deleted
    counts.kept = merged.kept
    counts.keptAmongRead = merged.keptAmongRead
  }

  /// Merges the staged rows of a keyless file loaded before (`SeedKeylessSync`).
  private func mergeKeyless(stage: String, into counts: inout Counts) throws {
    let merged = try SeedKeylessSync(
      connection: connection,
      table: table,
      columns: columnsInTableOrder,
      file: file.ledgerName,
      displayPath: file.displayPath,
      stage: stage,
      lines: stagedLines
    ).merge()
    counts.inserted = merged.inserted
    counts.updated = merged.updated
    counts.deleted = merged.deleted
    counts.kept = merged.kept
    counts.keptAmongRead = merged.keptAmongRead
  }

  /// Binds `count` held records to consecutive parameters of `statement`.
  @inline(__always)
  private func bindRecords(_ count: Int, to statement: some SQLStatement) throws {
    for row in 0..<count {
      try bindRecord(row, to: statement, firstIndex: Int32(row * fieldColumns.count + 1))
    }
  }

  /// Inserts `count` held records; returns the rows changed.
  private func insertRows(_ count: Int) throws -> Int {
    let insert = try insertStatement(rows: count)
    // SQLite's own statement takes a path specialized for it, its binders inlined into the
    // loop as before the seam; another engine's statement takes the generic one.
    if let statement = insert.statement as? Statement {
      try bindRecords(count, to: statement)
    } else {
      try bindRecords(count, to: insert.statement)
    }
    if let ahead = sendsAhead {
      try ahead.engine.sendBatchAhead(insert.statement)
      return 0
    }
    do {
      return try insert.run()
    } catch let error as SQLiteError {
      let before = rules.stopsAtFailingRow ? insert.rowsBeforeFailure : nil
      throw try located(error, rows: count, rowsBeforeFailure: before)
    }
  }
}
