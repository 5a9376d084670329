import Foundation
import Strata
import StrataDqlite

/// The commands that change a cluster's database, run on its leader through the seam: the
/// same library calls as for a file, the same reports (docs/dqlite.md).
enum ClusterRuns {
  /// The cluster's database, which must hold something already (rollback, baseline, seed):
  /// OPEN makes a database of any name, so a mistyped name would otherwise read as empty.
  ///
  /// - Throws: `ClusterDatabaseEmpty` when the database holds no table yet.
  static func openExisting(_ url: DqliteURL, _ options: DatabaseOptions) throws -> DqliteDatabase {
    let database = try options.open(url)
    do {
      try database.requireExisting()
    } catch DqliteRunError.missingDatabase {
      throw ClusterDatabaseEmpty(url: url)
    }
    return database
  }

  /// The schema file's source after a run: a snapshot of the database as it is now.
  static func snapshot(_ database: DqliteDatabase) -> () throws -> Connection {
    {
      let file = try database.snapshot(in: try ClusterSnapshotFolder.make())
      return try ConnectionConfiguration().open(path: file.path, mode: .readOnly)
    }
  }

  /// `strata migrate` on a cluster: tried on a copy first, then run on the leader.
  static func migrate(
    _ url: DqliteURL,
    _ migrations: MigrationSet,
    _ applying: MigrateOptions,
    keeping schemaFile: SchemaFile?,
    _ options: MigrateCommand.Options,
    _ context: CommandContext
  ) throws -> Int32 {
    let database = try options.database.open(url)
    let report = try DqliteMigrator(Migrator(migrations), on: database).migrate(options: applying)
    try MigrationReportOutput.render(
      report,
      database: url.description,
      keeping: schemaFile,
      reading: snapshot(database),
      onEmptyDatabase: false,
      options.output,
      options.rewrite,
      context
    )
    return ExitCode.success
  }

  /// `strata rollback` on a cluster.
  static func rollback(
    _ url: DqliteURL,
    _ migrations: MigrationSet,
    _ target: RollbackTarget,
    keeping schemaFile: SchemaFile?,
    _ options: RollbackCommand.Options,
    _ context: CommandContext
  ) throws -> Int32 {
    let database = try openExisting(url, options.database)
    let report = try DqliteMigrator(Migrator(migrations), on: database).rollback(
      target,
      dryRun: options.dryRun,
      allowChanged: options.allowChanged
    )
    try MigrationReportOutput.render(
      report,
      database: url.description,
      keeping: schemaFile,
      reading: snapshot(database),
      onEmptyDatabase: false,
      options.output,
      options.rewrite,
      context
    )
    return ExitCode.success
  }
}

/// A cluster's database with no table: never migrated, or a mistyped name (dqlite makes a
/// database of any name on first use, so "missing" cannot be told apart).
struct ClusterDatabaseEmpty: StrataError {
  let url: DqliteURL

  var message: String {
    "the cluster has no database '\(url.name)' yet (\(url) holds no table); nothing was changed"
  }

  var help: String {
    "Check the name after the last '/' in --database, or run 'strata migrate' against the "
      + "cluster to create the database."
  }
}
