/// The parts of a schema read beside the tables: database facts, migration state,
/// AUTOINCREMENT sequences and which tables are shadow tables.
extension SchemaInspector {
  func autoincrementSequences(_ entries: [Entry]) throws -> [String: Int64] {
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
  static let shadowSuffixes: [String: Set<String>] = [
    "fts5": ["data", "idx", "content", "docsize", "config"],
    "fts4": ["content", "segments", "segdir", "docsize", "stat"],
    "fts3": ["content", "segments", "segdir", "docsize", "stat"],
    "rtree": ["node", "parent", "rowid"],
    "rtree_i32": ["node", "parent", "rowid"],
    "geopoly": ["node", "parent", "rowid"],
  ]

  func shadowOwnerName(
    _ name: String,
    listed: [String: SchemaPragmas.ListedTable],
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

  func databaseFacts() throws -> Schema.Database {
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
      sqliteVersion: connection.sqliteVersion,
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

  func migrationState(_ migrations: MigrationSet?) throws -> Schema.MigrationState? {
    guard try History.exists(connection) else { return nil }
    let applied = try History.read(connection)
    var pending: Int?
    if let migrations {
      let plan = try Migrator(migrations).plan(connection)
      pending = plan.migrations(in: .pending).count + plan.migrations(in: .outOfOrder).count
    }
    return Schema.MigrationState(
      currentVersion: applied.map(\.version).max() ?? .zero,
      appliedCount: applied.count,
      pendingCount: pending,
      migrationsDirectory: migrations?.directory
    )
  }
}

/// SQLite's own tables (`sqlite_sequence`, `sqlite_stat1`, …): not part of the user's schema.
func isInternal(_ name: String) -> Bool {
  asciiLowercased(name).hasPrefix("sqlite_")
}

/// strata's own tables: `strata_migrations`, `strata_seeds` and any later `strata_*`.
package func isStrataTable(_ name: String) -> Bool {
  asciiLowercased(name).hasPrefix("strata_")
}

func isVirtual(_ sql: String) -> Bool {
  let tokens = SQLTokenizer(String(sql.prefix(64))).tokens()
  return tokens.count > 1 && tokens[0].isKeyword("CREATE") && tokens[1].isKeyword("VIRTUAL")
}
