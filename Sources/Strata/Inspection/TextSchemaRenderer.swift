/// The schema for a person at a terminal: facts first, then each table with its columns,
/// indexes, keys, checks and triggers; views; then strata's own tables. Every value from the
/// database goes through `escaping` where it is printed.
struct TextSchemaRenderer {
  let schema: Schema
  let databaseName: String?
  let escaping: SchemaEscaping

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
            + schema.strataTables.map { [name($0.name), rowsText($0.rowCount)] },
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
    rows.append(["SQLite", shown(facts.sqliteVersion)])
    rows.append([
      "Storage",
      "\(sizeText(facts.sizeBytes)): \(plural(Int(facts.pageCount), "page")) of "
        + "\(facts.pageSize) bytes, \(facts.freelistCount) free",
    ])
    rows.append([
      "Format",
      "\(shown(facts.encoding)), journal mode \(shown(facts.journalMode)), "
        + "auto_vacuum \(shown(facts.autoVacuum))",
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
    var text = "version \(shown(state.currentVersion.description)), \(state.appliedCount) applied"
    if let pending = state.pendingCount, let directory = state.migrationsDirectory {
      text += ", \(pending) pending in \(shown(directory))"
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
        "VIRTUAL TABLE \(name(table.name)) USING \(table.module.map(shown) ?? "?")"
        + "(\(table.moduleArguments.map(shown) ?? ""))"
    case .shadow:
      heading = "SHADOW TABLE \(name(table.name))"
    case .table:
      heading = "TABLE \(name(table.name))"
    }
    heading += " (" + ([rowsText(table.rowCount)] + table.options).joined(separator: ", ") + ")"
    lines.append(heading)
    if !table.columns.isEmpty {
      var rows = [["COLUMN", "TYPE", "AFFINITY", "NULL", "DEFAULT", "KEY", "NOTES"]]
      for column in table.columns {
        rows.append([
          name(column.name),
          shown(column.declaredType),
          column.affinity.rawValue,
          column.notNull ? "no" : "yes",
          column.defaultValue.map(shown) ?? "",
          table.keyMarkers(for: column).joined(separator: ", "),
          table.notes(for: column, shown: shown).joined(separator: "; "),
        ])
      }
      lines += alignedRows(rows, indent: "  ")
    }
    for index in table.indexes {
      var line = "  " + (index.unique ? "UNIQUE INDEX " : "INDEX ") + name(index.name)
      line += " " + index.columnsText(shown: shown)
      if let condition = index.partialWhere { line += " WHERE \(shown(condition))" }
      if index.origin != .created { line += "  [\(index.originText)]" }
      lines.append(line)
    }
    for key in table.foreignKeys {
      lines.append("  FOREIGN KEY " + key.text(shown: shown))
    }
    for check in table.checks {
      let constraint = check.name.map { "CONSTRAINT \(name($0)) " } ?? ""
      lines.append("  " + constraint + "CHECK (\(shown(check.expression)))")
    }
    for trigger in schema.triggers(on: table.name) {
      lines += triggerLines(trigger)
    }
    if !table.shadowTables.isEmpty {
      lines.append("  shadow tables:")
      lines += alignedRows(
        [["", ""]]
          + table.shadowTables.map { [name($0.name), rowsText($0.rowCount)] },
        indent: "    "
      ).dropFirst()
    }
    return lines
  }

  private func viewLines(_ view: Schema.View) -> [String] {
    var lines = ["VIEW \(name(view.name))"]
    if !view.columns.isEmpty {
      var rows = [["COLUMN", "TYPE"]]
      rows += view.columns.map { [name($0.name), shown($0.declaredType)] }
      lines += alignedRows(rows, indent: "  ")
    }
    lines += indented(escaping.statement(view.sql), by: "  ")
    for trigger in schema.triggers(on: view.name) {
      lines += triggerLines(trigger)
    }
    return lines
  }

  private func triggerLines(_ trigger: Schema.Trigger) -> [String] {
    ["  TRIGGER \(name(trigger.name)) \(shown(trigger.timing)) \(shown(trigger.event))"]
      + indented(escaping.statement(trigger.sql), by: "    ")
  }

  /// A value from the database as it is printed.
  private func shown(_ text: String) -> String { escaping.text(text) }

  /// A name from the database as it is printed: escaped, then quoted when SQL would need it.
  private func name(_ text: String) -> String { displayIdentifier(escaping.text(text)) }

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
