import Foundation

/// The merge of a `sync` load: the file's rows, already in a temporary stage table, meet the
/// table by what the row ledger (`strata_seed_rows`) says this file wrote before.
///
/// Each row is compared as text: `quote()` of each of the file's columns, in the table's
/// order, joined by commas (exact for every type, BLOBs included). The ledger keeps, per
/// table, file and key, the values the file last wrote, or NULL once the row is the user's
/// (changed or deleted by the user, or there before the file). `strata_seed_columns` keeps the
/// columns those values are of, so a file that gains a column still recognises its rows.
///
/// For a key in the file: recorded and present, holding what the file wrote → updated (or
/// left when equal); recorded but changed → kept, the user's from now on; recorded and gone →
/// stays gone; not recorded and absent → inserted; not recorded and present → adopted when
/// equal to the file's values, otherwise kept as the user's. For a recorded key that left the
/// file: deleted when it still holds what the file wrote and nothing else of the user's
/// (`SeedSync+Keeping`), otherwise kept, and forgotten.
struct SeedSync {
  let connection: any SQLDatabase
  let table: Seeder.Table
  let key: Seeder.Key
  /// The file's columns, in the table's order.
  let columns: [String]
  /// The file's ledger name, and how messages show it.
  let file: String
  let displayPath: String
  let stage: String
  /// The temporary table of the file's keys and their lines (see `SeedLoader+DuplicateKeys`).
  let keyTable: String

  struct Counts {
    var inserted = 0
    var updated = 0
    var deleted = 0
    /// Rows left alone because the user changed or deleted them.
    var kept = 0
    /// Of `kept`, the rows still in the file.
    var keptAmongRead = 0
  }

  /// The temporary tables of one merge.
  private static let work = ["strata_sync_act", "strata_sync_left", "strata_sync_gone"]

  func merge() throws -> Counts {
    try Seeder.createRowLedger(connection)
    defer { dropWork() }
    dropWork()
    let binds: [SQLValue] = [.text(table.name), .text(file)]
    let target = "main.\(quoteIdentifier(table.name))"
    let keyNames = key.columns.map(quoteIdentifier)
    let recorded = try recordedColumns()
    let old = recorded.map { Self.encoding("T", $0) } ?? "NULL"
    let mine = "l.table_name = ?1 AND l.file = ?2"
    // Each file row meets its ledger entry (by encoded key) and its table row (by the key's
    // columns, through the table's own index). Only the rows with something to do are kept:
    // a row the file wrote, that the user left and the file did not change, is the common
    // case and is passed over with one comparison (unless the recorded columns changed, when
    // every row's recorded values are written again).
    let present = "T.\(keyNames[0]) IS NOT NULL"
    let sameKey = keyNames.map { "T.\($0) = S.\($0)" }.joined(separator: " AND ")
    let sameValues = columns.map(quoteIdentifier).map { "T.\($0) IS S.\($0)" }
      .joined(separator: " AND ")
    let passOver =
      recorded == columns
      ? "WHERE NOT (l.row_values IS \(old) AND \(sameValues))" : ""
    _ = try connection.run(
      """
      CREATE TEMP TABLE strata_sync_act AS SELECT S.rowid AS srow,
        \(Self.encoding("S", key.columns)) AS key, \(Self.encoding("S", columns)) AS vals,
        l.row_values AS recorded, l.key IS NOT NULL AS inLedger,
        CASE
          WHEN l.key IS NOT NULL AND NOT \(present) THEN 'gone'
          WHEN l.key IS NOT NULL AND (l.row_values IS NULL OR \(old) IS NOT l.row_values)
            THEN 'user'
          WHEN l.key IS NOT NULL AND \(sameValues) THEN 'same'
          WHEN l.key IS NOT NULL THEN 'update'
          WHEN NOT \(present) THEN 'insert'
          WHEN \(sameValues) THEN 'adopt'
          ELSE 'user'
        END AS action
      FROM temp.\(quoteIdentifier(stage)) AS S
      LEFT JOIN main.strata_seed_rows AS l
        ON \(mine) AND l.key = \(Self.encoding("S", key.columns))
      LEFT JOIN \(target) AS T ON \(sameKey)
      \(passOver)
      """,
      binds
    )
    // The recorded keys that left the file: there are some only when the ledger holds more
    // keys for the file than the file's rows matched (those passed over all matched). Then
    // they, and their rows still in the table, are found by a scan.
    try connection.execute(
      "CREATE TEMP TABLE strata_sync_left (key PRIMARY KEY, recorded) WITHOUT ROWID"
    )
    let columnsOfKey = key.columns.indices.map { "k\($0)" }.joined(separator: ", ")
    try connection.execute(
      "CREATE TEMP TABLE strata_sync_gone (key PRIMARY KEY, doomed, \(columnsOfKey)) "
        + "WITHOUT ROWID"
    )
    let staged = try count("\(quoteIdentifier(stage))")
    let acted = try count("strata_sync_act")
    let matched = try count("strata_sync_act WHERE inLedger") + staged - acted
    let ledgered = Int(
      try connection.scalar(
        "SELECT count(*) FROM main.strata_seed_rows AS l WHERE \(mine)",
        binds
      )?.integerValue ?? 0
    )
    if ledgered > matched {
      let leftToTheFile = try leftToTheFileCondition(recorded: recorded ?? [])
      _ = try connection.run(
        "INSERT INTO temp.strata_sync_left SELECT l.key, l.row_values "
          + "FROM main.strata_seed_rows AS l WHERE \(mine) AND l.key NOT IN (SELECT "
          + "\(Self.encoding("S", key.columns)) FROM temp.\(quoteIdentifier(stage)) AS S)",
        binds
      )
      try connection.execute(
        "INSERT INTO temp.strata_sync_gone SELECT g.key, "
          + "g.recorded IS NOT NULL AND \(old) IS g.recorded AND \(leftToTheFile), "
          + keyNames.map { "T.\($0)" }.joined(separator: ", ")
          + " FROM \(target) AS T JOIN temp.strata_sync_left AS g "
          + "ON g.key = \(Self.encoding("T", key.columns))"
      )
    }
    var counts = Counts()
    counts.keptAmongRead = try count("strata_sync_act WHERE action IN ('user', 'gone')")
    counts.kept = try counts.keptAmongRead + count("strata_sync_gone WHERE NOT doomed")
    // Deletes first: a key renamed in the file frees its other unique values for the insert.
    let keyTuple = "(" + keyNames.map { "t0.\($0)" }.joined(separator: ", ") + ")"
    let stageKeys = "(" + keyNames.map { "S.\($0)" }.joined(separator: ", ") + ")"
    counts.deleted = try connection.run(
      "DELETE FROM \(target) AS t0 WHERE \(keyTuple) IN (SELECT "
        + key.columns.indices.map { "t.k\($0)" }.joined(separator: ", ")
        + " FROM temp.strata_sync_gone AS t WHERE t.doomed)"
    )
    // Set-based first (the common case: nothing collides); when a constraint refuses it,
    // row by row (see `SeedSync+Collisions`), which also names the line of a real error.
    let names = columns.map(quoteIdentifier).joined(separator: ", ")
    try connection.execute("SAVEPOINT strata_sync_apply")
    do {
      if let update = updateSQL(target: target, keyTuple: keyTuple, stageKeys: stageKeys) {
        counts.updated = try connection.run(update)
      }
      counts.inserted = try connection.run(
        "INSERT OR ABORT INTO \(target) (\(names)) SELECT \(names) FROM temp."
          + "\(quoteIdentifier(stage)) AS S WHERE S.rowid IN (SELECT srow FROM "
          + "temp.strata_sync_act WHERE action = 'insert') ORDER BY S.rowid"
      )
      try connection.execute("RELEASE strata_sync_apply")
    } catch let error as SQLiteError where error.isConstraint {
      try connection.execute("ROLLBACK TO strata_sync_apply")
      try connection.execute("RELEASE strata_sync_apply")
      let applied = try applyRowByRow(target: target)
      counts.updated = applied.updated
      counts.inserted = applied.inserted
      counts.kept += applied.pending
      counts.keptAmongRead += applied.pending
    }
    try record(binds)
    return counts
  }

  /// Updates the rows the file changed and the user did not: the file's non-key columns (nil
  /// when the file has none).
  private func updateSQL(target: String, keyTuple: String, stageKeys: String) -> String? {
    let others = nonKeyColumns.map(quoteIdentifier)
    guard !others.isEmpty else { return nil }
    let match = key.columns.map(quoteIdentifier).map { "S.\($0) = t0.\($0)" }
      .joined(separator: " AND ")
    let set =
      others.count == 1
      ? others[0] : "(" + others.joined(separator: ", ") + ")"
    return "UPDATE OR ABORT \(target) AS t0 SET \(set) = (SELECT "
      + others.map { "S.\($0)" }.joined(separator: ", ")
      + " FROM temp.\(quoteIdentifier(stage)) AS S WHERE \(match)) WHERE \(keyTuple) IN "
      + "(SELECT \(stageKeys.dropFirst().dropLast()) FROM temp.\(quoteIdentifier(stage)) AS S "
      + "JOIN temp.strata_sync_act AS a ON a.srow = S.rowid WHERE a.action = 'update')"
  }

  /// The file's columns outside the key: those an update sets.
  var nonKeyColumns: [String] {
    let keyNames = Set(key.columns.map(Seeder.folded))
    return columns.filter { !keyNames.contains(Seeder.folded($0)) }
  }

  /// The file line of a staged row, from the key table.
  func line(ofStageRow row: SQLValue) throws -> Int {
    let match = key.columns.indices.map { "k.k\($0) = S.\(quoteIdentifier(key.columns[$0]))" }
      .joined(separator: " AND ")
    return Int(
      try connection.scalar(
        "SELECT k.line FROM temp.\(quoteIdentifier(keyTable)) AS k JOIN temp."
          + "\(quoteIdentifier(stage)) AS S ON \(match) WHERE S.rowid = ?",
        [row]
      )?.integerValue ?? 0
    )
  }

  /// Writes what the file wrote (NULL for the user's rows) and forgets the keys that left it;
  /// a pending row's entry stays as it was (none for an insert), so the next version of the
  /// file tries it again.
  private func record(_ binds: [SQLValue]) throws {
    _ = try connection.run(
      "DELETE FROM main.strata_seed_rows WHERE table_name = ?1 AND file = ?2 "
        + "AND key IN (SELECT key FROM temp.strata_sync_left)",
      binds
    )
    _ = try connection.run(
      """
      INSERT INTO main.strata_seed_rows (table_name, file, key, row_values)
      SELECT ?1, ?2, a.key, a.next FROM (SELECT key, recorded, inLedger, action,
        CASE WHEN action IN ('user', 'gone') THEN NULL ELSE vals END AS next
        FROM temp.strata_sync_act) AS a
      WHERE a.action IS NOT 'pending' AND (NOT a.inLedger OR a.recorded IS NOT a.next)
      ON CONFLICT (table_name, file, key) DO UPDATE SET row_values = excluded.row_values
      """,
      binds
    )
    let list = String(decoding: try JSONEncoder().encode(columns), as: UTF8.self)
    _ = try connection.run(
      "INSERT INTO main.strata_seed_columns (table_name, file, columns) VALUES (?1, ?2, ?3) "
        + "ON CONFLICT (table_name, file) DO UPDATE SET columns = excluded.columns "
        + "WHERE columns IS NOT excluded.columns",
      binds + [.text(list)]
    )
  }

  /// The columns the recorded values are of; nil when nothing is recorded, or when one of
  /// them left the table (its recorded rows then count as the user's).
  private func recordedColumns() throws -> [String]? {
    guard
      let text = try connection.scalar(
        "SELECT columns FROM main.strata_seed_columns WHERE table_name = ? AND file = ?",
        [.text(table.name), .text(file)]
      )?.textValue,
      let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)),
      names.allSatisfy({ table.columnIndex(named: $0) != nil })
    else { return nil }
    return names
  }

  private func count(_ query: String) throws -> Int {
    Int(try connection.scalar("SELECT count(*) FROM temp.\(query)")?.integerValue ?? 0)
  }

  private func dropWork() {
    for name in Self.work { try? connection.execute("DROP TABLE IF EXISTS temp.\(name)") }
  }

  /// A row's values as one text: `quote(alias.c1) || ',' || quote(alias.c2)`.
  static func encoding(_ alias: String, _ names: [String]) -> String {
    names.map { "quote(\(alias).\(quoteIdentifier($0)))" }.joined(separator: " || ',' || ")
  }
}
