/// One statement of a generated migration, with the comment lines written before it and the
/// table it changes (lower-cased desired name), so that a check that fails on it can tell which
/// table's plan to change.
struct PlannedStatement: Hashable {
  var sql: String
  /// Comment lines before the statement, without `-- ` (a lint directive is one).
  var comments: [String] = []
  /// The table the statement changes, when it changes one.
  var table: String?
}

/// SQLite's table rebuild (lang_altertable.html §7) for one table, as the statements of a
/// migration that strata runs with foreign keys off and `foreign_key_check` before its commit:
/// a new table of the desired definition, the rows copied by column name (the rowid too), the
/// AUTOINCREMENT counter carried over, the old table dropped and the new one renamed in. The
/// indexes, triggers and views of the table are the planner's: it drops those that would break
/// before, and creates the desired ones after.
struct TableRebuild {
  let pair: TablePair
  /// A name no table, view or index of either schema has.
  let temporaryName: String

  func statements(reasons: [String]) -> [PlannedStatement] {
    let name = pair.desired.name
    let table = quoteIdentifier(name)
    let temporary = quoteIdentifier(temporaryName)
    let key = asciiLowercased(name)
    var columns: [(to: String, from: String)] = []
    var nullsStop: [String] = []
    let names = pair.columnNames
    // A generated column that becomes a plain one keeps the values it computed (they can be
    // read like any other); a column that is generated in the desired table computes its own.
    for column in pair.current.columns {
      guard let new = names[asciiLowercased(column.name)],
        let target = pair.desired.column(named: new), target.generated == nil
      else { continue }
      // A column that becomes NOT NULL takes its DEFAULT where it held NULL (without one, a
      // NULL stops the migration, which then changes nothing).
      let value =
        target.notNull && !column.notNull
        ? target.defaultValue.map { "coalesce(\(quoteIdentifier(column.name)), \($0))" } : nil
      if target.notNull, !column.notNull, target.defaultValue == nil {
        nullsStop.append(displayIdentifier(new))
      }
      columns.append((quoteIdentifier(new), value ?? quoteIdentifier(column.name)))
    }
    if let rowid = rowidName() { columns.insert((rowid, rowid), at: 0) }
    var statements = [
      PlannedStatement(
        sql: TableText(pair.desired.sql).renamed(to: temporaryName),
        comments: ["Rebuild \(displayIdentifier(name)): " + reasons.joined(separator: "; ") + "."]
          + marks(),
        table: key
      )
    ]
    if !columns.isEmpty {
      statements.append(
        PlannedStatement(
          sql: "INSERT INTO \(temporary) (\(columns.map(\.to).joined(separator: ", ")))\n"
            + "  SELECT \(columns.map(\.from).joined(separator: ", ")) FROM \(table)",
          comments: nullsStop.isEmpty
            ? []
            : [
              "A NULL in \(nullsStop.joined(separator: ", ")) stops this migration (nothing is "
                + "changed): give the column a DEFAULT, or fill those rows first."
            ],
          table: key
        )
      )
    }
    if pair.current.autoincrement, pair.desired.autoincrement {
      // The counter may be above the largest key copied (rows deleted since): keep it.
      let allow = "strata:allow data-with-schema-change"
      statements += [
        PlannedStatement(
          sql: "DELETE FROM sqlite_sequence WHERE name = \(quoteLiteral(temporaryName))",
          comments: ["Keep the AUTOINCREMENT counter of \(displayIdentifier(name)).", allow],
          table: key
        ),
        PlannedStatement(
          sql: "INSERT INTO sqlite_sequence (name, seq)\n"
            + "  SELECT \(quoteLiteral(temporaryName)), seq FROM sqlite_sequence "
            + "WHERE name = \(quoteLiteral(name))",
          comments: [allow],
          table: key
        ),
      ]
    }
    statements += [
      PlannedStatement(sql: "DROP TABLE \(table)", table: key),
      PlannedStatement(sql: "ALTER TABLE \(temporary) RENAME TO \(table)", table: key),
    ]
    return statements
  }

  /// The comments before the new table: what the rebuild loses (dropped columns, a type that
  /// converts values, a column that becomes generated), each marked destructive, and the
  /// `strata lint` directives for what its rules see in a rebuild, which compares the two
  /// tables' plain columns by name: a column gone (dropped, renamed, become generated) is a
  /// `drop-column`, one new that is NOT NULL without a default (renamed, or a generated one
  /// become plain) a `not-null-without-default`.
  private func marks() -> [String] {
    let shown = displayIdentifier(pair.desired.name)
    var marks = pair.droppedColumns.map { column in
      "Destructive: drops column \(shown).\(displayIdentifier(column.name)) and its values."
    }
    marks += TypeNarrowing.losses(pair).map { "Destructive: \($0)." }
    for (old, new) in pair.columnRenames.sorted(by: { $0.key < $1.key }) {
      let was = pair.current.column(named: old)?.name ?? old
      marks.append(
        "Renames column \(shown).\(displayIdentifier(was)) to \(displayIdentifier(new)): its "
          + "values are copied."
      )
    }
    let before = Set(
      pair.current.columns.filter { $0.generated == nil }.map { asciiLowercased($0.name) }
    )
    let plain = pair.desired.columns.filter { $0.generated == nil }
    let after = Set(plain.map { asciiLowercased($0.name) })
    var rules: [String] = []
    if !before.subtracting(after).isEmpty { rules.append(LintRule.dropColumn.rawValue) }
    if plain.contains(where: { column in
      !before.contains(asciiLowercased(column.name)) && column.notNull && !column.isRowIDAlias
        && (column.defaultValue.map { asciiLowercased($0.trimmingSQLSpace()) == "null" } ?? true)
    }) {
      rules.append(LintRule.notNullWithoutDefault.rawValue)
    }
    if !rules.isEmpty { marks.append("strata:allow " + rules.joined(separator: ", ")) }
    return marks
  }

  /// The name to copy the rowid by, when both tables have one and the desired table has no
  /// column that is it (an INTEGER PRIMARY KEY, copied by name): `rowid`, or `_rowid_` or `oid`
  /// when a column takes that name.
  private func rowidName() -> String? {
    guard !pair.current.withoutRowID, !pair.desired.withoutRowID,
      !pair.desired.columns.contains(where: \.isRowIDAlias)
    else { return nil }
    let taken = Set((pair.current.columns + pair.desired.columns).map { asciiLowercased($0.name) })
    return ["rowid", "_rowid_", "oid"].first { !taken.contains($0) }
  }
}
