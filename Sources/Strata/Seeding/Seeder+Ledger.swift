import Foundation

// The `strata_seeds` ledger: one row per file loaded, in the run's transaction, so a file
// version is loaded once. A file's options (its format) are recorded in `options`, empty for
// strata's defaults: a ledger made before the column existed is upgraded in place, and its
// rows, default-format loads, still match, so nothing loads again after the upgrade.
extension Seeder {
  /// Every row of the `strata_seeds` ledger, oldest first; empty when there is none.
  ///
  /// - Throws: `SQLiteError` when the ledger cannot be read.
  package func ledger() throws -> [SeedLedgerEntry] {
    guard try Self.ledgerExists(connection) else { return [] }
    let options = try hasOptionsColumn() ? "options" : "''"
    return try connection.rows(
      "SELECT file, checksum, table_name, mode, rows_inserted, rows_updated, applied_at, "
        + "\(options) FROM strata_seeds ORDER BY rowid"
    ).map { row in
      SeedLedgerEntry(
        file: row[0].textValue ?? "",
        checksum: row[1].textValue ?? "",
        table: row[2].textValue ?? "",
        mode: row[3].textValue ?? "",
        rowsInserted: Int(row[4].integerValue ?? 0),
        rowsUpdated: Int(row[5].integerValue ?? 0),
        appliedAt: row[6].textValue ?? "",
        options: row[7].textValue ?? ""
      )
    }
  }

  /// Whether a file with this checksum has been loaded into `table` before, read with
  /// `format` (a file whose options changed loads again).
  ///
  /// - Throws: `SQLiteError` when the ledger cannot be read.
  package func isRecorded(
    checksum: String,
    table: String,
    format: SeedFileFormat = SeedFileFormat()
  ) throws -> Bool {
    guard try Self.ledgerExists(connection) else { return false }
    let options = format.ledgerOptions
    // A ledger without the column recorded default-format loads only.
    guard try hasOptionsColumn() else {
      return try options.isEmpty
        && connection.scalar(
          "SELECT 1 FROM strata_seeds WHERE checksum = ? AND table_name = ? COLLATE NOCASE LIMIT 1",
          [.text(checksum), .text(table)]
        ) != nil
    }
    return try connection.scalar(
      "SELECT 1 FROM strata_seeds WHERE checksum = ? AND table_name = ? COLLATE NOCASE "
        + "AND options = ? LIMIT 1",
      [.text(checksum), .text(table), .text(options)]
    ) != nil
  }

  func hasOptionsColumn() throws -> Bool {
    try connection.scalar(
      "SELECT 1 FROM pragma_table_info('strata_seeds') WHERE name = 'options'"
    ) != nil
  }

  static func ledgerExists(_ connection: any SQLDatabase) throws -> Bool {
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
        applied_at    TEXT NOT NULL,
        options       TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX IF NOT EXISTS strata_seeds_checksum ON strata_seeds (checksum, table_name);
      """
    )
  }

  /// Records each loaded file (with its report) in the ledger.
  func record(_ loaded: [(file: SeedFile, report: SeedTableReport)]) throws {
    guard !loaded.isEmpty else { return }
    // A ledger made before options were recorded: its rows are default-format loads. Upgraded
    // only by a run that records a file, so a run that loads nothing writes nothing.
    if try !hasOptionsColumn() {
      try connection.execute(
        "ALTER TABLE strata_seeds ADD COLUMN options TEXT NOT NULL DEFAULT ''"
      )
    }
    let appliedAt = utcTimestamp(Date())
    let insert = try connection.prepare(
      "INSERT INTO strata_seeds (file, checksum, table_name, mode, rows_inserted, rows_updated, "
        + "applied_at, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    )
    for (file, report) in loaded {
      try insert.bind([
        .text(file.ledgerName), .text(report.checksum), .text(report.table),
        .text(report.mode.rawValue), .integer(Int64(report.inserted)),
        .integer(Int64(report.updated)), .text(appliedAt), .text(file.format.ledgerOptions),
      ])
      while try insert.step() {}
      insert.reset()
    }
  }
}
