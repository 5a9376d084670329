import Foundation

// A foreign-key violation made by the run, traced back to the file and line that made it.
extension Seeder {
  /// Fails the run on an orphan that `tables` did not have `before` it, naming the first table
  /// (in load order) with one and, when the file can be read again, the line.
  func checkForeignKeys(
    _ tables: [String],
    before: [Violation: Int],
    loaded: [Planned],
    maximumFieldBytes: Int
  ) throws {
    guard !tables.isEmpty else { return }
    var remaining = before
    var fresh: [Violation] = []
    for (violation, count) in try foreignKeyViolations(tables) {
      let old = remaining[violation] ?? 0
      if count > old { fresh += Array(repeating: violation, count: count - old) }
      remaining[violation] = max(0, old - count)
    }
    guard !fresh.isEmpty else { return }
    // Report the first table (in load order) and foreign key with a new orphan.
    let loadOrder = loaded.map { Self.folded($0.table.name) }
    let first = fresh.min { a, b in
      let rankA = loadOrder.firstIndex(of: Self.folded(a.table)) ?? Int.max
      let rankB = loadOrder.firstIndex(of: Self.folded(b.table)) ?? Int.max
      return (rankA, a.foreignKey, a.rowid ?? 0) < (rankB, b.foreignKey, b.rowid ?? 0)
    }
    guard let first else { return }
    let count = fresh.filter { $0.table == first.table && $0.foreignKey == first.foreignKey }.count
    let child = try Self.readTable(named: first.table, file: "", connection)
    let foreignKey = child.foreignKeys.first { $0.id == first.foreignKey }
    let columns = foreignKey?.from ?? []
    var parentColumns = foreignKey?.to.compactMap { $0 } ?? []
    if let foreignKey, parentColumns.count != columns.count {
      let parent = try Self.readTable(named: foreignKey.parent, file: "", connection)
      parentColumns = parent.columns.filter { $0.primaryKeyPosition > 0 }
        .sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
    }
    for item in loaded where Self.folded(item.table.name) == Self.folded(first.table) {
      // A stream cannot be read again to find the line: name the file alone.
      if item.file.isReadOnce {
        throw SeedError.foreignKeyViolation(
          file: item.file.displayPath,
          line: nil,
          table: child.name,
          columns: columns,
          parent: first.parent,
          count: count
        )
      }
      if let line = try SeedLoader.firstOrphanLine(
        file: item.file,
        table: item.table,
        columns: columns,
        parent: first.parent,
        parentColumns: parentColumns,
        connection: connection,
        maximumFieldBytes: maximumFieldBytes
      ) {
        throw SeedError.foreignKeyViolation(
          file: item.file.displayPath,
          line: line,
          table: child.name,
          columns: columns,
          parent: first.parent,
          count: count
        )
      }
    }
    // The orphan is not a row of a file: a replaced or updated parent left it behind.
    let culprit = loaded.first { Self.folded($0.table.name) == Self.folded(first.parent) }
    throw SeedError.foreignKeyViolation(
      file: culprit?.file.displayPath,
      line: nil,
      table: child.name,
      columns: columns,
      parent: first.parent,
      count: count
    )
  }
}

extension SeedLoader {
  /// The first line whose `columns` (all in the header, none NULL) have no row in `parent`
  /// matching `parentColumns`: how an orphan found by `PRAGMA foreign_key_check` is traced
  /// back to the file. Reads the file again from the start.
  static func firstOrphanLine(
    file: SeedFile,
    table: Seeder.Table,
    columns: [String],
    parent: String,
    parentColumns: [String],
    connection: any SQLDatabase,
    maximumFieldBytes: Int = CSVReader.defaultMaximumFieldBytes
  ) throws -> Int? {
    // Only its header and binding are used: `append` asks the header for no key.
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
    let lookup = try connection.prepare(
      SeedSQL.parentRowExists(in: parent, columns: parentColumns)
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
