import Foundation
import Strata

/// A server's start-up on a dqlite cluster: the migrations and the seed files a file gets,
/// with the same guarantees (docs/dqlite.md).
extension DqliteDatabase {
  /// Connects to the leader of the cluster `url` names, `dqlite://HOST:PORT[,HOST:PORT…]/NAME`
  /// (any of its nodes will do), and opens the database `NAME` (dqlite makes it on first use).
  ///
  /// - Throws: `DqliteError` for an address that does not parse, or when no leader answers
  ///   within 10 s.
  public convenience init(url: String) throws {
    let parsed = try DqliteURL(url)
    try self.init(nodes: parsed.nodes, name: parsed.name)
  }

  /// Applies the pending migrations, each in one transaction on the leader with its history
  /// row, after trying them on a copy of the database: a server that starts on several
  /// machines at once applies each migration once.
  ///
  /// - Throws: `DqliteRunError` when the copy refused the run (the cluster unchanged) or the
  ///   leader was lost (saying the version now: start again to apply the rest);
  ///   `MigrationError` as on a file; `DqliteError` when no leader answers.
  @discardableResult
  public func migrate(
    _ migrations: MigrationSet,
    options: MigrateOptions = MigrateOptions()
  ) throws -> MigrationReport {
    try DqliteMigrator(Migrator(migrations), on: self).migrate(options: options)
  }

  /// Loads the seed files of `directory` in one transaction on the leader, as on a file.
  ///
  /// - Throws: `DqliteRunError.missingDatabase` when the database holds nothing yet (never
  ///   migrated, or a mistyped name); `SeedError` naming the file, line and column (the
  ///   database then exactly as before); `DqliteError` when the leader is lost (dqlite rolls
  ///   the transaction back).
  @discardableResult
  public func seed(directory: URL, options: SeedOptions = SeedOptions()) throws -> SeedReport {
    try requireExisting()
    return try Seeder(database: self).seed(directory: directory, options: options)
  }

  /// Whether the database holds nothing yet: no table, index, view or trigger. dqlite's OPEN
  /// makes a database of any name on first use, so a name never migrated and a mistyped one
  /// look alike; strata treats both as missing, as it treats a file that is not there.
  package func holdsNothing() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_schema", []) == .integer(0)
  }

  /// What only an existing database may be given to (seeding, a backup, a rollback) checks
  /// this first.
  ///
  /// - Throws: `DqliteRunError.missingDatabase` when `holdsNothing()`.
  package func requireExisting() throws {
    if try holdsNothing() { throw DqliteRunError.missingDatabase(path: path) }
  }
}
