import Foundation

/// The SQL a seed load runs, built from the table, the header's fields and the mode's rules.
enum SeedSQL {
  /// The INSERT of `rows` rows of `fields` (indexes of `table`'s columns).
  ///
  /// Every INSERT names its conflict resolution (`OR FAIL` or `OR ABORT`): a statement's own
  /// algorithm overrides the one the schema declares (`UNIQUE ON CONFLICT REPLACE` would delete
  /// an existing row that collides on a constraint other than the key, `IGNORE` would skip a row
  /// silently, `ROLLBACK` would end the run's (or the caller's) transaction, and
  /// `NOT NULL ON CONFLICT REPLACE` would store the default for a NULL). The `ON CONFLICT (key)`
  /// of a mode with a key still applies to its key alone, and the `DO UPDATE` of an upsert
  /// always resolves with `ABORT`.
  ///
  /// A mode that `stopsAtFailingRow` inserts with `OR FAIL`: a failing row stops the statement
  /// and keeps the rows before it, so SQLite needs no statement journal (with `ABORT`, every
  /// multi-row INSERT journals each page it touches to undo itself), and `changes()` then
  /// counts the rows before the failing one. The run's transaction is rolled back on any
  /// failure anyway. A mode with a key skips or updates rows on it, so the count does not
  /// locate the failure: it uses `ABORT` and replays the rows one at a time.
  static func insert(
    into table: Seeder.Table,
    fields: [Int],
    rows: Int,
    key: Seeder.Key?,
    rules: SeedModeRules,
    stage: String? = nil,
    onlyWhile marker: String? = nil
  ) -> String {
    let columns = fields.map { quoteIdentifier(table.columns[$0].name) }
    let algorithm = rules.stopsAtFailingRow ? "OR FAIL" : "OR ABORT"
    let into = stage.map { "temp.\(quoteIdentifier($0))" } ?? "main.\(quoteIdentifier(table.name))"
    var sql =
      "INSERT \(algorithm) INTO \(into) "
      + "(\(columns.joined(separator: ", "))) "
    if let marker {
      // Fails ("no such table") once the transaction that made the marker is gone.
      sql +=
        "SELECT * FROM (VALUES \(tuples(columns.count, rows: rows))) "
        + "WHERE (SELECT count(*) FROM temp.\(quoteIdentifier(marker))) >= 0"
    } else {
      sql += "VALUES " + tuples(columns.count, rows: rows)
    }
    // A staged load (sync) merges later; its stage has no key to conflict on.
    guard let key, stage == nil else { return sql }
    let target = zip(key.columns, key.collations).map { column, collation in
      quoteIdentifier(column) + collate(collation)
    }.joined(separator: ", ")
    let keyNames = Set(key.columns.map(Seeder.folded))
    let others = columns.indices.filter {
      !keyNames.contains(Seeder.folded(table.columns[fields[$0]].name))
    }.map { columns[$0] }
    if rules.keyConflict == .updateExisting, !others.isEmpty {
      let quotedTable = quoteIdentifier(table.name)
      sql +=
        " ON CONFLICT (\(target)) DO UPDATE SET "
        + others.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        + " WHERE "
        + others.map { "\(quotedTable).\($0) IS NOT excluded.\($0) COLLATE BINARY" }
        .joined(separator: " OR ")
    } else {
      sql += " ON CONFLICT (\(target)) DO NOTHING"
    }
    return sql
  }

  /// A temporary table `name` for the keys of one file, with the line each was read on.
  static func createKeyTable(_ name: String, key: Seeder.Key, of table: Seeder.Table) -> String {
    let columns = key.columns.enumerated().map { offset, column in
      let type = table.columnIndex(named: column).map { table.columns[$0].declaredType } ?? ""
      return "k\(offset) \(type)\(collate(key.collations[offset]))"
    }
    let primary = key.columns.indices.map { "k\($0)" }.joined(separator: ", ")
    return "CREATE TEMP TABLE \(quoteIdentifier(name)) (\(columns.joined(separator: ", ")), "
      + "line INTEGER NOT NULL, PRIMARY KEY (\(primary))) WITHOUT ROWID"
  }

  /// The INSERT of `rows` keys (of `width` columns, then the line) into key table `name`.
  static func insertKeys(into name: String, width: Int, rows: Int) -> String {
    "INSERT OR FAIL INTO temp.\(quoteIdentifier(name)) VALUES " + tuples(width + 1, rows: rows)
  }

  /// The line on which key table `name` first saw a key of `width` columns.
  static func firstLineOfKey(in name: String, width: Int) -> String {
    let condition = (0..<width).map { "k\($0) = ?" }.joined(separator: " AND ")
    return "SELECT line FROM temp.\(quoteIdentifier(name)) WHERE \(condition)"
  }

  /// Whether `parent` has a row whose `columns` equal the bound values.
  static func parentRowExists(in parent: String, columns: [String]) -> String {
    let condition = columns.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: " AND ")
    return "SELECT 1 FROM main.\(quoteIdentifier(parent)) WHERE \(condition) LIMIT 1"
  }

  /// `rows` tuples of `width` parameters: `(?,?),(?,?)`.
  private static func tuples(_ width: Int, rows: Int) -> String {
    let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ",") + ")"
    return Array(repeating: tuple, count: rows).joined(separator: ",")
  }

  private static func collate(_ collation: String?) -> String {
    collation.map { " COLLATE \(quoteIdentifier($0))" } ?? ""
  }
}
