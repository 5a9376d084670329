import Foundation

/// The history statements one run repeats for every migration, prepared once.
///
/// Used inside the run's transactions; a failed transaction ends the run, and the one rollback
/// a run makes on purpose (`Migrator.withForeignKeyBaseline`) reloads the layout, so the cached
/// "table exists" never outlives a rollback.
final class HistoryWriter {
  private let connection: any SQLDatabase
  private var layout: History.Layout
  private var lookup: (any SQLStatement)?
  private var insert: (any SQLStatement)?
  private var delete: (any SQLStatement)?

  init(_ connection: any SQLDatabase) throws {
    self.connection = connection
    layout = try History.layout(connection)
  }

  /// Creates `strata_migrations` when missing, or rebuilds a first-layout table in the current
  /// layout (call inside the transaction).
  func createTableIfNeeded() throws {
    guard layout != .current else { return }
    // Read again inside the transaction: another process may have made or rebuilt it since.
    layout = try History.layout(connection)
    switch layout {
    case .current: return
    case .none: try History.create(connection)
    case .integerOnly: try History.upgrade(connection)
    }
    layout = .current
  }

  /// Reads the layout again: a rollback the run chose to make (to learn what the database held
  /// before a step, then run the step again) undoes a table this writer created.
  func reloadLayout() throws {
    layout = try History.layout(connection)
  }

  /// Whether the table is known to be in the current layout (no need to look inside the
  /// transaction).
  var hasCurrentLayout: Bool { layout == .current }

  func isApplied(_ version: MigrationVersion) throws -> Bool {
    guard layout != .none else { return false }
    return try run(
      &lookup,
      "SELECT 1 FROM strata_migrations WHERE version = ?",
      [History.value(version)]
    )
  }

  func record(_ migration: Migration, appliedAt: Date, durationMs: Int64) throws {
    try createTableIfNeeded()
    try run(
      &insert,
      "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms, kind) "
        + "VALUES (?, ?, ?, ?, ?, ?)",
      [
        History.value(migration.version), .text(migration.name), .text(migration.checksum),
        .text(utcTimestamp(appliedAt)), .integer(durationMs),
        .text(migration.version.ordering.rawValue),
      ]
    )
  }

  func remove(_ version: MigrationVersion) throws {
    try run(&delete, "DELETE FROM strata_migrations WHERE version = ?", [History.value(version)])
  }

  /// Records that the repeatable migration `name` was applied with `checksum`, replacing the
  /// row of its previous application.
  func recordRepeatable(
    name: String,
    checksum: String,
    appliedAt: Date,
    durationMs: Int64
  ) throws {
    try createTableIfNeeded()
    try removeRepeatable(name: name)
    try perform(
      "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms, kind) "
        + "VALUES (NULL, ?, ?, ?, ?, '\(History.repeatableKind)')",
      [.text(name), .text(checksum), .text(utcTimestamp(appliedAt)), .integer(durationMs)]
    )
  }

  /// Forgets the repeatable migration `name`, so it runs again.
  func removeRepeatable(name: String) throws {
    guard layout == .current else { return }
    try perform(
      "DELETE FROM strata_migrations WHERE kind = '\(History.repeatableKind)' AND name = ?",
      [.text(name)]
    )
  }

  /// Runs `sql` once with `values`.
  private func perform(_ sql: String, _ values: [SQLValue]) throws {
    var statement: (any SQLStatement)?
    try run(&statement, sql, values)
  }

  /// Runs `sql` with `values` through the statement cached in `cache` (prepared on first use)
  /// and says whether it returned a row. The statement is reset after it ran, so no read stays
  /// open (it would hold a lock).
  @discardableResult
  private func run(
    _ cache: inout (any SQLStatement)?,
    _ sql: String,
    _ values: [SQLValue]
  ) throws -> Bool {
    let statement = try cache ?? connection.prepare(sql)
    cache = statement
    defer { statement.reset() }
    try statement.bind(values)
    return try statement.step()
  }
}
