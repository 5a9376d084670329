import Foundation

// The `strata_seeds` ledger: one row per file loaded, in the run's transaction, so a file
// version is loaded once.
extension Seeder {
  /// Every row of the `strata_seeds` ledger, oldest first; empty when there is none.
  ///
  /// - Throws: `SQLiteError` when the ledger cannot be read.
  public func ledger() throws -> [SeedLedgerEntry] {
    guard try Self.ledgerExists(connection) else { return [] }
    return try connection.rows(
      "SELECT file, checksum, table_name, mode, rows_inserted, rows_updated, applied_at "
        + "FROM strata_seeds ORDER BY rowid"
    ).map { row in
      SeedLedgerEntry(
        file: row[0].textValue ?? "",
        checksum: row[1].textValue ?? "",
        table: row[2].textValue ?? "",
        mode: row[3].textValue ?? "",
        rowsInserted: Int(row[4].integerValue ?? 0),
        rowsUpdated: Int(row[5].integerValue ?? 0),
        appliedAt: row[6].textValue ?? ""
      )
    }
  }

  /// Whether a file with this checksum has been loaded into `table` before.
  ///
  /// - Throws: `SQLiteError` when the ledger cannot be read.
  public func isRecorded(checksum: String, table: String) throws -> Bool {
    guard try Self.ledgerExists(connection) else { return false }
    return try connection.scalar(
      "SELECT 1 FROM strata_seeds WHERE checksum = ? AND table_name = ? COLLATE NOCASE LIMIT 1",
      [.text(checksum), .text(table)]
    ) != nil
  }

  static func ledgerExists(_ connection: Connection) throws -> Bool {
    try connection.scalar(
      "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'strata_seeds'"
    ) != nil
  }

  func createLedger() throws {
    try connection.execute(
      """
      CREATE TABLE IF NOT EXISTS strata_seeds (
        file          TEXT NOT NULL,
        checksum      TEXT NOT NULL,
        table_name    TEXT NOT NULL,
        mode          TEXT NOT NULL,
        rows_inserted INTEGER NOT NULL,
        rows_updated  INTEGER NOT NULL,
        applied_at    TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS strata_seeds_checksum ON strata_seeds (checksum, table_name);
      """
    )
  }

  /// Records each loaded file (with its report) in the ledger.
  func record(_ loaded: [(file: SeedFile, report: SeedTableReport)]) throws {
    let appliedAt = utcTimestamp(Date())
    let insert = try connection.prepare(
      "INSERT INTO strata_seeds (file, checksum, table_name, mode, rows_inserted, rows_updated, "
        + "applied_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    for (file, report) in loaded {
      try insert.bind([
        .text(file.ledgerName), .text(report.checksum), .text(report.table),
        .text(report.mode.rawValue), .integer(Int64(report.inserted)),
        .integer(Int64(report.updated)), .text(appliedAt),
      ])
      while try insert.step() {}
      insert.reset()
    }
  }
}
