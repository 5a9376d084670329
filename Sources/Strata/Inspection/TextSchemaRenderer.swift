/// The schema for a person at a terminal: facts first, then each table with its columns,
/// indexes, keys, checks and triggers; views; then strata's own tables.
struct TextSchemaRenderer {
  let schema: Schema
  let databaseName: String?

  func render() -> String {
    var lines: [String] = []
    lines += databaseLines()
    let counts = schema.counts
    lines.append("")
    lines.append(
      [
        plural(counts.tables, "table"), plural(counts.indexes, "index", "indexes"),
        plural(counts.views, "view"), plural(counts.triggers, "trigger"),
      ].joined(separator: ", ")
    )
    for table in schema.tables {
      lines.append("")
      lines += tableLines(table)
    }
    for view in schema.views {
      lines.append("")
      lines += viewLines(view)
    }
    if !schema.strataTables.isEmpty {
      lines.append("")
      if schema.selection.isEmpty {
        lines.append("strata's own tables")
        lines += alignedRows(
          [["", ""]]
            + schema.strataTables.map { [displayIdentifier($0.name), rowsText($0.rowCount)] },
          indent: "  "
        ).dropFirst()
      } else {
        for table in schema.strataTables {
          lines += tableLines(table)
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func databaseLines() -> [String] {
    let facts = schema.database
    var rows: [[String]] = []
    if let databaseName { rows.append(["Database", databaseName]) }
    rows.append(["SQLite", facts.sqliteVersion])
    rows.append([
      "Storage",
      "\(sizeText(facts.sizeBytes)): \(plural(Int(facts.pageCount), "page")) of "
        + "\(facts.pageSize) bytes, \(facts.freelistCount) free",
    ])
    rows.append([
      "Format",
      "\(facts.encoding), journal mode \(facts.journalMode), auto_vacuum \(facts.autoVacuum)",
    ])
    rows.append([
      "Header", "user_version \(facts.userVersion), application_id \(facts.applicationID)",
    ])
    rows.append(["Migrations", migrationText()])
    return alignedRows([["", ""]] + rows).dropFirst().map { $0 }
  }

  private func migrationText() -> String {
    guard let state = schema.migrations else {
      return "none recorded (no strata_migrations table)"
    }
    var text = "version \(state.currentVersion), \(state.appliedCount) applied"
    if let pending = state.pendingCount, let directory = state.migrationsDirectory {
      text += ", \(pending) pending in \(directory)"
    } else {
      text += " (no migrations folder to count pending ones)"
    }
    return text
  }

  private func tableLines(_ table: Schema.Table) -> [String] {
    var lines: [String] = []
    var heading: String
    switch table.kind {
    case .virtual:
      heading =
        "VIRTUAL TABLE \(displayIdentifier(table.name)) USING \(table.module ?? "?")"
        + "(\(table.moduleArguments ?? ""))"
    case .shadow:
      heading = "SHADOW TABLE \(displayIdentifier(table.name))"
    case .table:
      heading = "TABLE \(displayIdentifier(table.name))"
    }
    heading += " (" + ([rowsText(table.rowCount)] + table.options).joined(separator: ", ") + ")"
    lines.append(heading)
    if !table.columns.isEmpty {
      var rows = [["COLUMN", "TYPE", "AFFINITY", "NULL", "DEFAULT", "KEY", "NOTES"]]
      for column in table.columns {
        rows.append([
          displayIdentifier(column.name),
          column.declaredType,
          column.affinity.rawValue,
          column.notNull ? "no" : "yes",
          column.defaultValue ?? "",
          table.keyMarkers(for: column).joined(separator: ", "),
          table.notes(for: column).joined(separator: "; "),
        ])
      }
      lines += alignedRows(rows, indent: "  ")
    }
    for index in table.indexes {
      var line = "  " + (index.unique ? "UNIQUE INDEX " : "INDEX ") + displayIdentifier(index.name)
      line += " " + index.columnsText
      if let condition = index.partialWhere { line += " WHERE \(condition)" }
      if index.origin != .created { line += "  [\(index.originText)]" }
      lines.append(line)
    }
    for key in table.foreignKeys {
      lines.append("  FOREIGN KEY " + key.text)
    }
    for check in table.checks {
      let name = check.name.map { "CONSTRAINT \(displayIdentifier($0)) " } ?? ""
      lines.append("  " + name + check.sql)
    }
    for trigger in schema.triggers(on: table.name) {
      lines += triggerLines(trigger)
    }
    if !table.shadowTables.isEmpty {
      lines.append("  shadow tables:")
      lines += alignedRows(
        [["", ""]]
          + table.shadowTables.map { [displayIdentifier($0.name), rowsText($0.rowCount)] },
        indent: "    "
      ).dropFirst()
    }
    return lines
  }

  private func viewLines(_ view: Schema.View) -> [String] {
    var lines = ["VIEW \(displayIdentifier(view.name))"]
    if !view.columns.isEmpty {
      var rows = [["COLUMN", "TYPE"]]
      rows += view.columns.map { [displayIdentifier($0.name), $0.declaredType] }
      lines += alignedRows(rows, indent: "  ")
    }
    lines += indented(view.sql, by: "  ")
    for trigger in schema.triggers(on: view.name) {
      lines += triggerLines(trigger)
    }
    return lines
  }

  private func triggerLines(_ trigger: Schema.Trigger) -> [String] {
    ["  TRIGGER \(displayIdentifier(trigger.name)) \(trigger.timing) \(trigger.event)"]
      + indented(trigger.sql, by: "    ")
  }

  private func indented(_ sql: String, by indent: String) -> [String] {
    sql.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var text = indent + line
      while text.last == " " || text.last == "\r" { text.removeLast() }
      return text
    }
  }
}

func plural(_ count: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
  "\(count) " + (count == 1 ? singular : (pluralForm ?? singular + "s"))
}
