/// The statements a migration needs, with what they change.
struct PlannedMigration {
  var statements: [PlannedStatement] = []
  /// One line per change, for people: "add column person.email", "rebuild table pet (…)".
  var changes: [String] = []
  /// The changes that lose data (each also marked by a comment before its statement).
  var destructive: [String] = []
  /// Lower-cased desired names of the tables changed with `ALTER TABLE` rather than rebuilt.
  var alteredTables: Set<String> = []
  /// The tables both schemas have: current name, desired name, and the columns they share
  /// (current name, desired name), for the check that their rows survive.
  var keptTables: [(current: String, desired: String, columns: [(String, String)])] = []
  /// Lower-cased names of the tables the migration does not touch (their rows must not change).
  var untouchedTables: Set<String> = []
}

/// Plans the statements that take a database from one schema to another, as SQLite allows
/// them (lang_altertable.html): `ALTER TABLE` where it can make the change, the 12-step rebuild
/// where it cannot, and the views, triggers and indexes that the changes would break dropped
/// first and created again after.
struct SchemaChangePlanner {
  let current: Schema
  let desired: Schema
  let options: SchemaDiffOptions
  /// The oldest SQLite the migration runs on (`sqlite3_libversion_number`'s form).
  let sqliteVersion: Int32
  /// The desired schema's file and the line of each object, for messages.
  let desiredFile: String
  let desiredLine: (String) -> Int?
  /// Lower-cased desired names of tables to rebuild even where `ALTER TABLE` looked enough.
  var forcedRebuilds: Set<String> = []

  func plan() throws -> PlannedMigration {
    let currentTables = current.tables.filter { !isInternal($0.name) }
    let desiredTables = desired.tables.filter { !isInternal($0.name) }
    let renames = try SchemaRenames.validated(options.renames, currentTables, desiredTables)
    let desiredByName = SchemaComparison.keyed(desiredTables, \.name)
    var pairs: [TablePair] = []
    var dropped: [Schema.Table] = []
    var matched: Set<String> = []
    for table in currentTables {
      let target = asciiLowercased(renames.table(table.name))
      guard let wanted = desiredByName[target], Self.sameKind(table, wanted) else {
        dropped.append(table)
        continue
      }
      matched.insert(target)
      pairs.append(TablePair(current: table, desired: wanted, renames: renames))
    }
    let added = desiredTables.filter { !matched.contains(asciiLowercased($0.name)) }
      .sorted { (desiredLine($0.name) ?? 0) < (desiredLine($1.name) ?? 0) }
    try refuseDataLoss(pairs: pairs, dropped: dropped, added: added)

    var plan = PlannedMigration()
    var affected = Set(dropped.map { asciiLowercased($0.name) })
    var tableStatements: [PlannedStatement] = []
    var indexDrops: [PlannedStatement] = []
    var indexCreates: [PlannedStatement] = []
    // The indexes a rebuild creates again: the rebuild's line says so.
    var rebuiltIndexes: Set<PlannedStatement> = []
    let names = allNames()
    let referenced = referencedColumns(in: currentTables)
    for pair in pairs.sorted(by: { namesInOrder($0.desired.name, $1.desired.name) }) {
      let key = asciiLowercased(pair.desired.name)
      let change = TableChange.judge(
        pair,
        sqliteVersion: sqliteVersion,
        forcedRebuild: forcedRebuilds.contains(key),
        referencedColumns: referenced[asciiLowercased(pair.current.name)] ?? []
      )
      let shown = displayIdentifier(pair.desired.name)
      let (drops, creates) = indexChanges(pair, change)
      indexDrops += drops
      indexCreates += creates
      if case .rebuild = change { rebuiltIndexes.formUnion(creates) }
      switch change {
      case .unchanged:
        break
      case .alter(let statements, let summary):
        tableStatements += statements
        plan.changes += summary
        plan.alteredTables.insert(key)
      case .rebuild(let reasons):
        let temporary = Self.unusedName("new_\(pair.desired.name)", taken: names)
        tableStatements += TableRebuild(pair: pair, temporaryName: temporary)
          .statements(reasons: reasons)
        plan.changes.append("rebuild table \(shown) (\(reasons.joined(separator: "; ")))")
      }
      if case .unchanged = change, !pair.isRenamed {
        plan.untouchedTables.insert(key)
      } else if !Self.onlyAddsColumns(change) || pair.isRenamed {
        // A view or trigger over a table that only gains columns stays as it is.
        affected.formUnion([key, asciiLowercased(pair.current.name)])
      }
      let columns = pair.current.columns.compactMap { column in
        pair.columnNames[asciiLowercased(column.name)].map { (column.name, $0) }
      }
      plan.keptTables.append((pair.current.name, pair.desired.name, columns))
    }

    // Views and triggers that would break (or change) are dropped first and created after.
    let objects = ViewAndTriggerChanges(current: current, desired: desired, affected: affected)
    plan.statements += objects.triggerDrops + objects.viewDrops + indexDrops
    for table in dropped {
      let shown = displayIdentifier(table.name)
      plan.statements.append(
        PlannedStatement(
          sql: "DROP TABLE \(quoteIdentifier(table.name))",
          comments: ["Destructive: drops table \(shown) and its rows.", "strata:allow drop-table"],
          table: asciiLowercased(table.name)
        )
      )
      plan.changes.append("drop table \(shown)")
    }
    for pair in pairs where pair.isRenamed {
      plan.statements.append(
        PlannedStatement(
          sql: "ALTER TABLE \(quoteIdentifier(pair.current.name)) RENAME TO "
            + quoteIdentifier(pair.desired.name),
          table: asciiLowercased(pair.desired.name)
        )
      )
      plan.changes.append(
        "rename table \(displayIdentifier(pair.current.name)) to "
          + displayIdentifier(pair.desired.name)
      )
    }
    plan.statements += tableStatements
    for table in added {
      plan.statements.append(PlannedStatement(sql: table.sql, table: asciiLowercased(table.name)))
      plan.changes.append("create table \(displayIdentifier(table.name))")
      for index in table.indexes { if let sql = index.sql { indexCreates.append(.init(sql: sql)) } }
    }
    plan.statements += indexCreates + objects.viewCreates + objects.triggerCreates
    plan.changes +=
      ViewAndTriggerChanges.describe(
        "index",
        drops: indexDrops,
        creates: indexCreates.filter { !rebuiltIndexes.contains($0) }
      )
      + objects.summary
    plan.destructive = destructiveChanges(pairs: pairs, dropped: dropped)
    return plan
  }

  /// Refuses what would lose data unless allowed, and a new NOT NULL column without a DEFAULT.
  private func refuseDataLoss(
    pairs: [TablePair],
    dropped: [Schema.Table],
    added: [Schema.Table]
  ) throws {
    let destructive = destructiveChanges(pairs: pairs, dropped: dropped)
    if !options.allowsDestructive, !destructive.isEmpty {
      var renames: [SchemaRename] = []
      for old in dropped where old.kind == .table {
        for new in added where new.kind == .table {
          renames.append(SchemaRename(table: old.name, to: new.name))
        }
      }
      for pair in pairs {
        for old in pair.droppedColumns {
          for new in pair.addedColumns {
            renames.append(SchemaRename(table: pair.current.name, column: old.name, to: new.name))
          }
        }
      }
      throw DiffError.destructive(changes: destructive, renames: renames)
    }
    for pair in pairs where pair.desired.kind == .table {
      for column in pair.addedColumns
      where column.notNull && column.defaultValue == nil && column.generated == nil
        && !column.isRowIDAlias
      {
        throw DiffError.notNullWithoutDefault(
          table: pair.desired.name,
          column: column.name,
          file: desiredFile,
          line: desiredLine(pair.desired.name)
        )
      }
      for column in pair.addedColumns
      where column.defaultValue.map({ asciiLowercased($0.trimmingSQLSpace()) != "null" }) ?? false
        && pair.desired.indexes.contains(where: { index in
          index.unique && index.columns.count == 1 && index.columns[0].name == column.name
        })
      {
        throw DiffError.uniqueWithDefault(
          table: pair.desired.name,
          column: column.name,
          file: desiredFile,
          line: desiredLine(pair.desired.name)
        )
      }
    }
  }

  /// What the migration loses: dropped tables and columns, recreated virtual tables, narrowed
  /// column types, columns that become generated.
  private func destructiveChanges(pairs: [TablePair], dropped: [Schema.Table]) -> [String] {
    var changes: [String] = []
    for table in dropped {
      let shown = displayIdentifier(table.name)
      let replaced = desired.tables.contains { sameName($0.name, table.name) }
      changes.append(
        replaced
          ? "recreates \(table.kind == .virtual ? "virtual " : "")table \(shown), whose rows are lost"
          : "drops table \(shown)"
            + (table.rowCount.map { $0 > 0 ? " (\(rowsText($0)))" : "" } ?? "")
      )
    }
    for pair in pairs {
      for column in pair.droppedColumns {
        changes.append(
          "drops column \(displayIdentifier(pair.current.name)).\(displayIdentifier(column.name))"
        )
      }
      changes += TypeNarrowing.losses(pair)
    }
    return changes
  }

  /// The indexes of a table both schemas have that go (dropped before the table changes) and
  /// come (created after): all the desired ones of a rebuilt table; elsewhere those whose
  /// definition changes, or that name a dropped column.
  private func indexChanges(
    _ pair: TablePair,
    _ change: TableChange
  ) -> (drops: [PlannedStatement], creates: [PlannedStatement]) {
    let wanted = pair.desired.indexes.filter { $0.sql != nil }
    if case .rebuild = change { return ([], wanted.compactMap { $0.sql.map { .init(sql: $0) } }) }
    let renames = (pair.renames.columns[asciiLowercased(pair.current.name)] ?? [:])
      .merging(pair.renames.tables) { column, _ in column }
    let droppedNames = Set(pair.droppedColumns.map { asciiLowercased($0.name) })
    var kept: Set<String> = []
    var drops: [PlannedStatement] = []
    for index in pair.current.indexes {
      guard let sql = index.sql else { continue }
      let match = wanted.first { sameName($0.name, index.name) }
      if let match, let wantedSQL = match.sql,
        normalizedSQL(renamingIdentifiers(in: sql, renames)) == normalizedSQL(wantedSQL),
        !mentions(sql, anyOf: droppedNames)
      {
        kept.insert(asciiLowercased(index.name))
      } else {
        drops.append(PlannedStatement(sql: "DROP INDEX \(quoteIdentifier(index.name))"))
      }
    }
    let creates = wanted.filter { !kept.contains(asciiLowercased($0.name)) }.compactMap {
      $0.sql.map { PlannedStatement(sql: $0) }
    }
    return (drops, creates)
  }

  /// Lower-cased names of each table's columns (by lower-cased table name) that other tables'
  /// foreign keys reference, found in one pass over `tables`.
  private func referencedColumns(in tables: [Schema.Table]) -> [String: Set<String>] {
    var names: [String: Set<String>] = [:]
    for other in tables {
      for key in other.foreignKeys where !sameName(key.parentTable, other.name) {
        names[asciiLowercased(key.parentTable), default: []].formUnion(
          key.parentColumns.map(asciiLowercased)
        )
      }
    }
    return names
  }

  /// Every table, view and index name of both schemas, lower-cased.
  private func allNames() -> Set<String> {
    var names: Set<String> = []
    for schema in [current, desired] {
      for table in schema.allTables {
        names.insert(asciiLowercased(table.name))
        names.formUnion(table.indexes.map { asciiLowercased($0.name) })
      }
      names.formUnion(schema.views.map { asciiLowercased($0.name) })
    }
    return names
  }

  /// Whether `change` only adds columns with `ALTER TABLE … ADD COLUMN`.
  private static func onlyAddsColumns(_ change: TableChange) -> Bool {
    guard case .alter(let statements, _) = change else { return false }
    return statements.allSatisfy { $0.sql.contains(" ADD COLUMN ") && $0.comments.isEmpty }
  }

  /// `base`, or `base_2`, `base_3` … the first that is not in `taken`.
  static func unusedName(_ base: String, taken: Set<String>) -> String {
    var name = base
    var number = 2
    while taken.contains(asciiLowercased(name)) {
      name = "\(base)_\(number)"
      number += 1
    }
    return name
  }

  /// Both ordinary tables, or both virtual tables of the same module and arguments (anything
  /// else is the old table dropped and the new one created).
  private static func sameKind(_ a: Schema.Table, _ b: Schema.Table) -> Bool {
    guard a.kind == b.kind else { return false }
    guard a.kind == .virtual else { return true }
    return normalizedSQL("\(a.module ?? "")(\(a.moduleArguments ?? ""))")
      == normalizedSQL("\(b.module ?? "")(\(b.moduleArguments ?? ""))")
  }
}
