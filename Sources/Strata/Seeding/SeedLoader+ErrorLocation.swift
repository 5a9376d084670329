import Foundation

// Turning a failed multi-row INSERT into an error on one line and column of the file.
extension SeedLoader {
  /// The error for a failed INSERT of `count` held rows: on a constraint failure, the row that
  /// failed, found from `rowsBeforeFailure` (an `OR FAIL` insert) or by inserting the rows one
  /// at a time until one fails the same way.
  func located(
    _ error: SQLiteError,
    rows count: Int,
    rowsBeforeFailure: Int?
  ) throws -> SeedError {
    let first = reader.held[0].line
    let last = reader.held[count - 1].line
    let batchFailed = SeedError.batchFailed(
      file: file.displayPath,
      firstLine: first,
      lastLine: last,
      error: error
    )
    // Replaying rows needs the run's transaction; had SQLite ended it, they would commit.
    guard error.isConstraint, !connection.isAutocommit else { return batchFailed }
    if let row = rowsBeforeFailure {
      guard row < count else { return batchFailed }
      return rowFailed(row, error)
    }
    let single = try insertStatement(rows: 1)
    for row in 0..<count {
      try bindRecord(row, to: single.statement, firstIndex: 1)
      do {
        try single.run()
      } catch let rowError as SQLiteError {
        return rowFailed(row, rowError)
      }
    }
    return batchFailed
  }

  private func rowFailed(_ row: Int, _ error: SQLiteError) -> SeedError {
    SeedError.rowFailed(
      file: file.displayPath,
      line: reader.held[row].line,
      column: column(named: error, row: row),
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
}
