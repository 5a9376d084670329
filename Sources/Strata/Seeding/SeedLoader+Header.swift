import Foundation

// Mapping the CSV's header onto the table's columns, and choosing the key a mode finds
// existing rows by.
extension SeedLoader {
  /// Reads the header: every name must be a column of the table, once, and not generated;
  /// every required column must be there; a mode with a `keyConflict` needs a key.
  func readHeader() throws {
    guard try reader.readRecord() else {
      throw SeedError.emptyFile(file: file.displayPath)
    }
    let header = reader.held[0]
    let names = (0..<header.fieldCount).map { position in
      let span = reader.spans[header.firstField + position]
      return String(
        decoding: UnsafeBufferPointer(start: reader.fieldPointer(span), count: span.count),
        as: UTF8.self
      )
    }
    try checkColumnMapping(header: names)
    var seen: [Int: Int] = [:]
    for position in 0..<header.fieldCount {
      let span = reader.spans[header.firstField + position]
      let name = file.format.columns[names[position]] ?? names[position]
      guard !name.isEmpty else {
        throw SeedError.emptyHeaderName(
          file: file.displayPath,
          line: span.line,
          column: span.column,
          position: position + 1
        )
      }
      guard let index = table.columnIndex(named: name) else {
        if header.fieldCount == 1, let found = otherDelimiter(in: name) {
          throw SeedError.headerNotDelimited(
            file: file.displayPath,
            line: span.line,
            header: name,
            delimiter: Character(UnicodeScalar(reader.delimiter)),
            found: found
          )
        }
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
    nullCounts = Array(
      repeating: Array(repeating: 0, count: nullTokens.count),
      count: fieldColumns.count
    )
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
    if rules.keyConflict != nil { try chooseKey(fieldOfColumn: seen) }
  }

  /// Checks the file's header names (`SeedFileFormat.columns`) before any row: each mapped
  /// header is in the file, each column is the table's, and no two headers map to one column.
  private func checkColumnMapping(header: [String]) throws {
    let mapping = file.format.columns
    guard !mapping.isEmpty else { return }
    func fail(_ problem: SeedColumnMappingProblem) -> SeedError {
      .columnMapping(file: file.displayPath, table: table.name, problem: problem)
    }
    var headerOfColumn: [Int: String] = [:]
    for (name, column) in mapping.sorted(by: { $0.key < $1.key }) {
      guard header.contains(name) else { throw fail(.headerNotInFile(header: name)) }
      guard let index = table.columnIndex(named: column) else {
        throw fail(
          .noSuchColumn(
            header: name,
            column: column,
            columns: table.columns.filter { !$0.isGenerated }.map(\.name)
          )
        )
      }
      if let other = headerOfColumn[index] {
        throw fail(.sameColumn(column: table.columns[index].name, headers: [other, name]))
      }
      headerOfColumn[index] = name
    }
  }

  /// The first common delimiter other than the file's in a one-column header's `name`.
  private func otherDelimiter(in name: String) -> Character? {
    let own = Character(UnicodeScalar(reader.delimiter))
    return name.first { "\t;,|".contains($0) && $0 != own }
  }

  /// The first of the table's keys whose columns are all in the header.
  private func chooseKey(fieldOfColumn seen: [Int: Int]) throws {
    let fieldOf = Dictionary(
      uniqueKeysWithValues: seen.map { (table.columns[$0.key].name, $0.value) }
    )
    guard
      let chosen = table.keys.first(where: { key in
        key.columns.allSatisfy { fieldOf[$0] != nil }
      })
    else {
      // A table without a key (in the header) that syncs by rowid.
      if keylessOnce, table.hasRowid {
        seedsOnce = true
        return
      }
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
