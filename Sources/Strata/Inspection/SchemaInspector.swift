/// Reads a database's schema into a `Schema`: `sqlite_master` and the PRAGMAs `table_list`,
/// `table_xinfo`, `index_list`, `index_xinfo` and `foreign_key_list`, plus the statements' text
/// for what the PRAGMAs do not say (CHECK constraints, generation expressions, collations,
/// AUTOINCREMENT, index expressions and WHERE clauses, trigger timing).
///
/// Only reads, inside one read transaction, so the schema and row counts are one snapshot.
package struct SchemaInspector {
  /// The database read from, through the seam (SQLDatabase.swift); the inspector never writes
  /// to it.
  package let connection: any SQLDatabase

  /// An inspector of `connection`'s database (any open mode; it only reads).
  package init(_ connection: Connection) {
    self.connection = connection
  }

  /// An inspector of any engine behind the seam.
  package init(database: any SQLDatabase) {
    self.connection = database
  }

  /// Reads the schema.
  ///
  /// - Parameters:
  ///   - names: tables or views to inspect (with the triggers on them); empty for everything.
  ///     SQLite's rule applies: names match without ASCII case.
  ///   - migrations: the migrations folder, to count pending migrations.
  /// - Throws: `InspectionError.noSuchTable` for a name that is neither a table nor a view;
  ///   `SQLiteError` when SQLite fails (`isBusy` when another process holds a lock).
  package func inspect(
    tables names: [String] = [],
    migrations: MigrationSet? = nil
  ) throws -> Schema {
    guard connection.isAutocommit else { return try read(names, migrations) }
    return try connection.transaction(.deferred) { try read(names, migrations) }
  }

  struct Entry {
    let type: String
    let name: String
    let table: String
    let sql: String
  }

  private func read(_ names: [String], _ migrations: MigrationSet?) throws -> Schema {
    var entries: [Entry] = []
    let statement = try connection.prepare(
      "SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY rowid"
    )
    while try statement.step() {
      entries.append(
        Entry(
          type: statement.string(at: 0) ?? "",
          name: statement.string(at: 1) ?? "",
          table: statement.string(at: 2) ?? "",
          sql: statement.string(at: 3) ?? ""
        )
      )
    }
    let pragmas = try SchemaPragmas(connection)
    let listed = try pragmas.listedTables()
    let tableEntries = entries.filter { $0.type == "table" && !isInternal($0.name) }
    let virtualNames = tableEntries.filter { isVirtual($0.sql) }.map(\.name)
    var shadowOwner: [String: String] = [:]
    for entry in tableEntries {
      if let owner = shadowOwnerName(entry.name, listed: listed, virtualTables: virtualNames) {
        shadowOwner[entry.name] = owner
      }
    }
    let viewEntries = entries.filter { $0.type == "view" }

    // Which tables and views to read.
    var selection: [String] = []
    var wantedTables: Set<String> = []
    var wantedViews: Set<String> = []
    if names.isEmpty {
      wantedTables = Set(tableEntries.map(\.name))
      wantedViews = Set(viewEntries.map(\.name))
    } else {
      for name in names {
        let match: (Entry) -> Bool = { $0.name == name }
        let loose: (Entry) -> Bool = { sameName($0.name, name) }
        if let table = tableEntries.first(where: match) ?? tableEntries.first(where: loose) {
          wantedTables.insert(table.name)
          selection.append(table.name)
          for (shadow, owner) in shadowOwner where owner == table.name {
            wantedTables.insert(shadow)
          }
        } else if let view = viewEntries.first(where: match) ?? viewEntries.first(where: loose) {
          wantedViews.insert(view.name)
          selection.append(view.name)
        } else {
          let known = (tableEntries.filter { shadowOwner[$0.name] == nil } + viewEntries).map(
            \.name
          )
          throw InspectionError.noSuchTable(name: name, tables: known.sorted(by: namesInOrder))
        }
      }
    }

    let indexSQL = Dictionary(
      entries.filter { $0.type == "index" }.map { ($0.name, $0.sql) },
      uniquingKeysWith: { first, _ in first }
    )
    let sequences = try autoincrementSequences(entries)
    var reader = TableReader(pragmas: pragmas, indexSQL: indexSQL)
    var tables: [String: Schema.Table] = [:]
    for entry in tableEntries where wantedTables.contains(entry.name) {
      let facts = listed[entry.name]
      let kind: Schema.Table.Kind =
        shadowOwner[entry.name] != nil ? .shadow : (isVirtual(entry.sql) ? .virtual : .table)
      var table = try reader.table(
        name: entry.name,
        sql: entry.sql,
        kind: kind,
        listed: facts
      )
      table.autoincrementSequence = sequences[entry.name]
      tables[entry.name] = table
    }
    // Group shadow tables under their virtual table.
    for (shadow, owner) in shadowOwner {
      guard let table = tables[shadow], tables[owner] != nil else { continue }
      tables[owner]?.shadowTables.append(table)
      tables[shadow] = nil
    }
    var user: [Schema.Table] = []
    var strata: [Schema.Table] = []
    for var table in tables.values {
      table.shadowTables.sort { namesInOrder($0.name, $1.name) }
      if isStrataTable(table.name) { strata.append(table) } else { user.append(table) }
    }
    user.sort { namesInOrder($0.name, $1.name) }
    strata.sort { namesInOrder($0.name, $1.name) }

    var views: [Schema.View] = []
    for entry in viewEntries where wantedViews.contains(entry.name) {
      views.append(
        Schema.View(name: entry.name, sql: entry.sql, columns: reader.viewColumns(entry.name))
      )
    }
    views.sort { namesInOrder($0.name, $1.name) }

    let shown = wantedTables.union(wantedViews)
    var triggers: [Schema.Trigger] = []
    for entry in entries where entry.type == "trigger" {
      guard shown.contains(where: { sameName($0, entry.table) }) else { continue }
      let definition = TriggerDefinition(sql: entry.sql)
      triggers.append(
        Schema.Trigger(
          name: entry.name,
          table: entry.table,
          timing: definition.timing,
          event: definition.event,
          sql: entry.sql
        )
      )
    }
    triggers.sort { namesInOrder($0.name, $1.name) }

    return Schema(
      database: try databaseFacts(),
      migrations: try migrationState(migrations),
      tables: user,
      strataTables: strata,
      views: views,
      triggers: triggers,
      selection: selection
    )
  }
}
