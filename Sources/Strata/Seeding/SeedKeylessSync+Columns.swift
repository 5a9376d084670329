import Foundation

// The ledger's rows of a keyless merge, read by the columns their values are of: the file's
// own columns when the header did not change (in SQL), or, when it did, each recorded row cut
// down to the columns the file and the ledger share (in Swift, reading `quote()`'s text).
extension SeedKeylessSync {
  /// The columns the ledger's values for this file are of: as recorded in
  /// `strata_seed_columns`, or (a ledger written before they were recorded, by strata 0.4)
  /// the file's own, when a recorded row has as many values.
  ///
  /// - Throws: `SeedError.keylessFileChanged` when a ledger without recorded columns holds
  ///   rows of another width: the header changed since, and to what is unknown.
  func recordedColumns() throws -> [String] {
    if let text = try connection.scalar(
      "SELECT columns FROM main.strata_seed_columns WHERE table_name = ? AND file = ?",
      [.text(table.name), .text(file)]
    )?.textValue,
      let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    {
      return names
    }
    let sample = try connection.scalar(
      "SELECT row_values FROM main.strata_seed_rows WHERE table_name = ? AND file = ? "
        + "AND row_values IS NOT NULL LIMIT 1",
      [.text(table.name), .text(file)]
    )?.textValue
    guard let sample, Self.quotedValues(sample)?.count != columns.count else { return columns }
    throw SeedError.keylessFileChanged(file: displayPath, table: table.name)
  }

  /// Fills `strata_keyless_ledger`: per ledger row, its rowid (`key`), the values to match
  /// the file's on (`ident`: those of the `common` columns), whether the table still has the
  /// row (`present`) and whether it still holds what strata wrote (`untouched`).
  func ledgerRows(
    recorded: [String],
    common: [String],
    target: String,
    binds: [SQLValue]
  ) throws {
    guard recorded != columns else {
      _ = try connection.run(
        """
        CREATE TEMP TABLE strata_keyless_ledger AS SELECT l.key AS key, l.row_values AS ident,
          T.rowid IS NOT NULL AS present,
          T.rowid IS NOT NULL AND \(SeedSync.encoding("T", columns)) IS l.row_values AS untouched
        FROM main.strata_seed_rows AS l LEFT JOIN \(target) AS T ON T.rowid = l.key
        WHERE l.table_name = ?1 AND l.file = ?2
        """,
        binds
      )
      return
    }
    try connection.execute(
      "CREATE TEMP TABLE strata_keyless_ledger (key, ident, proj, present, untouched)"
    )
    // The recorded columns still in the table: a row holds what strata wrote when these do.
    let kept = recorded.indices.filter { table.columnIndex(named: recorded[$0]) != nil }
    let shared = common.compactMap { name in
      recorded.firstIndex { Seeder.folded($0) == Seeder.folded(name) }
    }
    let insert = try connection.prepare(
      "INSERT INTO temp.strata_keyless_ledger (key, ident, proj) VALUES (?, ?, ?)"
    )
    for row in try connection.rows(
      "SELECT key, row_values FROM main.strata_seed_rows WHERE table_name = ?1 AND file = ?2",
      binds
    ) {
      // A row that cannot be read matches no line and is never taken for strata's.
      var ident: SQLValue = .null
      var proj: SQLValue = .null
      if let values = row[1].textValue.flatMap(Self.quotedValues), values.count == recorded.count {
        ident = shared.isEmpty ? .null : .text(shared.map { values[$0] }.joined(separator: ","))
        proj = .text(kept.map { values[$0] }.joined(separator: ","))
      }
      try insert.bind([row[0], ident, proj])
      while try insert.step() {}
      insert.reset()
    }
    let holds =
      kept.isEmpty
      ? "1" : "\(SeedSync.encoding("T", kept.map { recorded[$0] })) IS L.proj"
    try connection.execute(
      """
      UPDATE temp.strata_keyless_ledger AS L SET
        present = EXISTS (SELECT 1 FROM \(target) AS T WHERE T.rowid = L.key),
        untouched = L.proj IS NOT NULL AND EXISTS (SELECT 1 FROM \(target) AS T
          WHERE T.rowid = L.key AND \(holds))
      """
    )
  }

  /// A row the user left, matched to a line, takes the values of the file's columns the
  /// ledger's values are not of (a column the file gained); returns the rows changed.
  func updateNewColumns(recorded: [String], target: String) throws -> Int {
    let gained = columns.filter { name in
      !recorded.contains { Seeder.folded($0) == Seeder.folded(name) }
    }.map(quoteIdentifier)
    guard !gained.isEmpty else { return 0 }
    let left =
      "temp.strata_keyless_match AS g WHERE g.srow IS NOT NULL AND g.key IS NOT NULL "
      + "AND g.untouched"
    let fileValues =
      "(SELECT " + gained.map { "S.\($0)" }.joined(separator: ", ")
      + " FROM temp.strata_keyless_match AS g JOIN temp.\(quoteIdentifier(stage)) AS S "
      + "ON S.rowid = g.srow WHERE g.key = t0.rowid)"
    let set = gained.count == 1 ? gained[0] : "(" + gained.joined(separator: ", ") + ")"
    let own =
      gained.count == 1
      ? "t0.\(gained[0])"
      : "("
        + gained.map { "t0.\($0)" }
        .joined(separator: ", ") + ")"
    return try runLocated(rows: "SELECT g.srow FROM \(left) ORDER BY g.srow") {
      "UPDATE OR ABORT \(target) AS t0 SET \(set) = \(fileValues) WHERE t0.rowid IN "
        + "(SELECT g.key FROM \(left)\($0.map { " AND g.srow = \($0)" } ?? "")) "
        + "AND \(own) IS NOT \(fileValues)"
    }
  }

  /// Records the columns the ledger's values are of, and, when they changed, each matched
  /// row's values as its line now has them.
  func rerecord(changed: Bool, binds: [SQLValue]) throws {
    if changed {
      _ = try connection.run(
        "UPDATE main.strata_seed_rows AS l SET row_values = (SELECT "
          + "\(SeedSync.encoding("S", columns)) FROM temp.strata_keyless_match AS g JOIN temp."
          + "\(quoteIdentifier(stage)) AS S ON S.rowid = g.srow WHERE g.key = l.key) "
          + "WHERE l.table_name = ?1 AND l.file = ?2 AND l.key IN (SELECT key FROM "
          + "temp.strata_keyless_match WHERE srow IS NOT NULL AND key IS NOT NULL)",
        binds
      )
    }
    let list = String(decoding: try JSONEncoder().encode(columns), as: UTF8.self)
    _ = try connection.run(
      "INSERT INTO main.strata_seed_columns (table_name, file, columns) VALUES (?1, ?2, ?3) "
        + "ON CONFLICT (table_name, file) DO UPDATE SET columns = excluded.columns "
        + "WHERE columns IS NOT excluded.columns",
      binds + [.text(list)]
    )
  }

  /// Runs one set-based statement over staged rows; when a constraint refuses it, undoes it
  /// and runs it for one staged row (of `rows`, in order) at a time, to name the line.
  func runLocated(
    _ binds: [SQLValue] = [],
    rows: String,
    _ sql: (Int?) -> String
  ) throws -> Int {
    try connection.execute("SAVEPOINT strata_keyless_apply")
    do {
      let changed = try connection.run(sql(nil), binds)
      try connection.execute("RELEASE strata_keyless_apply")
      return changed
    } catch let error as SQLiteError where error.isConstraint {
      try connection.execute("ROLLBACK TO strata_keyless_apply")
      try connection.execute("RELEASE strata_keyless_apply")
      for row in try connection.rows("SELECT * FROM (\(rows))") {
        let srow = Int(row[0].integerValue ?? 0)
        do {
          _ = try connection.run(sql(srow), binds)
        } catch let rowError as SQLiteError where rowError.isConstraint {
          throw SeedError.rowFailed(
            file: displayPath,
            line: srow >= 1 && srow <= lines.count ? lines[srow - 1] : 0,
            column: nil,
            error: rowError
          )
        }
      }
      throw error
    }
  }

  /// The values of a row as `quote()` wrote them, joined by commas (`SeedSync.encoding`):
  /// each a number, NULL, a 'string' (quotes inside doubled) or an X'blob'. Nil when the text
  /// is not such a list.
  static func quotedValues(_ text: String) -> [String]? {
    var values: [String] = []
    var current = ""
    var inQuote = false
    var iterator = text.makeIterator()
    var pending: Character? = nil
    while let character = pending ?? iterator.next() {
      pending = nil
      if inQuote {
        current.append(character)
        if character == "'" {
          // A doubled quote is one quote inside the string; anything else ends it.
          if let next = iterator.next() {
            if next == "'" {
              current.append(next)
            } else {
              inQuote = false
              pending = next
            }
          } else {
            inQuote = false
          }
        }
      } else if character == "'" {
        inQuote = true
        current.append(character)
      } else if character == "," {
        values.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    guard !inQuote else { return nil }
    values.append(current)
    return values
  }
}
