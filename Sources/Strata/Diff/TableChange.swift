/// How a table both schemas have gets to its desired definition: unchanged, a few `ALTER
/// TABLE` statements, or SQLite's 12-step rebuild (lang_altertable.html §7) when `ALTER TABLE`
/// cannot make the change.
enum TableChange {
  case unchanged
  /// `ALTER TABLE … RENAME COLUMN`, `DROP COLUMN`, `ADD COLUMN`, in that order.
  case alter([PlannedStatement], summary: [String])
  /// A new table of the desired definition, the rows copied, the old table dropped, the new
  /// one renamed in; `reasons` says why `ALTER TABLE` could not do it.
  case rebuild(reasons: [String])

  /// The change for `pair`, judged from the two definitions.
  ///
  /// - Parameters:
  ///   - sqliteVersion: the oldest SQLite the migration runs on.
  ///   - forcedRebuild: rebuild even if `ALTER TABLE` looks enough (the check of an earlier
  ///     plan found it was not).
  ///   - referencedColumns: lower-cased names of the table's columns other tables' foreign keys
  ///     reference, which `DROP COLUMN` refuses.
  static func judge(
    _ pair: TablePair,
    sqliteVersion: Int32,
    forcedRebuild: Bool,
    referencedColumns: Set<String>
  ) -> TableChange {
    let table = quoteIdentifier(pair.desired.name)
    let shown = displayIdentifier(pair.desired.name)
    let renamed = renamedCurrent(pair)
    let differences = SchemaComparison.compare(pair.desired, renamed).filter {
      $0.object != .index
    }
    let added = pair.addedColumns
    let dropped = pair.droppedColumns
    let renames = pair.columnRenames
    if differences.isEmpty, renames.isEmpty, !forcedRebuild { return .unchanged }
    var reasons: [String] = []
    if forcedRebuild { reasons.append("ALTER TABLE does not give its desired definition") }
    // One reason per column, its changed facets together: "column age: type TEXT → INTEGER".
    var facets: [(subject: String, changes: [String])] = []
    for difference in differences where difference.change == .changed {
      let subject =
        difference.object == .column ? "column \(difference.name.dropFirst(shown.count + 1))" : ""
      // An untyped column's type is empty: say so.
      func value(_ value: String?) -> String {
        guard let value else { return "none" }
        return difference.aspect == "type" && value.trimmingSQLSpace().isEmpty ? "untyped" : value
      }
      let change =
        "\(difference.aspect ?? "definition") \(value(difference.actual)) → "
        + value(difference.expected)
      if let index = facets.firstIndex(where: { $0.subject == subject && !subject.isEmpty }) {
        facets[index].changes.append(change)
      } else {
        facets.append((subject, [change]))
      }
    }
    reasons += facets.map { facet in
      (facet.subject.isEmpty ? "" : facet.subject + ": ") + facet.changes.joined(separator: ", ")
    }
    if !sameKeys(renamed, pair.desired, added: added, dropped: dropped) {
      reasons.append("its keys, foreign keys or checks change")
    }
    let desiredText = TableText(pair.desired.sql)
    let sharedCount = pair.desired.columns.count - added.count
    for column in pair.desired.columns.prefix(sharedCount)
    where added.contains(where: { $0.name == column.name }) {
      reasons.append("the new column \(displayIdentifier(column.name)) goes before existing ones")
    }
    for column in added {
      if let problem = addProblem(column, desiredText.column(column.name)) {
        reasons.append("the new column \(displayIdentifier(column.name)) \(problem)")
      }
    }
    for column in dropped {
      if let problem = dropProblem(column, pair.current, referencedColumns, sqliteVersion) {
        reasons.append("the column \(displayIdentifier(column.name)) \(problem)")
      }
    }
    if !renames.isEmpty, sqliteVersion < 3_025_000 {
      reasons.append("RENAME COLUMN needs SQLite 3.25")
    }
    if added.isEmpty, dropped.isEmpty, renames.isEmpty, reasons.isEmpty {
      reasons.append("its definition changes")
    }
    guard reasons.isEmpty else {
      // The rebuild also makes the changes ALTER TABLE could have made: say them too.
      let said = reasons.joined(separator: "; ")
      for (old, new) in renames.sorted(by: { $0.key < $1.key }) {
        let name = pair.current.column(named: old)?.name ?? old
        reasons.append("renames column \(displayIdentifier(name)) to \(displayIdentifier(new))")
      }
      for column in dropped where !said.contains("the column \(displayIdentifier(column.name)) ") {
        reasons.append("drops column \(displayIdentifier(column.name))")
      }
      for column in added where !said.contains("the new column \(displayIdentifier(column.name)) ")
      {
        reasons.append("adds column \(displayIdentifier(column.name))")
      }
      return .rebuild(reasons: reasons)
    }
    var statements: [PlannedStatement] = []
    var summary: [String] = []
    let key = asciiLowercased(pair.desired.name)
    for column in pair.current.columns {
      guard let new = renames[asciiLowercased(column.name)] else { continue }
      statements.append(
        PlannedStatement(
          sql: "ALTER TABLE \(table) RENAME COLUMN \(quoteIdentifier(column.name)) TO "
            + quoteIdentifier(new),
          table: key
        )
      )
      summary.append(
        "rename column \(shown).\(displayIdentifier(column.name)) to \(displayIdentifier(new))"
      )
    }
    for column in dropped {
      statements.append(
        PlannedStatement(
          sql: "ALTER TABLE \(table) DROP COLUMN \(quoteIdentifier(column.name))",
          comments: [
            "Destructive: drops column \(shown).\(displayIdentifier(column.name)) and its values.",
            "strata:allow drop-column",
          ],
          table: key
        )
      )
      summary.append("drop column \(shown).\(displayIdentifier(column.name))")
    }
    for column in added {
      let text = desiredText.column(column.name)?.text ?? quoteIdentifier(column.name)
      statements.append(
        PlannedStatement(sql: "ALTER TABLE \(table) ADD COLUMN \(text)", table: key)
      )
      summary.append("add column \(shown).\(displayIdentifier(column.name))")
    }
    return .alter(statements, summary: summary)
  }

  /// The current table as it reads after the migration's renames: its name, its columns and
  /// the tables and columns its foreign keys reference as the desired schema calls them, so
  /// that comparing it with the desired table leaves only the changes a migration must make.
  static func renamedCurrent(_ pair: TablePair) -> Schema.Table {
    let renames = pair.renames
    let old = pair.current.name
    var table = pair.current
    table.name = pair.desired.name
    table.columns = table.columns.map { column in
      var column = column
      column.name = renames.column(old, column.name)
      return column
    }
    table.foreignKeys = table.foreignKeys.map { key in
      var key = key
      key.columns = key.columns.map { renames.column(old, $0) }
      key.parentColumns = key.parentColumns.map { renames.column(key.parentTable, $0) }
      key.parentTable = renames.table(key.parentTable)
      return key
    }
    let ownNames = (renames.columns[asciiLowercased(old)] ?? [:])
    table.checks = table.checks.map { check in
      var check = check
      check.column = check.column.map { renames.column(old, $0) }
      check.expression = renamingIdentifiers(in: check.expression, ownNames)
      return check
    }
    table.indexes = table.indexes.map { index in
      var index = index
      index.columns = index.columns.map { column in
        var column = column
        column.name = column.name.map { renames.column(old, $0) }
        return column
      }
      return index
    }
    table.sql = renamingIdentifiers(
      in: table.sql,
      renames.tables.merging(ownNames) { table, _ in table }
    )
    return table
  }

  /// Whether the foreign keys, checks and key constraints stay as they are, apart from those
  /// of the columns added (which `ADD COLUMN` brings) and dropped (which `DROP COLUMN` takes).
  private static func sameKeys(
    _ current: Schema.Table,
    _ desired: Schema.Table,
    added: [Schema.Column],
    dropped: [Schema.Column]
  ) -> Bool {
    let addedNames = Set(added.map { asciiLowercased($0.name) })
    let droppedNames = Set(dropped.map { asciiLowercased($0.name) })
    func keys(_ table: Schema.Table, leavingOut names: Set<String>) -> [String] {
      table.foreignKeys.filter { key in
        !key.columns.contains { names.contains(asciiLowercased($0)) }
      }.map { normalizedSQL($0.text) }.sorted()
    }
    func checks(_ table: Schema.Table, leavingOut names: Set<String>) -> [String] {
      table.checks.filter { check in
        check.column.map { !names.contains(asciiLowercased($0)) } ?? true
      }.map { normalizedSQL($0.expression) }.sorted()
    }
    func constraintIndexes(_ table: Schema.Table) -> [String] {
      table.indexes.filter { $0.sql == nil }.map { index in
        "\(index.origin.rawValue) "
          + index.columns.map { asciiLowercased($0.name ?? "") }.joined(separator: ",")
      }.sorted()
    }
    return keys(current, leavingOut: droppedNames) == keys(desired, leavingOut: addedNames)
      && checks(current, leavingOut: droppedNames) == checks(desired, leavingOut: addedNames)
      && constraintIndexes(current) == constraintIndexes(desired)
  }

  /// Why `ALTER TABLE … ADD COLUMN` cannot add `column` (lang_altertable.html), or nil.
  private static func addProblem(_ column: Schema.Column, _ text: TableText.ColumnText?) -> String?
  {
    guard let text else { return "is not written as a plain column definition" }
    let defaultValue = column.defaultValue.map { $0.trimmingSQLSpace().uppercased() }
    if column.primaryKeyPosition > 0 || text.hasKeyConstraint {
      return "is part of a PRIMARY KEY or UNIQUE constraint"
    }
    if let value = defaultValue,
      ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"].contains(value) || value.hasPrefix("(")
    {
      return "has a DEFAULT that is not a constant"
    }
    if column.generated == .stored || text.isStored { return "is a STORED generated column" }
    if text.references, let value = defaultValue, value != "NULL" {
      return "references another table and has a DEFAULT other than NULL"
    }
    return nil
  }

  /// Why `ALTER TABLE … DROP COLUMN` cannot drop `column` (lang_altertable.html), or nil.
  private static func dropProblem(
    _ column: Schema.Column,
    _ table: Schema.Table,
    _ referenced: Set<String>,
    _ sqliteVersion: Int32
  ) -> String? {
    let name = asciiLowercased(column.name)
    if sqliteVersion < 3_035_000 { return "is dropped, and DROP COLUMN needs SQLite 3.35" }
    if column.primaryKeyPosition > 0 { return "is part of the PRIMARY KEY" }
    if table.indexes.contains(where: { index in
      index.sql == nil && index.columns.contains { $0.name.map(asciiLowercased) == name }
    }) {
      return "is part of a UNIQUE constraint"
    }
    if table.foreignKeys.contains(where: { $0.columns.contains { asciiLowercased($0) == name } }) {
      return "is a foreign key"
    }
    if referenced.contains(name) { return "is referenced by another table's foreign key" }
    if table.checks.contains(where: {
      $0.column.map(asciiLowercased) != name && mentions($0.expression, anyOf: [name])
    }) {
      return "is named in a CHECK constraint"
    }
    if table.columns.contains(where: {
      $0.generatedExpression.map { mentions($0, anyOf: [name]) } ?? false
    }) {
      return "is used by a generated column"
    }
    return nil
  }
}
