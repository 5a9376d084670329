import Foundation

extension Migrator {
  // MARK: - Foreign keys

  /// Foreign keys off before `BEGIN` (inside a transaction the pragma is a no-op), restored
  /// after, on the same connection; so a table rebuild's `DROP TABLE` cannot cascade.
  func withForeignKeysDeferred<T>(
    _ connection: Connection,
    _ body: () throws -> T
  ) throws
    -> T
  {
    let wasOn = try connection.scalar("PRAGMA foreign_keys")?.integerValue == 1
    guard wasOn else { return try body() }
    try connection.execute("PRAGMA foreign_keys = OFF")
    defer { try? connection.execute("PRAGMA foreign_keys = ON") }
    return try body()
  }

  func checkForeignKeys(
    _ connection: Connection,
    migration: Migration,
    file: String
  ) throws {
    let rows = try connection.rows("PRAGMA foreign_key_check")
    guard !rows.isEmpty else { return }
    let violations = rows.prefix(100).map { row in
      ForeignKeyViolation(
        table: row[0].textValue ?? "",
        rowid: row[1].integerValue,
        parent: row[2].textValue ?? ""
      )
    }
    throw MigrationError.foreignKeyViolation(
      version: migration.version,
      file: file,
      violations: violations,
      databaseVersion: 0
    )
  }
}
