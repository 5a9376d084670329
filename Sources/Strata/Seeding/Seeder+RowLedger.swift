import Foundation

// The row ledger: which rows each seed file put in. `strata_seed_rows` holds, per table and
// file, the key of each row a `sync` file wrote with the values it wrote (see `SeedSync`),
// or the rowid of each row a file of a table without a key inserted (seeded once);
// `strata_seed_columns` the columns a sync file's values are of. Both are created when a
// load first needs them, in the run's transaction, so a run that loads nothing writes nothing.
extension Seeder {
  static func createRowLedger(_ connection: any SQLDatabase) throws {
    try connection.execute(
      """
      CREATE TABLE IF NOT EXISTS main.strata_seed_rows (
        table_name TEXT NOT NULL,
        file       TEXT NOT NULL,
        key        NOT NULL,
        row_values TEXT,
        PRIMARY KEY (table_name, file, key)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS main.strata_seed_columns (
        table_name TEXT NOT NULL,
        file       TEXT NOT NULL,
        columns    TEXT NOT NULL,
        PRIMARY KEY (table_name, file)
      ) WITHOUT ROWID;
      """
    )
  }

  /// What to do with a file of a table without a key (seeded once).
  enum SeedOnce {
    /// Never loaded: load it and record its rows.
    case firstLoad
    /// The file as last loaded: skip it.
    case unchanged(checksum: String)
    /// Changed and marked to be reloaded: delete the rows it loaded, load it again.
    case reload
  }

  /// Decides a keyless file's fate by the ledger: its last load into the table, by the file's
  /// name. A changed file is refused unless it is marked to be reloaded.
  ///
  /// - Throws: `SeedError.keylessFileChanged` for a changed file not marked to be reloaded.
  func seedOnce(_ file: SeedFile, table: String) throws -> SeedOnce {
    guard let last = try lastLoad(of: file, table: table) else { return .firstLoad }
    if !file.isReadOnce, last.options == file.format.ledgerOptions {
      let checksum: String
      do {
        checksum = try Self.checksum(of: file.url)
      } catch let error as CSVError {
        throw SeedError.malformed(file: file.displayPath, error)
      }
      if last.checksum == checksum { return .unchanged(checksum: checksum) }
    }
    guard file.format.reload else {
      throw SeedError.keylessFileChanged(file: file.displayPath, table: table)
    }
    return .reload
  }

  /// Whether `checksum` (read with `format`) is the last version of the file loaded into
  /// `table`: a sync file that goes back to an older version must load again.
  func isLastLoad(of file: SeedFile, checksum: String, table: String) throws -> Bool {
    let last = try lastLoad(of: file, table: table)
    return last?.checksum == checksum && last?.options == file.format.ledgerOptions
  }

  /// The checksum and options of the file's last load into `table`, by the file's name.
  private func lastLoad(
    of file: SeedFile,
    table: String
  ) throws -> (checksum: String, options: String)? {
    guard try Self.ledgerExists(connection) else { return nil }
    let options = try hasOptionsColumn() ? "options" : "''"
    return try connection.rows(
      "SELECT checksum, \(options) FROM strata_seeds WHERE file = ? AND table_name = ? "
        + "COLLATE NOCASE ORDER BY rowid DESC LIMIT 1",
      [.text(file.ledgerName), .text(table)]
    ).first.map { ($0[0].textValue ?? "", $0[1].textValue ?? "") }
  }
}

// A keyless file's rows: recorded by rowid with their values, so a reload deletes exactly the
// rows the file loaded that still hold what it wrote (a row the user changed, or a rowid
// SQLite gave again to the user's row, stays).
extension SeedLoader {
  /// The header's columns, in the table's order.
  var columnsInTableOrder: [String] {
    fieldColumns.sorted().map { table.columns[$0].name }
  }

  /// Deletes the rows this file loaded before (`reload`); returns how many.
  func deleteRowsLoadedBefore() throws -> Int {
    try Seeder.createRowLedger(connection)
    let binds: [SQLValue] = [.text(table.name), .text(file.ledgerName)]
    let sync = rowEncoding
    let deleted = try connection.run(
      "DELETE FROM main.\(quoteIdentifier(table.name)) AS t0 WHERE EXISTS (SELECT 1 FROM "
        + "main.strata_seed_rows AS l WHERE l.table_name = ?1 AND l.file = ?2 "
        + "AND l.key = t0.rowid AND l.row_values IS \(sync))",
      binds
    )
    _ = try connection.run(
      "DELETE FROM main.strata_seed_rows WHERE table_name = ?1 AND file = ?2",
      binds
    )
    return deleted
  }

  /// The largest rowid before the load: the rows above it are the load's.
  func largestRowid() throws -> Int64 {
    try connection.scalar("SELECT max(rowid) FROM main.\(quoteIdentifier(table.name))")?
      .integerValue ?? 0
  }

  /// Records the rows inserted above `rowid` as this file's.
  func recordRows(above rowid: Int64) throws {
    try Seeder.createRowLedger(connection)
    _ = try connection.run(
      "INSERT INTO main.strata_seed_rows (table_name, file, key, row_values) "
        + "SELECT ?1, ?2, t0.rowid, \(rowEncoding) FROM main.\(quoteIdentifier(table.name)) "
        + "AS t0 WHERE t0.rowid > ?3",
      [.text(table.name), .text(file.ledgerName), .integer(rowid)]
    )
  }

  private var rowEncoding: String { SeedSync.encoding("t0", columnsInTableOrder) }
}
