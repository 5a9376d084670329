/// Comparing one table: its columns, indexes, foreign keys, checks and definition.
extension SchemaComparison {
  static func compare(_ wanted: Schema.Table, _ found: Schema.Table) -> [SchemaDifference] {
    var result: [SchemaDifference] = []
    let table = displayIdentifier(found.name)
    func changed(_ aspect: String, _ expected: String, _ actual: String) {
      result.append(
        SchemaDifference(
          change: .changed,
          object: .table,
          name: table,
          aspect: aspect,
          expected: expected,
          actual: actual
        )
      )
    }
    if wanted.kind != found.kind { changed("kind", wanted.kind.rawValue, found.kind.rawValue) }
    if wanted.kind == .virtual || found.kind == .virtual {
      let a = "\(wanted.module ?? "")(\(wanted.moduleArguments ?? ""))"
      let b = "\(found.module ?? "")(\(found.moduleArguments ?? ""))"
      if normalizedSQL(a) != normalizedSQL(b) { changed("module", a, b) }
      return result
    }
    if wanted.withoutRowID != found.withoutRowID {
      changed("WITHOUT ROWID", yesNo(wanted.withoutRowID), yesNo(found.withoutRowID))
    }
    if (wanted.strict ?? false) != (found.strict ?? false) {
      changed("STRICT", yesNo(wanted.strict ?? false), yesNo(found.strict ?? false))
    }
    if wanted.autoincrement != found.autoincrement {
      changed("AUTOINCREMENT", yesNo(wanted.autoincrement), yesNo(found.autoincrement))
    }

    // Columns.
    let wantedColumns = keyed(wanted.columns, \.name)
    let foundColumns = keyed(found.columns, \.name)
    for column in wanted.columns where foundColumns[asciiLowercased(column.name)] == nil {
      result.append(
        SchemaDifference(
          change: .missing,
          object: .column,
          name: "\(table).\(displayIdentifier(column.name))",
          expected: columnSummary(column)
        )
      )
    }
    for column in found.columns where wantedColumns[asciiLowercased(column.name)] == nil {
      result.append(
        SchemaDifference(
          change: .unexpected,
          object: .column,
          name: "\(table).\(displayIdentifier(column.name))",
          actual: columnSummary(column)
        )
      )
    }
    for column in found.columns {
      guard let want = wantedColumns[asciiLowercased(column.name)] else { continue }
      let facets: [(String, String, String)] = [
        ("type", want.declaredType.uppercased(), column.declaredType.uppercased()),
        ("NOT NULL", yesNo(want.notNull), yesNo(column.notNull)),
        ("DEFAULT", want.defaultValue ?? "none", column.defaultValue ?? "none"),
        (
          "primary key position", String(want.primaryKeyPosition), String(column.primaryKeyPosition)
        ),
        (
          "generated", generatedText(want), generatedText(column)
        ),
        ("hidden", yesNo(want.hidden), yesNo(column.hidden)),
        (
          "COLLATE", (want.collation ?? "BINARY").uppercased(),
          (column.collation ?? "BINARY").uppercased()
        ),
      ]
      for (aspect, a, b) in facets where normalizedValue(a) != normalizedValue(b) {
        result.append(
          SchemaDifference(
            change: .changed,
            object: .column,
            name: "\(table).\(displayIdentifier(column.name))",
            aspect: aspect,
            expected: a,
            actual: b
          )
        )
      }
    }
    let sharedWanted = wanted.columns.map { asciiLowercased($0.name) }.filter {
      foundColumns[$0] != nil
    }
    let sharedFound = found.columns.map { asciiLowercased($0.name) }.filter {
      wantedColumns[$0] != nil
    }
    if sharedWanted != sharedFound {
      changed(
        "column order",
        wanted.columns.map { displayIdentifier($0.name) }.joined(separator: ", "),
        found.columns.map { displayIdentifier($0.name) }.joined(separator: ", ")
      )
    }

    // Indexes: by name, except those SQLite names itself (sqlite_autoindex_…), by definition.
    func indexKey(_ index: Schema.Index) -> String {
      index.sql == nil ? "\(index.originText) \(index.columnsText)" : asciiLowercased(index.name)
    }
    func indexName(_ index: Schema.Index) -> String {
      index.sql == nil
        ? "\(table) \(index.columnsText) [\(index.originText)]" : displayIdentifier(index.name)
    }
    let wantedIndexes = Dictionary(
      wanted.indexes.map { (indexKey($0), $0) },
      uniquingKeysWith: { first, _ in first }
    )
    let foundIndexes = Dictionary(
      found.indexes.map { (indexKey($0), $0) },
      uniquingKeysWith: { first, _ in first }
    )
    for key in Set(wantedIndexes.keys).union(foundIndexes.keys).sorted() {
      switch (wantedIndexes[key], foundIndexes[key]) {
      case (let want?, nil):
        result.append(
          SchemaDifference(
            change: .missing,
            object: .index,
            name: indexName(want),
            expected: indexSummary(want, on: found.name)
          )
        )
      case (nil, let have?):
        result.append(
          SchemaDifference(
            change: .unexpected,
            object: .index,
            name: indexName(have),
            actual: indexSummary(have, on: found.name)
          )
        )
      case (let want?, let have?):
        let a = normalizedSQL(indexSummary(want, on: found.name))
        let b = normalizedSQL(indexSummary(have, on: found.name))
        if a != b {
          result.append(
            SchemaDifference(
              change: .changed,
              object: .index,
              name: indexName(have),
              aspect: "definition",
              expected: indexSummary(want, on: found.name),
              actual: indexSummary(have, on: found.name)
            )
          )
        }
      default: break
      }
    }

    // Foreign keys and checks: as sets of definitions.
    result += compareSets(
      wanted.foreignKeys.map(\.text),
      found.foreignKeys.map(\.text),
      object: .foreignKey,
      table: table
    )
    result += compareSets(
      wanted.checks.map(\.sql),
      found.checks.map(\.sql),
      object: .check,
      table: table
    )
    // What the facets above do not cover (`UNIQUE ON CONFLICT REPLACE`, `NOT NULL ON CONFLICT
    // IGNORE`, `DEFERRABLE INITIALLY DEFERRED`) still changes what the table does: compare the
    // definitions themselves, layout, comments, quoting and case aside.
    if result.isEmpty, normalizedSQL(wanted.sql) != normalizedSQL(found.sql) {
      changed("definition", wanted.sql, found.sql)
    }
    return result
  }

  static func normalizedValue(_ text: String) -> String {
    normalizedSQL(text)
  }

  static func generatedText(_ column: Schema.Column) -> String {
    guard let generated = column.generated else { return "no" }
    return "\(generated.rawValue) AS (\(column.generatedExpression ?? "?"))"
  }

  static func columnSummary(_ column: Schema.Column) -> String {
    var parts = [column.declaredType.isEmpty ? "no type" : column.declaredType]
    if column.notNull { parts.append("NOT NULL") }
    if let value = column.defaultValue { parts.append("DEFAULT \(value)") }
    return parts.joined(separator: " ")
  }

  static func indexSummary(_ index: Schema.Index, on table: String) -> String {
    (index.unique ? "UNIQUE " : "") + "ON " + displayIdentifier(table) + " " + index.columnsText
      + (index.partialWhere.map { " WHERE \($0)" } ?? "")
  }
}
