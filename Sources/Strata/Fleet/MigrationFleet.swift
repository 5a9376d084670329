import Foundation

/// Many databases migrated with one set of migrations: a server with a database per tenant, an
/// app with a file per document. The migrations are read, parsed and checksummed once (the
/// `MigrationSet` given); each database is opened, migrated and closed exactly as a single run
/// (`Connection.open` then `Migrator.migrate`: the same locks, busy timeout, guarantees and
/// errors), by at most `jobs` databases at a time, so memory stays bounded whatever the
/// fleet's size. A failure in one database never stops or changes the others unless
/// `failFast`.
public struct MigrationFleet: Sendable {
  /// The migrations every database gets.
  public let migrator: Migrator
  /// The database files, each counted once (the caller removes duplicates).
  public var databases: [URL]
  /// How many databases are worked on at once (at least 1). The work is mostly waiting for the
  /// disk, so more than the number of cores pays.
  public var jobs = MigrationFleet.defaultJobs
  /// Stop starting databases after the first failure; the ones not started are `skipped`.
  public var failFast = false
  /// How long each connection waits for another process's write lock, in milliseconds.
  public var busyTimeout = Connection.defaultBusyTimeout
  /// What every connection gets (extensions).
  public var configuration: ConnectionConfiguration = .none

  /// The default `jobs`: measured with 1,000 small databases on a 2-core machine (see
  /// docs/migrations.md), where 16 was fastest.
  public static let defaultJobs = 16

  /// A fleet of `databases` sharing `migrations`.
  ///
  /// - Parameter migrations: the migrations, read once, that every database gets.
  /// - Parameter databases: the database files, each once.
  public init(_ migrations: MigrationSet, databases: [URL]) {
    migrator = Migrator(migrations)
    self.databases = databases
  }

  /// Migrates every database (creating a missing file, as a single migrate does).
  ///
  /// - Parameter options: what each database's `Migrator.migrate` may do (target, one
  ///   transaction, which problems to accept); a dry run opens each database read only.
  /// - Parameter progress: the launch call's progress type, called with
  ///   `.databaseFinished` once per database as it finishes, one call at a time (never two at
  ///   once), on the thread that did the work.
  /// - Returns: every database's result; this call never throws: each database's error is in
  ///   its result.
  public func migrate(
    options: MigrateOptions = MigrateOptions(),
    progress: (@Sendable (SetupProgress) -> Void)? = nil
  ) -> FleetSummary {
    let (migrator, busyTimeout, configuration) = (
      self.migrator, self.busyTimeout, self.configuration
    )
    return run(
      access: options.dryRun ? .read : .create,
      progress: progress,
      before: { url in
        // A database that does not exist yet is built beside its name, as `strata migrate`
        // builds one.
        try migrator.migrateNewDatabase(
          at: url,
          options: options,
          busyTimeout: busyTimeout,
          configuration: configuration
        ).map { built in
          built.report.steps.isEmpty ? .upToDate(built.report.toVersion) : .migrated(built.report)
        }
      }
    ) { connection in
      let report = try migrator.migrate(connection, options: options)
      return report.steps.isEmpty ? .upToDate(report.toVersion) : .migrated(report)
    }
  }

  /// Reverts every database to `version` (each database must exist).
  ///
  /// - Parameter version: the version every database ends at (0: empty).
  /// - Parameter dryRun: plan only, with each database opened read only.
  /// - Parameter allowChanged: revert migrations whose file changed after they were applied.
  /// - Parameter progress: `.databaseFinished` once per database, one call at a time.
  /// - Returns: every database's result; each database's error is in its result.
  public func rollback(
    to version: MigrationVersion,
    dryRun: Bool = false,
    allowChanged: Bool = false,
    progress: (@Sendable (SetupProgress) -> Void)? = nil
  ) -> FleetSummary {
    let migrator = self.migrator
    return run(access: dryRun ? .read : .write, progress: progress) { connection in
      let report = try migrator.rollback(
        connection,
        .version(version),
        dryRun: dryRun,
        allowChanged: allowChanged
      )
      return report.steps.isEmpty ? .upToDate(report.toVersion) : .migrated(report)
    }
  }

  /// Reads every database's plan without changing anything (each database must exist).
  ///
  /// - Parameter progress: `.databaseFinished` once per database, one call at a time.
  /// - Returns: every database's result: `inspected` with its plan, or `failed`.
  public func plans(
    progress: (@Sendable (SetupProgress) -> Void)? = nil
  ) -> FleetSummary {
    let migrator = self.migrator
    return run(access: .read, progress: progress) { .inspected(try migrator.plan($0)) }
  }

  /// Checks every database against the migrations as `Validator` does (read only; each
  /// database must exist), with the fleet's `configuration` in the replay.
  ///
  /// - Parameter progress: `.databaseFinished` once per database, one call at a time.
  /// - Returns: every database's result: `validated` with its problems, or `failed`.
  public func validate(
    progress: (@Sendable (SetupProgress) -> Void)? = nil
  ) -> FleetSummary {
    let validator = Validator(migrator.migrations, configuration: configuration)
    return run(access: .read, progress: progress) { connection in
      .validated(try validator.validate(connection, databaseName: nil))
    }
  }

  /// Opens each database with `access`, runs `work` on it and closes it, `jobs` at a time.
  ///
  /// - Parameter before: runs first on each database; when it gives an outcome, that is the
  ///   database's and `work` does not run.
  private func run(
    access: DatabaseAccess,
    progress: (@Sendable (SetupProgress) -> Void)?,
    before: @escaping @Sendable (URL) throws -> FleetDatabaseResult.Outcome? = { _ in nil },
    work: @escaping @Sendable (Connection) throws -> FleetDatabaseResult.Outcome
  ) -> FleetSummary {
    let (busyTimeout, configuration) = (self.busyTimeout, self.configuration)
    let queue = FleetQueue(databases, failFast: failFast, progress: progress)
    queue.runWorkers(Swift.max(1, Swift.min(jobs, databases.count))) { url in
      do {
        if let outcome = try before(url) { return outcome }
        let connection = try Connection.open(
          at: url,
          access: access,
          busyTimeout: busyTimeout,
          configuration: configuration
        )
        return try work(connection)  // the connection closes as it goes out of scope
      } catch {
        return .failed(error)
      }
    }
    return FleetSummary(results: queue.results(databases))
  }
}
