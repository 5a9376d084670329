/// Finds and reads the history tables other migration tools leave in a database.
///
/// Each table is read the way its tool reads it (the statements are from each tool's source;
/// `ForeignHistoryTests` cites the file for each), and nothing is written.
enum ForeignHistoryReader {
  /// Every other tool's history in the database, empty ones included; `PRAGMA user_version`
  /// counts only when it is above 0 and no history table was found.
  static func detect(_ connection: any SQLDatabase) throws -> [ForeignHistory] {
    var found: [ForeignHistory] = []
    let tables = try tableDefinitions(connection)
    if let sql = tables["schema_migrations"] {
      found.append(try readSchemaMigrations(connection, sql: sql))
    }
    if tables["goose_db_version"] != nil { found.append(try readGoose(connection)) }
    if tables["_sqlx_migrations"] != nil { found.append(try readSQLx(connection)) }
    if tables["__diesel_schema_migrations"] != nil { found.append(try readDiesel(connection)) }
    if tables["flyway_schema_history"] != nil { found.append(try readFlyway(connection)) }
    if tables["grdb_migrations"] != nil { found.append(try readGRDB(connection)) }
    if tables["gorp_migrations"] != nil { found.append(try readSQLMigrate(connection)) }
    if found.isEmpty, try !History.exists(connection),
      let version = try connection.scalar("PRAGMA user_version")?.integerValue, version > 0
    {
      found.append(history(.userVersion, through: MigrationVersion(integer: version)))
    }
    return found
  }

  private static func tableDefinitions(_ connection: any SQLDatabase) throws -> [String: String] {
    let statement = try connection.prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name IN "
        + "('schema_migrations', 'goose_db_version', '_sqlx_migrations', "
        + "'__diesel_schema_migrations', 'flyway_schema_history', 'grdb_migrations', 'gorp_migrations')"
    )
    var tables: [String: String] = [:]
    while try statement.step() {
      tables[statement.string(at: 0) ?? ""] = statement.string(at: 1) ?? ""
    }
    return tables
  }

  /// Four tools name their table `schema_migrations`; its columns tell them apart.
  private static func readSchemaMigrations(
    _ connection: any SQLDatabase,
    sql: String
  ) throws -> ForeignHistory {
    let columns = try rows(connection, "PRAGMA table_info(schema_migrations)") {
      ($0.string(at: 1) ?? "", ($0.string(at: 2) ?? "").uppercased())
    }
    if columns.contains(where: { $0.0 == "dirty" }) {
      return try readGolangMigrate(connection)
    }
    let values = try rows(connection, "SELECT version FROM schema_migrations") { $0.value(at: 0) }
    let integerColumn = columns.first { $0.0 == "version" }?.1 == "INTEGER"
    let tool: ForeignTool =
      !integerColumn ? .dbmate : sql.contains("\"version\"") ? .sqliteMigrationManager : .fmdb
    return history(tool, recorded: values)
  }

  /// golang-migrate keeps one row: the newest version, and whether it failed half-way.
  private static func readGolangMigrate(_ connection: any SQLDatabase) throws -> ForeignHistory {
    let row = try rows(connection, "SELECT version, dirty FROM schema_migrations LIMIT 1") {
      (number($0.value(at: 0)) ?? -1, (number($0.value(at: 1)) ?? 0) != 0)
    }.first
    // No row, or -1 (golang-migrate's "no version", written only with dirty set): nothing.
    let (version, isDirty) = row ?? (-1, false)
    let failed = isDirty ? (version > 0 ? "version \(version)" : "its first migration") : nil
    return ForeignHistory(
      tool: .golangMigrate,
      table: ForeignTool.golangMigrate.table,
      versions: [],
      through: isDirty || version <= 0 ? nil : MigrationVersion(integer: version),
      failed: failed,
      unmappable: []
    )
  }

  /// goose appends a row per up (`is_applied` 1) and per down (0); the newest row of a version
  /// decides. Version 0 is the row goose writes when it creates the table.
  private static func readGoose(_ connection: any SQLDatabase) throws -> ForeignHistory {
    let events = try rows(
      connection,
      "SELECT version_id, is_applied FROM goose_db_version ORDER BY id DESC"
    ) { ($0.int64(at: 0), $0.int64(at: 1) != 0) }
    var decided: [Int64: Bool] = [:]
    for (version, applied) in events where version != 0 && decided[version] == nil {
      decided[version] = applied
    }
    let applied = decided.filter(\.value).keys.sorted()
    return history(.goose, recorded: applied.map { .integer($0) })
  }

  /// sqlx: a row per migration; `success` false is a migration that failed (sqlx calls the
  /// database dirty and stops).
  private static func readSQLx(_ connection: any SQLDatabase) throws -> ForeignHistory {
    let entries = try rows(
      connection,
      "SELECT version, success FROM _sqlx_migrations ORDER BY version"
    ) { ($0.int64(at: 0), $0.int64(at: 1) != 0) }
    let failed = entries.first { !$0.1 }.map { "version \($0.0)" }
    return history(
      .sqlx,
      recorded: entries.filter(\.1).map { .integer($0.0) },
      failed: failed
    )
  }

  /// Diesel stores the folder name's version with its dashes removed (`20240101120000`);
  /// `00000000000000` is its setup migration, which creates nothing of the app's.
  private static func readDiesel(_ connection: any SQLDatabase) throws -> ForeignHistory {
    let values = try rows(connection, "SELECT version FROM __diesel_schema_migrations") {
      $0.value(at: 0)
    }.map { value -> SQLValue in
      guard case .text(let text) = value else { return value }
      return number(.text(text.filter { $0 != "-" })).map(SQLValue.integer) ?? value
    }.filter { number($0) != 0 }
    return history(.diesel, recorded: values)
  }

  /// Flyway: versioned rows only (repeatable ones have no version); per version the newest row
  /// decides: an undo or a deletion takes it back, a baseline covers every version up to it.
  private static func readFlyway(_ connection: any SQLDatabase) throws -> ForeignHistory {
    let entries = try rows(
      connection,
      "SELECT version, type, success FROM flyway_schema_history WHERE version IS NOT NULL "
        + "AND type <> 'SCHEMA' ORDER BY installed_rank"
    ) { ($0.string(at: 0) ?? "", $0.string(at: 1) ?? "", $0.int64(at: 2) != 0) }
    // Versions as Flyway compares them (`1` and `1.0` are one; `2_1` is `2.1`).
    var state: [MigrationVersion: (type: String, success: Bool, text: String)] = [:]
    var order: [MigrationVersion] = []
    var unmappable: [String] = []
    for (text, type, success) in entries {
      guard let version = try? MigrationVersion(flyway: text) else {
        unmappable.append(text)
        continue
      }
      if state[version] == nil { order.append(version) }
      state[version] = (type, success, text)
    }
    var recorded: [MigrationVersion] = []
    var through: MigrationVersion?
    var failed: String?
    for version in order {
      guard let (type, success, text) = state[version] else { continue }
      if !success {
        failed = failed ?? "version \(text)"
      } else if type == "BASELINE" {
        through = max(through ?? version, version)
      } else if !type.hasPrefix("UNDO"), type != "DELETE" {
        recorded.append(version)
      }
    }
    return ForeignHistory(
      tool: .flyway,
      table: ForeignTool.flyway.table,
      versions: recorded.sorted(),
      through: through,
      failed: failed,
      unmappable: unmappable.sorted()
    )
  }

  /// GRDB names migrations freely (`v1`, `createAuthors`); only a name that is a number, or
  /// starts with one followed by `_`, maps to a file's version.
  private static func readGRDB(_ connection: any SQLDatabase) throws -> ForeignHistory {
    let names = try rows(connection, "SELECT identifier FROM grdb_migrations") {
      $0.string(at: 0) ?? ""
    }
    let values = names.map { name -> SQLValue in
      let prefix = name.prefix { $0.isASCII && $0.isNumber }
      let rest = name.dropFirst(prefix.count)
      return !prefix.isEmpty && (rest.isEmpty || rest.first == "_")
        ? .integer(Int64(prefix) ?? -1) : .text(name)
    }
    return history(.grdb, recorded: values)
  }

  /// sql-migrate records each migration by its id, the file name (`01-consolidated.sql`);
  /// strata reads the id as the version of the file with that name.
  private static func readSQLMigrate(_ connection: any SQLDatabase) throws -> ForeignHistory {
    let ids = try rows(connection, "SELECT id FROM gorp_migrations") { $0.value(at: 0) }
    var versions: [MigrationVersion] = []
    var unmappable: [String] = []
    for id in ids {
      if case .text(let name) = id, let version = try? MigrationVersion(sqlMigrate: name) {
        versions.append(version)
      } else {
        unmappable.append(text(id))
      }
    }
    return ForeignHistory(
      tool: .sqlMigrate,
      table: ForeignTool.sqlMigrate.table,
      versions: versions.sorted(),
      through: nil,
      failed: nil,
      unmappable: unmappable.sorted()
    )
  }

  // MARK: - Helpers

  private static func history(
    _ tool: ForeignTool,
    recorded: [SQLValue] = [],
    through: MigrationVersion? = nil,
    failed: String? = nil
  ) -> ForeignHistory {
    var versions: [MigrationVersion] = []
    var unmappable: [String] = []
    for value in recorded {
      if let version = number(value), version > 0 {
        versions.append(MigrationVersion(integer: version))
      } else {
        unmappable.append(text(value))
      }
    }
    return ForeignHistory(
      tool: tool,
      table: tool.table,
      versions: Array(Set(versions)).sorted(),
      through: through,
      failed: failed,
      unmappable: unmappable.sorted()
    )
  }

  /// A version as the tools store it: an integer, or text of digits.
  static func number(_ value: SQLValue) -> Int64? {
    switch value {
    case .integer(let number): return number
    case .text(let text):
      guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      return Int64(text)
    default: return nil
    }
  }

  private static func text(_ value: SQLValue) -> String {
    switch value {
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .text(let text): text
    case .blob: "(bytes)"
    case .null: "NULL"
    }
  }

  private static func rows<T>(
    _ connection: any SQLDatabase,
    _ sql: String,
    _ row: (any SQLStatement) -> T
  ) throws -> [T] {
    let statement = try connection.prepare(sql)
    var result: [T] = []
    while try statement.step() { result.append(row(statement)) }
    return result
  }
}
