import Foundation
import Strata

/// Migrates a dqlite cluster's database with a file's guarantees (docs/dqlite.md): each
/// migration in one transaction on the leader with its history row, the foreign keys checked
/// before each commit, two clients applying each migration once. What the cluster cannot
/// fence (SQLite's authorizer keeps a migration off strata's own tables and off other files)
/// is checked first on a local copy, the cluster's DUMP: a run that fails there never touches
/// the cluster. A leader lost mid-run is reported with the version the new leader has.
package struct DqliteMigrator {
  package let migrator: Migrator
  package let database: DqliteDatabase

  package init(_ migrator: Migrator, on database: DqliteDatabase) {
    self.migrator = migrator
    self.database = database
  }

  /// Applies pending migrations (or moves to `options.target`); a dry run plans and tries
  /// them on the copy only.
  ///
  /// - Throws: `DqliteRunError` when the copy refused the run (the cluster unchanged) or the
  ///   leader was lost mid-run; `MigrationError` as on a file; `DqliteError` when no leader
  ///   answers.
  @discardableResult
  package func migrate(
    options: MigrateOptions = MigrateOptions(),
    willRun: Migrator.WillRun? = nil
  ) throws -> MigrationReport {
    if options.backup != nil {
      throw DqliteRunError.backupNotOffered(path: database.path)
    }
    let tried = try tryOnCopy(options: options)
    if options.dryRun { return tried }
    return try reportingLeaderLoss {
      try migrator.migrate(database, options: options, willRun: willRun)
    }
  }

  /// The run `migrate(options:willRun:)` makes first, on a local copy of the database (its
  /// DUMP): the whole run, or for a dry run its plan and trial. The cluster is not changed.
  ///
  /// - Throws: `DqliteRunError.refusedOnCopy` when the run fails there.
  @discardableResult
  package func tryOnCopy(options: MigrateOptions = MigrateOptions()) throws -> MigrationReport {
    try rehearse { copy in
      var dry = options
      dry.backup = nil
      // Before a real run the trial is scratch: all in one transaction (one commit on the copy
      // instead of one a migration), unless a part cannot run in one, which is refused before
      // anything runs, and the trial then goes as the run will.
      dry.singleTransaction = options.singleTransaction || !options.dryRun
      do {
        return try migrator.migrate(copy, options: dry, willRun: nil)
      } catch let error as MigrationError where !options.singleTransaction && !options.dryRun {
        switch error.underlyingFailure {
        case .noTransactionInSingleTransaction, .ownTransactionInSingleTransaction:
          dry.singleTransaction = false
          return try migrator.migrate(copy, options: dry, willRun: nil)
        default: throw error
        }
      }
    }
  }

  /// Reverts the newest applied migrations, as `Migrator.rollback` does on a file.
  ///
  /// - Throws: as `migrate(options:willRun:)`.
  @discardableResult
  package func rollback(
    _ target: RollbackTarget,
    dryRun: Bool = false,
    allowChanged: Bool = false
  ) throws -> MigrationReport {
    let tried = try rehearse { copy in
      try migrator.rollback(copy, target, dryRun: dryRun, allowChanged: allowChanged, willRun: nil)
    }
    if dryRun { return tried }
    return try reportingLeaderLoss {
      try migrator.rollback(
        database,
        target,
        dryRun: false,
        allowChanged: allowChanged,
        willRun: nil
      )
    }
  }

  /// Runs `body` on a local copy of the database (its DUMP), where SQLite's authorizer fences
  /// each statement as on a file. The copy is scratch: its writes are not made durable.
  private func rehearse(_ body: (Connection) throws -> MigrationReport) throws -> MigrationReport {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-dqlite-copy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try database.snapshot(in: folder)
    let copy = try ConnectionConfiguration().open(
      path: file.path,
      mode: .readWrite,
      busyTimeout: Connection.defaultBusyTimeout,
      foreignKeys: true,
      shownAs: database.path
    )
    // Scratch: no flush, and the rollback journal in memory (no file made and removed per
    // migration); a failed migration still rolls back there.
    try copy.execute("PRAGMA synchronous = OFF")
    _ = try copy.scalar("PRAGMA journal_mode = MEMORY")
    do {
      return try body(copy)
    } catch let error as MigrationError {
      throw DqliteRunError.refusedOnCopy(
        path: database.path,
        failure: error.underlyingFailure,
        version: try? migrator.plan(database).currentVersion
      )
    }
  }

  /// Runs `body` on the cluster; when the leader is lost, finds the new one and reads the
  /// version there.
  private func reportingLeaderLoss(_ body: () throws -> MigrationReport) throws -> MigrationReport {
    do {
      return try body()
    } catch let interrupted as MigrationInterrupted {
      throw leaderLost(interrupted.underlying, completed: interrupted.completed)
    } catch let error where database.isConnectionLost(error) {
      throw leaderLost(error, completed: [])
    }
  }

  private func leaderLost(_ error: any Error, completed: [MigrationStep]) -> DqliteRunError {
    var version: MigrationVersion?
    var reconnectFailure: String?
    do {
      try database.reconnect()
      version = try migrator.plan(database).currentVersion
    } catch {
      reconnectFailure = (error as? any StrataError)?.message ?? "\(error)"
    }
    return .leaderLost(
      path: database.path,
      cause: (error as? any StrataError)?.message ?? "\(error)",
      completed: completed,
      version: version,
      reconnectFailure: reconnectFailure
    )
  }
}

/// A run on a cluster that stopped: where, and the cluster's version now.
public enum DqliteRunError: Error {
  /// The run failed on the local copy first: the cluster was not changed.
  case refusedOnCopy(path: String, failure: MigrationError, version: MigrationVersion?)
  /// The leader was lost mid-run: the parts committed before stay; the one in flight was
  /// committed whole or rolled back by dqlite. `version` is the new leader's (nil when none
  /// answered: `reconnectFailure` says why).
  case leaderLost(
    path: String,
    cause: String,
    completed: [MigrationStep],
    version: MigrationVersion?,
    reconnectFailure: String?
  )
  /// A backup before migrating is SQLite's backup API, for a file.
  case backupNotOffered(path: String)
  /// The database holds nothing yet, so there is nothing to seed, back up or roll back: never
  /// migrated, or a name the cluster never had (dqlite makes one of any name on first use).
  case missingDatabase(path: String)
}

extension DqliteRunError: StrataError {
  public var message: String {
    switch self {
    case .refusedOnCopy(let path, let failure, let version):
      return "\(failure.message) (found on a copy of \(path) taken first: the cluster was not "
        + "changed\(version.map { "; it is at version \($0)" } ?? ""))."
    case .leaderLost(let path, let cause, let completed, let version, let reconnectFailure):
      var text = "The connection to the leader of \(path) was lost mid-run: \(cause) "
      if let first = completed.first, let last = completed.last {
        let which =
          completed.count == 1 ? "\(first.version)" : "\(first.version) to \(last.version)"
        text +=
          "This run applied \(completed.count) migration(s) before that (\(which)), which "
          + "stay applied. "
      }
      text +=
        "A migration in flight that runs in one transaction (as migrations do unless they say "
        + "otherwise) was committed whole or rolled back by dqlite, never half-applied; one "
        + "marked to run outside a transaction, or with its own BEGIN and COMMIT, may have "
        + "stopped part-way, unrecorded. "
      if let version {
        text += "The new leader has the database at version \(version)."
      } else {
        text += "Its version could not be read: \(reconnectFailure ?? "no leader answered")."
      }
      return text
    case .backupNotOffered(let path):
      return "A backup before migrating is written with SQLite's backup API, which \(path) "
        + "does not offer; nothing was run."
    case .missingDatabase(let path):
      return "\(path) holds no table yet: it was never migrated, or its name is mistyped "
        + "(dqlite makes a database of any name when it is first opened, so the two look "
        + "alike). Nothing was read or changed."
    }
  }

  public var help: String {
    switch self {
    case .refusedOnCopy(_, let failure, _): failure.help
    case .leaderLost:
      "Run the migration again once the cluster has a leader: it applies the rest, and no "
        + "migration that runs in one transaction twice."
    case .backupNotOffered:
      "Take a backup of the cluster's database first (its DUMP, as a file), then migrate "
        + "without a backup."
    case .missingDatabase:
      "Check the database's name at the end of the address; a new database gets its tables "
        + "by being migrated first."
    }
  }

  public var underlyingError: (any Error)? {
    if case .refusedOnCopy(_, let failure, _) = self { return failure }
    return nil
  }
}
