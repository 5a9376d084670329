import Foundation

// The row ledger: which rows each seed file put in. `strata_seed_rows` holds, per table and
// file, the key of each row a `sync` file wrote with the values it wrote (see `SeedSync`),
// or the rowid of each row a file of a table without a key inserted, with the values it wrote
// (see `SeedKeylessSync`); `strata_seed_columns` the columns a file's values are of. Both are created when a
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

  /// What to do with a file of a table without a key.
  enum KeylessPlan {
    /// Never loaded: load it and record its rows.
    case firstLoad
    /// The file as last loaded: skip it.
    case unchanged(checksum: String)
    /// Loaded before and changed (or read once, so not known to be unchanged): merge it by
    /// the ledger (`SeedKeylessSync`).
    case merge
  }

  /// Decides a keyless file's fate by the ledger: its last load into the table, by the
  /// file's name, and the rows recorded for it.
  func keylessPlan(_ file: SeedFile, table: String) throws -> KeylessPlan {
    guard let last = try lastLoad(of: file, table: table) else {
      return try hasRecordedRows(of: file, table: table) ? .merge : .firstLoad
    }
    if !file.isReadOnce, last.options == file.format.ledgerOptions {
      let checksum: String
      do {
        checksum = try Self.checksum(of: file.url)
      } catch let error as CSVError {
        throw SeedError.malformed(file: file.displayPath, error)
      }
      if last.checksum == checksum { return .unchanged(checksum: checksum) }
    }
    return .merge
  }

  private func hasRecordedRows(of file: SeedFile, table: String) throws -> Bool {
    try connection.scalar(
      "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'strata_seed_rows'"
    ) != nil
      && connection.scalar(
        "SELECT 1 FROM main.strata_seed_rows WHERE table_name = ? AND file = ? LIMIT 1",
        [.text(table), .text(file.ledgerName)]
      ) != nil
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

// A keyless file's first load: its rows recorded by rowid with the values it wrote, and the
// columns those values are of, so that its next version is merged by them (`SeedKeylessSync`).
extension SeedLoader {
  /// After `replace` emptied the table: forgets the rows a keyless file was recorded to have
  /// written (they are gone, and their rowids may now be the new rows'), so that a later sync
  /// takes the table's rows equal to its lines as the file's (`SeedKeylessSync`) instead of
  /// matching lines to rows that hold other values.
  func forgetRecordedRowsWhenKeyless() throws {
    let header = Set(columnsInTableOrder.map(Seeder.folded))
    guard
      !table.keys.contains(where: { $0.columns.allSatisfy { header.contains(Seeder.folded($0)) } })
    else { return }
    try Seeder.createRowLedger(connection)
    let binds: [SQLValue] = [.text(table.name), .text(file.ledgerName)]
    _ = try connection.run(
      "DELETE FROM main.strata_seed_rows WHERE table_name = ?1 AND file = ?2",
      binds
    )
    _ = try connection.run(
      "DELETE FROM main.strata_seed_columns WHERE table_name = ?1 AND file = ?2",
      binds
    )
  }

  /// The header's columns, in the table's order.
  var columnsInTableOrder: [String] {
    fieldColumns.sorted().map { table.columns[$0].name }
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
    let list = String(decoding: try JSONEncoder().encode(columnsInTableOrder), as: UTF8.self)
    _ = try connection.run(
      "INSERT INTO main.strata_seed_columns (table_name, file, columns) VALUES (?1, ?2, ?3) "
        + "ON CONFLICT (table_name, file) DO UPDATE SET columns = excluded.columns",
      [.text(table.name), .text(file.ledgerName), .text(list)]
    )
  }

  private var rowEncoding: String { SeedSync.encoding("t0", columnsInTableOrder) }
}
