import Foundation

/// The merge of a changed file of a table without a key (a rowid table): the file's rows,
/// already in a temporary stage table, meet the rows the ledger (`strata_seed_rows`) says this
/// file wrote before, by rowid, with the values it wrote.
///
/// A row has no identity but its values, so the file and the ledger are compared as
/// multisets of rows (two identical lines are two rows): the n-th line with some values is
/// matched to the n-th ledger row with those values, the rows still holding what strata wrote
/// first. Then:
///
/// - a matched row is left alone, whatever the user did to it (an edit stays, a deletion is
///   not undone), and never deleted and inserted again;
/// - a line with no ledger row is inserted and recorded;
/// - a ledger row with no line left the file: its row is deleted when it still holds what
///   strata wrote and nothing else of the user's (`SeedSync.leftToTheFileCondition`),
///   otherwise kept as the user's; either way it is forgotten.
///
/// Rows the user added are not in the ledger and never touched. `reload` changes nothing here:
/// the file's rows already replace strata's own earlier rows, and the user's stay. When the file's columns
/// differ from those the ledger's values are of, rows are matched on the columns both have
/// (`SeedKeylessSync+Columns`), and a matched row the user left takes the file's new columns.
struct SeedKeylessSync {
  let connection: any SQLDatabase
  let table: Seeder.Table
  /// The file's columns, in the table's order.
  let columns: [String]
  /// The file's ledger name, and how messages show it.
  let file: String
  let displayPath: String
  let stage: String
  /// The line of each staged row (stage rowid n is `lines[n - 1]`).
  let lines: [Int]

  /// The temporary tables of one merge.
  private static let work = [
    "strata_keyless_ledger", "strata_keyless_rank", "strata_keyless_file",
    "strata_keyless_match",
  ]

  func merge() throws -> SeedSync.Counts {
    try Seeder.createRowLedger(connection)
    defer { dropWork() }
    dropWork()
    let binds: [SQLValue] = [.text(table.name), .text(file)]
    let target = "main.\(quoteIdentifier(table.name))"
    try adoptRowsWhenNoneRecorded(target: target, binds: binds)
    let recorded = try recordedColumns()
    let common = columns.filter { name in
      recorded.contains { Seeder.folded($0) == Seeder.folded(name) }
    }
    // 1. The ledger's rows: what strata wrote, whether the table's row is still there and
    // still holds it, and the values to match the file's on.
    try ledgerRows(recorded: recorded, common: common, target: target, binds: binds)
    // 2. The file's rows, numbered within equal values; the ledger's likewise, the rows the
    // user left first (so a line that left the file takes one the user changed or deleted).
    let fileIdent = common.isEmpty ? "'file:' || S.rowid" : SeedSync.encoding("S", common)
    try connection.execute(
      """
      CREATE TEMP TABLE strata_keyless_file AS SELECT S.rowid AS srow, ident,
        row_number() OVER (PARTITION BY ident ORDER BY S.rowid) AS n
      FROM (SELECT rowid, \(fileIdent) AS ident FROM temp.\(quoteIdentifier(stage)) AS S) AS S;
      CREATE INDEX temp.strata_keyless_file_ident ON strata_keyless_file (ident, n);
      CREATE TEMP TABLE strata_keyless_rank AS SELECT key, ident, present, untouched,
        row_number() OVER (PARTITION BY ident ORDER BY untouched DESC, key) AS n
      FROM strata_keyless_ledger;
      CREATE INDEX temp.strata_keyless_rank_ident ON strata_keyless_rank (ident, n);
      CREATE TEMP TABLE strata_keyless_match AS
      SELECT F.srow AS srow, L.key AS key, L.present AS present, L.untouched AS untouched
      FROM strata_keyless_file AS F LEFT JOIN strata_keyless_rank AS L
        ON L.ident = F.ident AND L.n = F.n;
      INSERT INTO strata_keyless_match SELECT NULL, key, present, untouched
      FROM strata_keyless_rank AS L WHERE NOT EXISTS (SELECT 1 FROM strata_keyless_file AS F
        WHERE F.ident = L.ident AND F.n = L.n);
      """
    )
    var counts = SeedSync.Counts()
    // 3. The rows that left the file: deleted when strata's and the user's in nothing else.
    let leftToTheFile = try SeedSync.leftToTheFileCondition(
      connection,
      table: table,
      columns: columns,
      recorded: recorded.filter { table.columnIndex(named: $0) != nil }
    )
    let gone = "temp.strata_keyless_match AS g WHERE g.srow IS NULL"
    let doomed = try connection.rows(
      "SELECT g.key FROM \(gone) AND g.untouched AND EXISTS (SELECT 1 FROM \(target) AS T "
        + "WHERE T.rowid = g.key AND \(leftToTheFile))"
    ).map { $0[0] }
    counts.kept = try count("\(gone) AND g.present") - doomed.count
    counts.deleted = try deleteRows(doomed, target: target)
    _ = try connection.run(
      "DELETE FROM main.strata_seed_rows WHERE table_name = ?1 AND file = ?2 AND key IN "
        + "(SELECT key FROM \(gone))",
      binds
    )
    // 4. The rows still in the file.
    let touched =
      "temp.strata_keyless_match AS g WHERE g.srow IS NOT NULL AND g.key IS NOT NULL "
      + "AND NOT g.untouched"
    counts.keptAmongRead = try count(touched)
    counts.kept += counts.keptAmongRead
    counts.updated += try updateNewColumns(recorded: recorded, target: target)
    // 5. The lines new to the file, under rowids above any the ledger knows, so that a rowid
    // the user's deleted row had is never taken by a new row of the file.
    counts.inserted = try insertNewRows(target: target, binds: binds)
    try rerecord(changed: recorded != columns, binds: binds)
    return counts
  }

  /// Deletes the rows of `keys`; returns how many.
  private func deleteRows(_ keys: [SQLValue], target: String) throws -> Int {
    var deleted = 0
    for start in stride(from: 0, to: keys.count, by: 500) {
      let part = Array(keys[start..<min(start + 500, keys.count)])
      deleted += try connection.run(
        "DELETE FROM \(target) WHERE rowid IN ("
          + part.map { _ in "?" }.joined(separator: ", ") + ")",
        part
      )
    }
    return deleted
  }

  /// Inserts the staged rows that no ledger row matched; returns how many.
  private func insertNewRows(target: String, binds: [SQLValue]) throws -> Int {
    // Above any rowid the table, the ledger or (AUTOINCREMENT) `sqlite_sequence` has given.
    let base = max(
      try connection.scalar("SELECT max(rowid) FROM \(target)")?.integerValue ?? 0,
      try connection.scalar(
        "SELECT max(key) FROM main.strata_seed_rows WHERE table_name = ?1 "
          + "AND typeof(key) = 'integer'",
        [binds[0]]
      )?.integerValue ?? 0,
      try autoincrementSequence()
    )
    let names = columns.map(quoteIdentifier).joined(separator: ", ")
    let inserted = try runLocated(
      [.integer(base)],
      rows: "SELECT srow FROM temp.strata_keyless_match WHERE key IS NULL ORDER BY srow"
    ) { oneRow in
      // All at once: numbered in file order. One row at a time (finding the failing line),
      // in file order too: each goes above the rows inserted before it.
      let rowid =
        oneRow == nil
        ? "?1 + row_number() OVER (ORDER BY S.rowid)"
        : "max(?1, (SELECT coalesce(max(rowid), 0) FROM \(target))) + 1"
      return "INSERT OR ABORT INTO \(target) (rowid, \(names)) SELECT \(rowid), \(names) "
        + "FROM temp.\(quoteIdentifier(stage)) AS S WHERE S.rowid "
        + "IN (SELECT srow FROM temp.strata_keyless_match WHERE key IS NULL)"
        + (oneRow.map { " AND S.rowid = \($0)" } ?? "") + " ORDER BY S.rowid"
    }
    _ = try connection.run(
      "INSERT INTO main.strata_seed_rows (table_name, file, key, row_values) SELECT ?1, ?2, "
        + "t0.rowid, \(SeedSync.encoding("t0", columns)) FROM \(target) AS t0 "
        + "WHERE t0.rowid > ?3",
      binds + [.integer(base)]
    )
    return inserted
  }

  /// The last rowid an AUTOINCREMENT table gave (0 for another table): never given again,
  /// even after the user deleted its row.
  private func autoincrementSequence() throws -> Int64 {
    guard
      try connection.scalar(
        "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
      ) != nil
    else { return 0 }
    return try connection.scalar(
      "SELECT seq FROM main.sqlite_sequence WHERE name = ? COLLATE NOCASE",
      [.text(table.name)]
    )?.integerValue ?? 0
  }

  /// A file loaded before with no record of its rows (the append and replace modes keep
  /// none): the table's rows equal to its lines are taken as the file's, the n-th line with
  /// some values the n-th such row by rowid that no other file recorded, so that the merge
  /// inserts only the lines not in the table yet instead of every line again.
  private func adoptRowsWhenNoneRecorded(target: String, binds: [SQLValue]) throws {
    let recorded = try connection.scalar(
      "SELECT EXISTS (SELECT 1 FROM main.strata_seed_rows WHERE table_name = ?1 AND file = ?2) "
        + "OR EXISTS (SELECT 1 FROM main.strata_seed_columns WHERE table_name = ?1 "
        + "AND file = ?2)",
      binds
    )?.integerValue
    guard recorded == 0 else { return }
    let tableValues = SeedSync.encoding("T", columns)
    let fileValues = SeedSync.encoding("S", columns)
    _ = try connection.run(
      "INSERT INTO main.strata_seed_rows (table_name, file, key, row_values) "
        + "SELECT ?1, ?2, T.key, T.v FROM (SELECT T.rowid AS key, \(tableValues) AS v, "
        + "row_number() OVER (PARTITION BY \(tableValues) ORDER BY T.rowid) AS n "
        + "FROM \(target) AS T WHERE T.rowid NOT IN (SELECT key FROM main.strata_seed_rows "
        + "WHERE table_name = ?1)) AS T JOIN (SELECT \(fileValues) AS v, row_number() OVER "
        + "(PARTITION BY \(fileValues) ORDER BY S.rowid) AS n FROM temp."
        + "\(quoteIdentifier(stage)) AS S) AS F ON F.v = T.v AND F.n = T.n",
      binds
    )
  }

  private func count(_ query: String) throws -> Int {
    Int(try connection.scalar("SELECT count(*) FROM \(query)")?.integerValue ?? 0)
  }

  func dropWork() {
    for name in Self.work { try? connection.execute("DROP TABLE IF EXISTS temp.\(name)") }
  }
}
