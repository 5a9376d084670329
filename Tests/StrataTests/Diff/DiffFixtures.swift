import Foundation
import StrataTestSupport

@testable import Strata

/// Schemas and databases for the diff tests: a current schema from its SQL, a populated
/// database of it, and the generated migration applied to that database by strata's runner.
enum DiffFixtures {
  /// The schema `sql` creates.
  static func schema(_ sql: String) throws -> Schema {
    try DesiredSchema(sql: sql, file: "current.sql").schema
  }

  /// The migration from `current` to `desired` (both SQL).
  static func migration(
    from current: String,
    to desired: String,
    options: SchemaDiffOptions = SchemaDiffOptions()
  ) throws -> GeneratedMigration {
    try SchemaDiff.migration(
      from: schema(current),
      to: DesiredSchema(sql: desired, file: "desired.sql"),
      options: options
    )
  }

  /// An in-memory database with `schema` and then `rows` (SQL run with foreign keys on).
  static func database(_ schema: String, rows: String) throws -> Connection {
    let connection = try Connection.inMemory()
    try connection.execute(schema)
    try connection.execute("PRAGMA foreign_keys = ON")
    try connection.execute(rows)
    return connection
  }

  /// Applies `migration` (up) to `connection` as `strata migrate` would, as version 1.
  static func apply(_ migration: GeneratedMigration, to connection: Connection) throws {
    try Migrator(try migrationSet(migration)).migrate(connection)
  }

  /// Rolls the applied migration back.
  static func rollBack(_ migration: GeneratedMigration, in connection: Connection) throws {
    try Migrator(try migrationSet(migration)).rollback(connection)
  }

  /// The migration as one file with both parts, version 1.
  private static func migrationSet(_ migration: GeneratedMigration) throws -> MigrationSet {
    let text =
      "-- migrate:up\n" + migration.up
      + (migration.down.map { "\n-- migrate:down\n" + $0 } ?? "")
    let parsed = try MigrationParser.parseContent(bytes: Array(text.utf8), file: "generated.sql")
    return try MigrationSet([
      Migration(
        version: 1,
        name: "generated",
        up: parsed.up,
        down: parsed.down,
        checksum: parsed.checksum
      )
    ])
  }

  /// What differs between `connection`'s schema and `sql`'s.
  static func drift(_ connection: Connection, from sql: String) throws -> [String] {
    SchemaComparison.differences(
      expected: try schema(sql),
      actual: try SchemaInspector(connection).inspect()
    ).map(\.description)
  }

  /// Every row of `table`, ordered, as text.
  static func rows(_ connection: Connection, _ sql: String) throws -> [[String]] {
    try connection.rows(sql).map { $0.map(\.description) }
  }
}
