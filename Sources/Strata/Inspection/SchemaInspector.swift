/// Reads a database's schema into a `Schema`: `sqlite_master` and the PRAGMAs `table_list`,
/// `table_xinfo`, `index_list`, `index_xinfo` and `foreign_key_list`, plus the statements' text
/// for what the PRAGMAs do not say (CHECK constraints, generation expressions, collations,
/// AUTOINCREMENT, index expressions and WHERE clauses, trigger timing).
///
/// Only reads, inside one read transaction, so the schema and row counts are one snapshot.
public struct SchemaInspector {
  /// The connection read from; the inspector never writes to it.
  public let connection: Connection

  /// An inspector of `connection`'s database (any open mode; it only reads).
  public init(_ connection: Connection) {
    self.connection = connection
  }

  /// The first SQLite with `PRAGMA table_list` (STRICT, shadow tables).
  static let tableListVersion = 3_037_000

  /// Reads the schema.
  ///
  /// - Parameters:
  ///   - names: tables or views to inspect (with the triggers on them); empty for everything.
  ///     SQLite's rule applies: names match without ASCII case.
  ///   - migrations: the migrations folder, to count pending migrations.
  /// - Throws: `InspectionError.noSuchTable` for a name that is neither a table nor a view;
  ///   `SQLiteError` when SQLite fails (`isBusy` when another process holds a lock).
  public func inspect(tables names: [String] = [], migrations: MigrationSet? = nil) throws -> Schema
  {
    guard connection.isAutocommit else { return try read(names, migrations) }
    return try connection.transaction(.deferred) { try read(names, migrations) }
  }

  private struct Entry {
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
    let listed = try tableList()
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
    var reader = try TableReader(connection: connection, indexSQL: indexSQL)
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

  // MARK: - Pieces

  /// `PRAGMA table_list` by name: type ("table", "virtual", "shadow"), WITHOUT ROWID, STRICT.
  private func tableList() throws -> [String: ListedTable] {
    guard Connection.libraryVersionNumber >= Self.tableListVersion else { return [:] }
    var result: [String: ListedTable] = [:]
    let statement = try connection.prepare(
      "SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main'"
    )
    while try statement.step() {
      let name = statement.string(at: 0) ?? ""
      result[name] = ListedTable(
        type: statement.string(at: 1) ?? "table",
        withoutRowID: statement.int64(at: 2) != 0,
        strict: statement.int64(at: 3) != 0
      )
    }
    return result
  }

  private func autoincrementSequences(_ entries: [Entry]) throws -> [String: Int64] {
    guard entries.contains(where: { $0.type == "table" && $0.name == "sqlite_sequence" }) else {
      return [:]
    }
    var result: [String: Int64] = [:]
    for row in try connection.rows("SELECT name, seq FROM main.sqlite_sequence") {
      if let name = row.first?.textValue, let seq = row.last?.integerValue { result[name] = seq }
    }
    return result
  }

  /// Known shadow-table suffixes, for SQLite older than 3.37, which cannot say which tables
  /// are shadow tables.
  private static let shadowSuffixes: [String: Set<String>] = [
    "fts5": ["data", "idx", "content", "docsize", "config"],
    "fts4": ["content", "segments", "segdir", "docsize", "stat"],
    "fts3": ["content", "segments", "segdir", "docsize", "stat"],
    "rtree": ["node", "parent", "rowid"],
    "rtree_i32": ["node", "parent", "rowid"],
    "geopoly": ["node", "parent", "rowid"],
  ]

  private func shadowOwnerName(
    _ name: String,
    listed: [String: ListedTable],
    virtualTables: [String]
  ) -> String? {
    let owners = virtualTables.filter {
      asciiLowercased(name).hasPrefix(asciiLowercased($0) + "_")
    }.sorted { $0.count > $1.count }
    if let facts = listed[name] {
      return facts.type == "shadow" ? owners.first : nil
    }
    // Older SQLite: match the module's known suffixes.
    for owner in owners {
      guard
        let sql = try? connection.scalar(
          "SELECT sql FROM main.sqlite_master WHERE name = ?",
          [.text(owner)]
        )?.textValue
      else { continue }
      let module = asciiLowercased(VirtualTableDefinition(sql: sql).module)
      let suffix = asciiLowercased(String(name.dropFirst(owner.count + 1)))
      if Self.shadowSuffixes[module]?.contains(suffix) == true { return owner }
    }
    return nil
  }

  private func databaseFacts() throws -> Schema.Database {
    func integer(_ pragma: String) throws -> Int64 {
      try connection.scalar("PRAGMA main.\(pragma)")?.integerValue ?? 0
    }
    func text(_ pragma: String) throws -> String {
      try connection.scalar("PRAGMA main.\(pragma)").map(\.description) ?? ""
    }
    let autoVacuum =
      switch try integer("auto_vacuum") {
      case 1: "full"
      case 2: "incremental"
      default: "none"
      }
    return Schema.Database(
      sqliteVersion: Connection.libraryVersion,
      pageSize: try integer("page_size"),
      pageCount: try integer("page_count"),
      freelistCount: try integer("freelist_count"),
      encoding: try connection.scalar("PRAGMA encoding").map(\.description) ?? "",
      journalMode: try text("journal_mode"),
      autoVacuum: autoVacuum,
      userVersion: try integer("user_version"),
      applicationID: try integer("application_id")
    )
  }

  private func migrationState(_ migrations: MigrationSet?) throws -> Schema.MigrationState? {
    guard try History.exists(connection) else { return nil }
    let applied = try History.read(connection)
    var pending: Int?
    if let migrations {
      let plan = try Migrator(migrations).plan(connection)
      pending = plan.migrations(in: .pending).count + plan.migrations(in: .outOfOrder).count
    }
    return Schema.MigrationState(
      currentVersion: applied.map(\.version).max() ?? 0,
      appliedCount: applied.count,
      pendingCount: pending,
      migrationsDirectory: migrations?.directory
    )
  }
}

/// One row of `PRAGMA table_list`.
struct ListedTable {
  let type: String
  let withoutRowID: Bool
  let strict: Bool
}

/// Reads tables with prepared PRAGMA statements, compiled once and reused for every table.
private struct TableReader {
  let connection: Connection
  let indexSQL: [String: String]
  let columns: Statement
  let indexList: Statement
  let indexColumns: Statement
  let foreignKeys: Statement
  var primaryKeys: [String: [String]] = [:]

  init(connection: Connection, indexSQL: [String: String]) throws {
    self.connection = connection
    self.indexSQL = indexSQL
    columns = try connection.prepare(
      "SELECT cid, name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?)"
    )
    indexList = try connection.prepare(
      "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)"
    )
    indexColumns = try connection.prepare(
      "SELECT seqno, cid, name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 "
        + "ORDER BY seqno"
    )
    foreignKeys = try connection.prepare(
      "SELECT id, seq, \"table\", \"from\", \"to\", on_update, on_delete, match "
        + "FROM pragma_foreign_key_list(?) ORDER BY id, seq"
    )
  }

  mutating func table(
    name: String,
    sql: String,
    kind: Schema.Table.Kind,
    listed: ListedTable?
  ) throws -> Schema.Table {
    let isVirtualTable = kind == .virtual
    let definition = isVirtualTable ? nil : TableDefinition(sql: sql)
    let virtualDefinition = isVirtualTable ? VirtualTableDefinition(sql: sql) : nil
    let withoutRowID = listed?.withoutRowID ?? definition?.withoutRowID ?? false
    let strict: Bool? =
      Connection.libraryVersionNumber >= SchemaInspector.tableListVersion
      ? (listed?.strict ?? false) : nil
    // A virtual table whose module is not loaded cannot be read: show what the text says.
    let columnList =
      isVirtualTable
      ? ((try? readColumns(of: name, definition: nil, strict: false, withoutRowID: false)) ?? [])
      : try readColumns(
        of: name,
        definition: definition,
        strict: strict ?? false,
        withoutRowID: withoutRowID
      )
    let indexes = isVirtualTable ? [] : try readIndexes(of: name)
    let foreignKeys = isVirtualTable ? [] : try readForeignKeys(of: name)
    let rowCount = try? connection.scalar("SELECT count(*) FROM main.\(quoteIdentifier(name))")?
      .integerValue
    return Schema.Table(
      name: name,
      kind: kind,
      sql: sql,
      withoutRowID: withoutRowID,
      strict: strict,
      autoincrement: definition?.autoincrement ?? false,
      autoincrementSequence: nil,
      rowCount: rowCount ?? nil,
      columns: columnList,
      indexes: indexes,
      foreignKeys: foreignKeys,
      checks: definition?.checks ?? [],
      module: virtualDefinition?.module,
      moduleArguments: virtualDefinition?.arguments,
      shadowTables: []
    )
  }

  func viewColumns(_ name: String) -> [Schema.Column] {
    (try? readColumns(of: name, definition: nil, strict: false, withoutRowID: false)) ?? []
  }

  private func readColumns(
    of table: String,
    definition: TableDefinition?,
    strict: Bool,
    withoutRowID: Bool
  ) throws -> [Schema.Column] {
    var result: [Schema.Column] = []
    try each(columns, table) { row in
      let name = row.string(at: 1) ?? ""
      let type = row.string(at: 2) ?? ""
      let hidden = row.int64(at: 6)
      let written = definition?.columns.first { sameName($0.name, name) }
      result.append(
        Schema.Column(
          position: result.count + 1,
          name: name,
          declaredType: type,
          affinity: Schema.Affinity(declaredType: type, strict: strict),
          notNull: row.int64(at: 3) != 0,
          defaultValue: row.string(at: 4),
          primaryKeyPosition: Int(row.int64(at: 5)),
          isRowIDAlias: false,
          generated: hidden == 2 ? .virtual : (hidden == 3 ? .stored : nil),
          generatedExpression: hidden >= 2 ? written?.generatedExpression : nil,
          hidden: hidden == 1,
          collation: written?.collation
        )
      )
    }
    // An INTEGER PRIMARY KEY of a rowid table is the rowid: never NULL.
    let keyColumns = result.indices.filter { result[$0].primaryKeyPosition > 0 }
    if definition != nil, !withoutRowID, keyColumns.count == 1, let only = keyColumns.first,
      result[only].declaredType.uppercased() == "INTEGER"
    {
      result[only].isRowIDAlias = true
      result[only].notNull = true
    }
    return result
  }

  private func readIndexes(of table: String) throws -> [Schema.Index] {
    var listed: [(name: String, unique: Bool, origin: String, partial: Bool)] = []
    try each(indexList, table) { row in
      listed.append(
        (
          row.string(at: 0) ?? "", row.int64(at: 1) != 0, row.string(at: 2) ?? "c",
          row.int64(at: 3) != 0
        )
      )
    }
    var result: [Schema.Index] = []
    for entry in listed {
      let sql = indexSQL[entry.name].flatMap { $0.isEmpty ? nil : $0 }
      let definition = sql.map { IndexDefinition(sql: $0) }
      var keyColumns: [Schema.IndexColumn] = []
      try each(indexColumns, entry.name) { row in
        let seqno = Int(row.int64(at: 0))
        let cid = row.int64(at: 1)
        var name = row.string(at: 2)
        var expression: String?
        if cid == -2 {
          name = nil
          expression = definition.flatMap { seqno < $0.terms.count ? $0.terms[seqno] : nil }
        } else if cid == -1 {
          name = "rowid"
        }
        keyColumns.append(
          Schema.IndexColumn(
            name: name,
            expression: expression,
            descending: row.int64(at: 3) != 0,
            collation: row.string(at: 4) ?? "BINARY"
          )
        )
      }
      let origin: Schema.Index.Origin =
        switch entry.origin {
        case "pk": .primaryKey
        case "u": .unique
        default: .created
        }
      result.append(
        Schema.Index(
          name: entry.name,
          unique: entry.unique,
          origin: origin,
          columns: keyColumns,
          partialWhere: entry.partial ? definition?.whereClause : nil,
          sql: sql
        )
      )
    }
    return result.sorted { namesInOrder($0.name, $1.name) }
  }

  private mutating func readForeignKeys(of table: String) throws -> [Schema.ForeignKey] {
    var byID: [Int64: Schema.ForeignKey] = [:]
    var unresolved: Set<Int64> = []
    try each(foreignKeys, table) { row in
      let id = row.int64(at: 0)
      let parent = row.string(at: 2) ?? ""
      var key =
        byID[id]
        ?? Schema.ForeignKey(
          columns: [],
          parentTable: parent,
          parentColumns: [],
          onDelete: row.string(at: 6) ?? "NO ACTION",
          onUpdate: row.string(at: 5) ?? "NO ACTION",
          match: row.string(at: 7) ?? "NONE"
        )
      key.columns.append(row.string(at: 3) ?? "")
      if let to = row.string(at: 4) {
        key.parentColumns.append(to)
      } else {
        unresolved.insert(id)
      }
      byID[id] = key
    }
    // REFERENCES parent without columns means the parent's primary key.
    for id in unresolved {
      guard let parent = byID[id]?.parentTable else { continue }
      byID[id]?.parentColumns = try primaryKey(of: parent)
    }
    return byID.values.sorted {
      let a = $0.columns.joined(separator: ",") + "\u{0}" + $0.parentTable
      let b = $1.columns.joined(separator: ",") + "\u{0}" + $1.parentTable
      return namesInOrder(a, b)
    }
  }

  private mutating func primaryKey(of table: String) throws -> [String] {
    if let known = primaryKeys[table] { return known }
    var keyed: [(Int64, String)] = []
    try each(columns, table) { row in
      let position = row.int64(at: 5)
      if position > 0 { keyed.append((position, row.string(at: 1) ?? "")) }
    }
    let key = keyed.sorted { $0.0 < $1.0 }.map(\.1)
    primaryKeys[table] = key
    return key
  }

  /// Runs a prepared PRAGMA statement for `argument`, visiting each row.
  private func each(
    _ statement: Statement,
    _ argument: String,
    _ body: (Statement) throws -> Void
  ) throws {
    statement.reset()
    defer { statement.reset() }
    try statement.bind(.text(argument), at: 1)
    while try statement.step() { try body(statement) }
  }
}

/// SQLite's own tables (`sqlite_sequence`, `sqlite_stat1`, …): not part of the user's schema.
func isInternal(_ name: String) -> Bool {
  asciiLowercased(name).hasPrefix("sqlite_")
}

/// strata's own tables: `strata_migrations`, `strata_seeds` and any later `strata_*`.
public func isStrataTable(_ name: String) -> Bool {
  asciiLowercased(name).hasPrefix("strata_")
}

func isVirtual(_ sql: String) -> Bool {
  let tokens = SQLTokenizer(String(sql.prefix(64))).tokens()
  return tokens.count > 1 && tokens[0].isKeyword("CREATE") && tokens[1].isKeyword("VIRTUAL")
}
