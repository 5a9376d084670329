import Foundation

/// A row of `strata_migrations`: a migration that was applied.
public struct AppliedMigration: Hashable, Sendable, Codable {
  /// The migration's version.
  public let version: Int64
  /// The migration's name, from its file name.
  public let name: String
  /// SHA-256 of the up part when it was applied, to find a file edited since.
  public let checksum: String
  /// ISO 8601 UTC.
  public let appliedAt: String
  /// How long the migration took, in milliseconds.
  public let durationMs: Int64
}

/// strata's history table, `strata_migrations`: never a name another tool uses.
enum History {
  static let table = "strata_migrations"

  static let createSQL = """
    CREATE TABLE IF NOT EXISTS strata_migrations (
      version     INTEGER PRIMARY KEY,
      name        TEXT NOT NULL,
      checksum    TEXT NOT NULL,
      applied_at  TEXT NOT NULL,
      duration_ms INTEGER NOT NULL
    )
    """

  static func exists(_ connection: Connection) throws -> Bool {
    try connection.scalar(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
      [.text(table)]
    ) != nil
  }

  static func create(_ connection: Connection) throws {
    try connection.execute(createSQL)
  }

  /// Every applied migration, by version; empty when the table does not exist.
  static func read(_ connection: Connection) throws -> [AppliedMigration] {
    guard try exists(connection) else { return [] }
    let statement = try connection.prepare(
      "SELECT version, name, checksum, applied_at, duration_ms FROM strata_migrations "
        + "ORDER BY version"
    )
    var rows: [AppliedMigration] = []
    while try statement.step() {
      rows.append(
        AppliedMigration(
          version: statement.int64(at: 0),
          name: statement.string(at: 1) ?? "",
          checksum: statement.string(at: 2) ?? "",
          appliedAt: statement.string(at: 3) ?? "",
          durationMs: statement.int64(at: 4)
        )
      )
    }
    return rows
  }

  /// The newest applied version, 0 when none.
  static func currentVersion(_ connection: Connection) throws -> Int64 {
    guard try exists(connection) else { return 0 }
    return try connection.scalar("SELECT max(version) FROM strata_migrations")?.integerValue ?? 0
  }

}

/// The history statements one run repeats for every migration, prepared once.
///
/// Used inside the run's transactions; a failed transaction ends the run, so the cached
/// "table exists" never outlives a rollback.
final class HistoryWriter {
  private let connection: Connection
  private var tableExists: Bool
  private var lookup: Statement?
  private var insert: Statement?
  private var delete: Statement?

  init(_ connection: Connection) throws {
    self.connection = connection
    tableExists = try History.exists(connection)
  }

  /// Creates `strata_migrations` when missing (call inside the transaction).
  func createTableIfNeeded() throws {
    guard !tableExists else { return }
    try History.create(connection)
    tableExists = true
  }

  func isApplied(_ version: Int64) throws -> Bool {
    guard tableExists else { return false }
    return try run(
      &lookup,
      "SELECT 1 FROM strata_migrations WHERE version = ?",
      [.integer(version)]
    )
  }

  func record(_ migration: Migration, appliedAt: Date, durationMs: Int64) throws {
    try run(
      &insert,
      "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms) "
        + "VALUES (?, ?, ?, ?, ?)",
      [
        .integer(migration.version), .text(migration.name), .text(migration.checksum),
        .text(utcTimestamp(appliedAt)), .integer(durationMs),
      ]
    )
  }

  func remove(_ version: Int64) throws {
    try run(&delete, "DELETE FROM strata_migrations WHERE version = ?", [.integer(version)])
  }

  /// Runs `sql` with `values` through the statement cached in `cache` (prepared on first use)
  /// and says whether it returned a row. The statement is reset after it ran, so no read stays
  /// open (it would hold a lock).
  @discardableResult
  private func run(_ cache: inout Statement?, _ sql: String, _ values: [SQLValue]) throws -> Bool {
    let statement = try cache ?? connection.prepare(sql)
    cache = statement
    defer { statement.reset() }
    try statement.bind(values)
    return try statement.step()
  }
}
