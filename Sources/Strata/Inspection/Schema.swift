/// A database's schema as `SchemaInspector` reads it: every array is sorted, so two reads of
/// one schema are equal and encode to the same JSON.
///
/// Optional values encode as JSON `null` (``ExplicitNull``) rather than being left out, so every object always
/// has the same keys.
package struct Schema: Codable, Equatable, Sendable {
  /// The version of this JSON layout; it changes only when a key changes meaning or goes away.
  package static let formatVersion = 1

  /// `formatVersion` when this value was made.
  package var format: Int
  /// Facts about the file: SQLite version, page size, encoding, journal mode.
  package var database: Database
  /// strata's history, when the database has one.
  @ExplicitNull package var migrations: MigrationState?
  /// The user's tables, virtual tables included (each with its shadow tables inside it), by name.
  package var tables: [Table]
  /// strata's own tables (`strata_migrations`, `strata_seeds`, any `strata_*`), by name.
  package var strataTables: [Table]
  /// The views, by name.
  package var views: [View]
  /// The triggers, by name.
  package var triggers: [Trigger]
  /// The names asked for, when only some tables were inspected; empty for the whole schema.
  package var selection: [String]

  /// Makes a schema from its parts, such as one decoded elsewhere or built in a test.
  package init(
    database: Database,
    migrations: MigrationState?,
    tables: [Table],
    strataTables: [Table],
    views: [View],
    triggers: [Trigger],
    selection: [String] = []
  ) {
    self.format = Schema.formatVersion
    self.database = database
    self.migrations = migrations
    self.tables = tables
    self.strataTables = strataTables
    self.views = views
    self.triggers = triggers
    self.selection = selection
  }

  /// Every table, strata's included, with shadow tables after their virtual table.
  package var allTables: [Table] {
    (tables + strataTables).flatMap { [$0] + $0.shadowTables }
  }

  /// The table named `name` (SQLite compares names without ASCII case), shadow tables included.
  package func table(named name: String) -> Table? {
    // Without building `allTables`: a diff looks up every table of a large schema.
    func first(where matches: (String) -> Bool) -> Table? {
      for list in [tables, strataTables] {
        for table in list {
          if matches(table.name) { return table }
          if let shadow = table.shadowTables.first(where: { matches($0.name) }) { return shadow }
        }
      }
      return nil
    }
    return first { $0 == name } ?? first { sameName($0, name) }
  }

  /// The triggers on `table`.
  package func triggers(on table: String) -> [Trigger] {
    triggers.filter { sameName($0.table, table) }
  }
}
