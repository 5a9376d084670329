import Foundation

/// A row of `strata_migrations`: a migration that was applied.
package struct AppliedMigration: Hashable, Sendable, Codable {
  /// The migration's version.
  package let version: MigrationVersion
  /// The migration's name, from its file name.
  package let name: String
  /// SHA-256 of the up part when it was applied, to find a file edited since.
  package let checksum: String
  /// ISO 8601 UTC.
  package let appliedAt: String
  /// How long the migration took, in milliseconds.
  package let durationMs: Int64
}

/// A repeatable migration (Flyway's `R__name.sql`) as last applied: it has no version, is known
/// by its name, and runs again whenever its checksum changes.
package struct AppliedRepeatable: Hashable, Sendable, Codable {
  /// The migration's name (its description).
  package let name: String
  /// SHA-256 of its SQL when it was last applied.
  package let checksum: String
  /// ISO 8601 UTC, of the last application.
  package let appliedAt: String
  /// How long the last application took, in milliseconds.
  package let durationMs: Int64
}

extension AppliedMigration {
  /// The same row with its version read in `ordering` (the folder's).
  func read(as ordering: MigrationVersion.Ordering) -> AppliedMigration {
    AppliedMigration(
      version: version.read(as: ordering),
      name: name,
      checksum: checksum,
      appliedAt: appliedAt,
      durationMs: durationMs
    )
  }
}

/// strata's history table, `strata_migrations`: never a name another tool uses.
///
/// Its `version` column has no declared type, so an integer version is stored as an INTEGER
/// (as the first layout's `INTEGER PRIMARY KEY` stored it: an older strata and
/// `SELECT max(version)` keep working on integer folders) and any other version as TEXT. `kind`
/// says how a version compares (``MigrationVersion/Ordering``), or `repeatable` for a
/// migration without a version (NULL), known by its name.
enum History {
  static let table = "strata_migrations"

  static let createSQL = """
    CREATE TABLE IF NOT EXISTS strata_migrations (
      version     UNIQUE,
      name        TEXT NOT NULL,
      checksum    TEXT NOT NULL,
      applied_at  TEXT NOT NULL,
      duration_ms INTEGER NOT NULL,
      kind        TEXT NOT NULL DEFAULT 'numeric'
    )
    """

  /// `kind` of a repeatable migration's row.
  static let repeatableKind = "repeatable"

  /// How the table is laid out in a database.
  enum Layout {
    /// No history table.
    case none
    /// strata's first layout: `version INTEGER PRIMARY KEY`, integer versions only, no `kind`.
    case integerOnly
    /// ``createSQL``'s.
    case current
  }

  static func layout(_ connection: any SQLDatabase) throws -> Layout {
    guard try exists(connection) else { return .none }
    let hasKind = try connection.scalar(
      "SELECT 1 FROM pragma_table_info('strata_migrations') WHERE name = 'kind'"
    )
    return hasKind == nil ? .integerOnly : .current
  }

  static func exists(_ connection: any SQLDatabase) throws -> Bool {
    try connection.scalar(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
      [.text(table)]
    ) != nil
  }

  static func create(_ connection: any SQLDatabase) throws {
    try connection.execute(createSQL)
  }

  /// Rebuilds a first-layout table as ``createSQL``'s, rows and their bytes unchanged (call
  /// inside the writing transaction: it all commits or none of it does). Indexes and triggers
  /// a user put on the old table go with it when it is dropped, so they are made again on the
  /// new one from their own SQL; if one cannot be, the whole upgrade rolls back.
  static func upgrade(_ connection: any SQLDatabase) throws {
    var attached: [String] = []
    do {
      let statement = try connection.prepare(
        "SELECT sql FROM sqlite_master WHERE tbl_name = 'strata_migrations' "
          + "AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, rowid"
      )
      defer { statement.reset() }
      while try statement.step() {
        if let sql = statement.string(at: 0) { attached.append(sql) }
      }
    }
    try connection.execute(createSQL.replacingOccurrences(of: table, with: table + "_upgrade"))
    try connection.execute(
      "INSERT INTO strata_migrations_upgrade (version, name, checksum, applied_at, duration_ms, "
        + "kind) SELECT version, name, checksum, applied_at, duration_ms, 'numeric' "
        + "FROM strata_migrations ORDER BY version"
    )
    try connection.execute("DROP TABLE strata_migrations")
    // The legacy rename touches nothing but the table, so a view of the user's that names
    // strata_migrations does not stop it while the old table is gone.
    let legacy = try connection.scalar("PRAGMA legacy_alter_table")?.integerValue ?? 0
    try connection.execute("PRAGMA legacy_alter_table = ON")
    defer { _ = try? connection.execute("PRAGMA legacy_alter_table = \(legacy)") }
    try connection.execute("ALTER TABLE strata_migrations_upgrade RENAME TO strata_migrations")
    for sql in attached { try connection.execute(sql) }
  }

  /// Every applied versioned migration, by version; empty when the table does not exist.
  /// Reads either layout without writing.
  ///
  /// - Throws: `SQLiteError`; `MigrationVersionError` for a row whose version is not one.
  static func read(_ connection: any SQLDatabase) throws -> [AppliedMigration] {
    let kind: String
    switch try layout(connection) {
    case .none: return []
    case .integerOnly: kind = "'numeric'"
    case .current: kind = "kind"
    }
    let statement = try connection.prepare(
      "SELECT version, name, checksum, applied_at, duration_ms, \(kind) FROM strata_migrations "
        + "WHERE \(kind) <> '\(repeatableKind)' ORDER BY version"
    )
    var rows: [AppliedMigration] = []
    while try statement.step() {
      rows.append(
        AppliedMigration(
          version: try version(statement.value(at: 0), kind: statement.string(at: 5) ?? ""),
          name: statement.string(at: 1) ?? "",
          checksum: statement.string(at: 2) ?? "",
          appliedAt: statement.string(at: 3) ?? "",
          durationMs: statement.int64(at: 4)
        )
      )
    }
    return rows.sorted { $0.version < $1.version }
  }

  /// The repeatable migrations applied, by name; empty in the first layout.
  static func readRepeatables(_ connection: any SQLDatabase) throws -> [AppliedRepeatable] {
    guard try layout(connection) == .current else { return [] }
    let statement = try connection.prepare(
      "SELECT name, checksum, applied_at, duration_ms FROM strata_migrations "
        + "WHERE kind = '\(repeatableKind)' ORDER BY name"
    )
    var rows: [AppliedRepeatable] = []
    while try statement.step() {
      rows.append(
        AppliedRepeatable(
          name: statement.string(at: 0) ?? "",
          checksum: statement.string(at: 1) ?? "",
          appliedAt: statement.string(at: 2) ?? "",
          durationMs: statement.int64(at: 3)
        )
      )
    }
    return rows
  }

  /// The newest applied version, ``MigrationVersion/zero`` when none.
  static func currentVersion(_ connection: any SQLDatabase) throws -> MigrationVersion {
    try read(connection).last?.version ?? .zero
  }

  /// A stored version, compared as its row's `kind` says (an INTEGER without a kind, in the
  /// first layout, is numeric).
  private static func version(_ value: SQLValue, kind: String) throws -> MigrationVersion {
    switch value {
    case .integer(let number):
      let ordering = MigrationVersion.Ordering(rawValue: kind) ?? .numeric
      guard ordering != .numeric else { return MigrationVersion(integer: number) }
      return try MigrationVersion(text: String(number), ordering: ordering)
    default:
      let ordering = MigrationVersion.Ordering(rawValue: kind) ?? .text
      return try MigrationVersion(text: value.textValue ?? "", ordering: ordering)
    }
  }

  /// How `version` is stored: an integer as INTEGER, any other version as its text.
  /// Stored as an INTEGER whenever the text is one as written (`1` in a numeric, diesel or
  /// Flyway folder alike), so a folder that moves to another format finds its versions;
  /// otherwise as the text (`1.1`, diesel's `00000000000000`).
  static func value(_ version: MigrationVersion) -> SQLValue {
    if let number = version.integerValue ?? Int64(version.text), String(number) == version.text {
      return .integer(number)
    }
    return .text(version.text)
  }
}
