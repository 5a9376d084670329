/// GitHub-flavoured Markdown, as tbls writes it: the database's facts, a table of tables, the
/// ER diagram (Mermaid), then one section per table with its columns, indexes, foreign keys,
/// checks, triggers and `CREATE` statement; then views. Every value from the database goes
/// through `escaping` where it is printed.
struct MarkdownSchemaRenderer {
  let schema: Schema
  let databaseName: String?
  let escaping: SchemaEscaping

  func render() -> String {
    var lines: [String] = []
    lines.append("# " + (databaseName.map { "Schema of \(code($0))" } ?? "Schema"))
    lines.append("")
    lines += facts()
    lines.append("")
    lines.append("## Tables")
    lines.append("")
    var rows = [["Name", "Type", "Columns", "Rows", "Options"]]
    for table in schema.tables {
      rows.append([
        code(shown(table.name)),
        table.kind == .virtual ? "virtual (\(table.module.map(shown) ?? "?"))" : "table",
        String(table.columns.count), table.rowCount.map(String.init) ?? "?",
        table.options.joined(separator: ", "),
      ])
    }
    for view in schema.views {
      rows.append([code(shown(view.name)), "view", String(view.columns.count), "", ""])
    }
    lines += markdownTable(rows, rightAligned: [2, 3])
    if !schema.tables.isEmpty {
      lines.append("")
      lines.append("## Relations")
      lines.append("")
      lines.append("```mermaid")
      lines += MermaidSchemaRenderer(schema: schema, escaping: escaping).render()
        .split(separator: "\n").map(String.init)
      lines.append("```")
    }
    for table in schema.tables {
      lines.append("")
      lines += section(table, level: "##")
    }
    for view in schema.views {
      lines.append("")
      lines += viewSection(view)
    }
    if !schema.strataTables.isEmpty {
      lines.append("")
      lines.append("## strata's own tables")
      lines.append("")
      if schema.selection.isEmpty {
        lines += markdownTable(
          [["Name", "Rows"]]
            + schema.strataTables.map {
              [code(shown($0.name)), $0.rowCount.map(String.init) ?? "?"]
            },
          rightAligned: [1]
        )
      } else {
        for table in schema.strataTables {
          lines += section(table, level: "###")
          lines.append("")
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func facts() -> [String] {
    let facts = schema.database
    var rows = [["Fact", "Value"]]
    rows.append(["SQLite", shown(facts.sqliteVersion)])
    rows.append([
      "Size",
      "\(sizeText(facts.sizeBytes)) (\(facts.pageCount) pages of \(facts.pageSize) bytes, \(facts.freelistCount) free)",
    ])
    rows.append(["Encoding", shown(facts.encoding)])
    rows.append(["Journal mode", shown(facts.journalMode)])
    rows.append(["Auto-vacuum", shown(facts.autoVacuum)])
    rows.append(["user_version", String(facts.userVersion)])
    rows.append(["application_id", String(facts.applicationID)])
    if let state = schema.migrations {
      var text =
        "version \(shown(state.currentVersion.description)), \(state.appliedCount) applied"
      if let pending = state.pendingCount, let directory = state.migrationsDirectory {
        text += ", \(pending) pending in \(code(shown(directory)))"
      }
      rows.append(["Migrations", text])
    } else {
      rows.append(["Migrations", "none recorded"])
    }
    return markdownTable(rows)
  }

  private func section(_ table: Schema.Table, level: String) -> [String] {
    var lines = ["\(level) \(code(shown(table.name)))", ""]
    let module = "\(table.module.map(shown) ?? "?")(\(table.moduleArguments.map(shown) ?? ""))"
    var summary = [
      table.kind == .virtual ? "Virtual table using \(code(module))" : "Table",
      rowsText(table.rowCount),
    ]
    summary += table.options.map(code)
    lines.append(summary.joined(separator: " · "))
    lines.append("")
    lines.append("\(level)# Columns")
    lines.append("")
    var rows = [["#", "Name", "Type", "Affinity", "Nullable", "Default", "Key", "Notes"]]
    for column in table.columns {
      rows.append([
        String(column.position), code(shown(column.name)), shown(column.declaredType),
        column.affinity.rawValue, column.notNull ? "false" : "true",
        column.defaultValue.map { code(shown($0)) } ?? "",
        table.keyMarkers(for: column).joined(separator: ", "),
        table.notes(for: column, shown: shown).map(code).joined(separator: ", "),
      ])
    }
    lines += markdownTable(rows, rightAligned: [0])
    if !table.indexes.isEmpty {
      lines += ["", "\(level)# Indexes", ""]
      var rows = [["Name", "Columns", "Unique", "Origin", "Where"]]
      for index in table.indexes {
        rows.append([
          code(shown(index.name)), code(index.columnsText(shown: shown)),
          index.unique ? "yes" : "no", index.originText,
          index.partialWhere.map { code(shown($0)) } ?? "",
        ])
      }
      lines += markdownTable(rows)
    }
    if !table.foreignKeys.isEmpty {
      lines += ["", "\(level)# Foreign keys", ""]
      var rows = [["Columns", "References", "On delete", "On update"]]
      for key in table.foreignKeys {
        rows.append([
          code(key.columns.map(shown).joined(separator: ", ")),
          code(
            "\(shown(key.parentTable)) (\(key.parentColumns.map(shown).joined(separator: ", ")))"
          ),
          shown(key.onDelete), shown(key.onUpdate),
        ])
      }
      lines += markdownTable(rows)
    }
    if !table.checks.isEmpty {
      lines += ["", "\(level)# Checks", ""]
      var rows = [["Name", "Column", "Check"]]
      for check in table.checks {
        rows.append([
          check.name.map { code(shown($0)) } ?? "", check.column.map { code(shown($0)) } ?? "",
          code("CHECK (\(shown(check.expression)))"),
        ])
      }
      lines += markdownTable(rows)
    }
    let triggers = schema.triggers(on: table.name)
    if !triggers.isEmpty {
      lines += ["", "\(level)# Triggers", ""]
      var rows = [["Name", "When"]]
      rows += triggers.map { [code(shown($0.name)), "\(shown($0.timing)) \(shown($0.event))"] }
      lines += markdownTable(rows)
    }
    if !table.shadowTables.isEmpty {
      lines += ["", "\(level)# Shadow tables", ""]
      var rows = [["Name", "Rows"]]
      rows += table.shadowTables.map {
        [code(shown($0.name)), $0.rowCount.map(String.init) ?? "?"]
      }
      lines += markdownTable(rows, rightAligned: [1])
    }
    lines += ["", "\(level)# SQL", ""]
    lines += fenced(
      ([table.sql] + table.indexes.compactMap(\.sql) + triggers.map(\.sql))
        .map(escaping.statement)
    )
    return lines
  }

  private func viewSection(_ view: Schema.View) -> [String] {
    var lines = ["## \(code(shown(view.name)))", "", "View", ""]
    if !view.columns.isEmpty {
      lines += ["### Columns", ""]
      var rows = [["#", "Name", "Type"]]
      rows += view.columns.map {
        [String($0.position), code(shown($0.name)), shown($0.declaredType)]
      }
      lines += markdownTable(rows, rightAligned: [0])
      lines.append("")
    }
    let triggers = schema.triggers(on: view.name)
    if !triggers.isEmpty {
      lines += ["### Triggers", ""]
      lines += markdownTable(
        [["Name", "When"]]
          + triggers.map { [code(shown($0.name)), "\(shown($0.timing)) \(shown($0.event))"] }
      )
      lines.append("")
    }
    lines += ["### SQL", ""]
    lines += fenced(([view.sql] + triggers.map(\.sql)).map(escaping.statement))
    return lines
  }

  /// A value from the database as it is printed, before it is put in a code span.
  private func shown(_ text: String) -> String { escaping.text(text) }

  /// A ```sql block, fenced with more backticks than the statements contain.
  private func fenced(_ statements: [String]) -> [String] {
    let body = statements.map { $0.trimmingSQLSpace() + ";" }.joined(separator: "\n\n")
    let fence = String(repeating: "`", count: max(3, longestRun(of: "`", in: body) + 1))
    return [fence + "sql"]
      + body.split(separator: "\n", omittingEmptySubsequences: false).map(
        String.init
      ) + [fence]
  }
}

/// A GitHub table; cells have `|` escaped and line breaks turned into spaces.
func markdownTable(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
  guard let header = rows.first else { return [] }
  func cell(_ text: String) -> String {
    // Most cells have neither: checked over the bytes, before Foundation searches the text.
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == 0x0A }) else { return text }
    return text.replacingOccurrences(of: "|", with: "\\|")
      .replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
  }
  var lines = ["| " + header.map(cell).joined(separator: " | ") + " |"]
  lines.append(
    "|"
      + header.indices.map { rightAligned.contains($0) ? " ---: " : " --- " }.joined(separator: "|")
      + "|"
  )
  for row in rows.dropFirst() {
    lines.append("| " + row.map(cell).joined(separator: " | ") + " |")
  }
  return lines
}

/// An inline code span that shows `text` exactly, backticks included.
func code(_ text: String) -> String {
  // A line break and a backtick are looked for over the bytes first: most text has neither.
  let flat =
    text.utf8.contains(0x0A)
    ? text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
    : text
  let run = longestRun(of: "`", in: flat)
  let fence = String(repeating: "`", count: run + 1)
  let padded = run > 0 || flat.hasPrefix(" ") || flat.hasSuffix(" ") ? " \(flat) " : flat
  return fence + padded + fence
}

private func longestRun(of character: Character, in text: String) -> Int {
  if let byte = character.asciiValue, !text.utf8.contains(byte) { return 0 }
  var longest = 0
  var current = 0
  for each in text {
    current = each == character ? current + 1 : 0
    longest = max(longest, current)
  }
  return longest
}
