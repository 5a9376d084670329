import Foundation

/// Applies, rolls back and reports a folder's migrations against a database.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction together with its history row,
/// so two processes migrating one file apply each migration exactly once, and a crash leaves
/// the database at the old version or the new one.
public struct Migrator: Sendable {
  /// The migrations to apply, check or roll back.
  package let migrations: MigrationSet

  /// A migrator for `migrations`; it opens nothing until called with a connection.
  public init(_ migrations: MigrationSet) {
    self.migrations = migrations
  }

  /// Every migration's state; reads only.
  ///
  /// - Throws: `SQLiteError` when the history (or another tool's) cannot be read.
  package func plan(_ connection: Connection) throws -> MigrationPlan {
    try plan(connection as any SQLDatabase)
  }

  /// `plan(_:)` through the seam to a database (SQLDatabase.swift).
  package func plan(_ connection: any SQLDatabase) throws -> MigrationPlan {
    plan(
      try RecordedHistory.read(
        connection,
        includingRepeatables: !migrations.repeatables.isEmpty
      )
    )
  }

  /// Every migration's state against a history read before (or while) the folder was.
  package func plan(_ history: RecordedHistory) -> MigrationPlan {
    let applied = self.applied(history.rows)
    var plan = MigrationPlan(
      set: migrations,
      applied: applied,
      otherTools: history.otherTools
    )
    if !migrations.repeatables.isEmpty {
      plan.repeatables = Self.repeatableStatuses(
        migrations.repeatables,
        applied: history.repeatables
      )
    }
    return plan
  }

  /// The problems that stop `migrate`: changed, unknown and out-of-order migrations.
  package func problems(in plan: MigrationPlan) -> [MigrationError] {
    var problems: [MigrationError] = []
    for entry in plan.migrations(in: .changed) {
      problems.append(
        .changedAfterApplied(
          version: entry.version,
          file: entry.file ?? "",
          recorded: entry.recordedChecksum ?? "",
          current: entry.checksum ?? ""
        )
      )
    }
    let unknown = plan.migrations(in: .unknown).map(\.version)
    if !unknown.isEmpty {
      problems.append(
        .unknownApplied(
          versions: unknown,
          newestKnown: migrations.migrations.last?.version,
          directory: migrations.directory
        )
      )
    }
    let outOfOrder = plan.migrations(in: .outOfOrder).map(\.version)
    if !outOfOrder.isEmpty {
      problems.append(.outOfOrder(versions: outOfOrder, newestApplied: plan.currentVersion))
    }
    return problems
  }

  /// Applies pending migrations in order (or moves to `options.target`).
  ///
  /// - Throws: `MigrationError`: a changed, unknown or out-of-order migration, or a migration that
  ///   failed, saying which version the database is at now; `ForeignHistoryError.notAdopted`
  ///   when another tool's history records applied migrations and strata's is empty;
  ///   `SQLiteError` when the history cannot be read; `MigrationError.insideTransaction` when the
  ///   connection is inside a transaction its caller opened (checked before anything runs);
  ///   `BackupError.notWritten` when `options.backup` asks for a backup that cannot be written
  ///   (no migration ran).
  @discardableResult
  public func migrate(
    _ connection: Connection,
    options: MigrateOptions = MigrateOptions()
  ) throws -> MigrationReport {
    try migrate(connection, options: options, willRun: nil)
  }

  /// `migrate(_:options:)`, calling `backedUp` as soon as the backup is written, before the
  /// first migration runs: a run that then fails can still say where its backup is.
  package func migrate(
    _ connection: Connection,
    options: MigrateOptions,
    backedUp: (DatabaseBackup) -> Void
  ) throws -> MigrationReport {
    try migrate(connection, options: options, willRun: nil, backedUp: backedUp)
  }

  /// What runs before each part of a migrate run: its part, its number (1-based) and how many
  /// parts the run has. It may throw to stop the run there (a cancelled launch); the parts
  /// before it stay done.
  package typealias WillRun = (_ part: MigrationPart, _ number: Int, _ count: Int) throws -> Void

  /// `migrate(_:options:)`, calling `willRun` before each part (not in a dry run), through the
  /// seam to a database: a backup and a dry run's trial on the rows need SQLite's `Connection`.
  @discardableResult
  package func migrate(
    _ connection: any SQLDatabase,
    options: MigrateOptions,
    willRun: WillRun?,
    backedUp: (DatabaseBackup) -> Void = { _ in }
  ) throws -> MigrationReport {
    try Self.refuseOpenTransaction(connection)
    if !options.dryRun { try rewriteNumberedRows(connection) }
    let plan = try self.plan(connection)
    try refuseUnadoptedHistory(plan)
    if let target = options.target {
      try checkTarget(target, plan: plan)
      if target < plan.currentVersion {
        return try rollback(
          connection,
          .version(target),
          dryRun: options.dryRun,
          allowChanged: options.allowChanged,
          willRun: nil
        )
      }
    }
    for problem in problems(in: plan) {
      switch problem {
      case .changedAfterApplied where options.allowChanged: continue
      case .unknownApplied where options.allowUnknown: continue
      case .outOfOrder where options.allowOutOfOrder: continue
      default: throw problem
      }
    }
    let wanted = Set(
      plan.migrations.filter { $0.state == .pending || $0.state == .outOfOrder }.map(\.version)
    )
    let toApply = migrations.migrations.filter { migration in
      wanted.contains(migration.version)
        && (options.target.map { migration.version <= $0 } ?? true)
    }.map(MigrationPart.init(applying:))
    let remaining = wanted.count - toApply.count
    let parts = toApply + repeatableParts(plan, target: options.target)
    if options.dryRun {
      return try dryRun(parts, applying: toApply, plan, remaining, options, connection)
    }
    let backup = try options.backup.flatMap { policy -> DatabaseBackup? in
      guard !parts.isEmpty else { return nil }
      // A backup is written by SQLite's backup API (`Connection+Backup`).
      guard let sqlite = connection as? Connection else {
        throw BackupError.notWritten(
          database: connection.path,
          backup: "",
          version: plan.currentVersion,
          reason: "only an SQLite connection can write a backup"
        )
      }
      return try DatabaseBackup.write(sqlite, version: plan.currentVersion, policy: policy)
    }
    if let backup { backedUp(backup) }
    let baseline = ForeignKeyBaseline()
    let steps =
      options.singleTransaction
      ? try runAllInOneTransaction(parts, connection, baseline: baseline, willRun: willRun)
      : try runEach(parts, connection, baseline: baseline, willRun: willRun)
    return MigrationReport(
      fromVersion: plan.currentVersion,
      toVersion: try databaseVersion(connection),
      steps: steps,
      dryRun: false,
      pendingCount: remaining,
      foreignKeyViolationsKept: baseline.kept,
      foreignKeyViolationsKeptCount: baseline.keptCount,
      backup: backup
    )
  }

  /// What `migrate` would do, checked as far as it can be without running anything (and,
  /// when `options` asks, tried on the rows in a transaction rolled back).
  private func dryRun(
    _ parts: [MigrationPart],
    applying toApply: [MigrationPart],
    _ plan: MigrationPlan,
    _ remaining: Int,
    _ options: MigrateOptions,
    _ connection: any SQLDatabase
  ) throws -> MigrationReport {
    try reportingState(connection) {
      try refuseLooseParts(parts, singleTransaction: options.singleTransaction)
      try checkOwnTransactions(toApply, singleTransaction: options.singleTransaction)
    }
    var report = MigrationReport(
      fromVersion: plan.currentVersion,
      toVersion: toApply.last.map { max($0.migration.version, plan.currentVersion) }
        ?? plan.currentVersion,
      steps: parts.map { $0.step(sql: $0.script.sql) },
      dryRun: true,
      pendingCount: remaining
    )
    if options.triesRows {
      // The trial runs behind SQLite's fence with its cache kept from spilling: on another
      // engine the dry run plans only, as on a read-only connection.
      report.trial =
        try (connection as? Connection).map { try tryOnTheRows(parts, $0) }
        ?? DryRunTrial(ranOnTheDatabase: false)
    }
    return report
  }

  /// Reverts the newest applied migrations: as many as `target` counts, or every one above its
  /// version.
  ///
  /// - Throws: `MigrationError`: a missing, changed or irreversible migration, an unknown target,
  ///   or a down part that failed, saying which version the database is at now; `SQLiteError` when
  ///   the history cannot be read; `MigrationError.insideTransaction` when the connection is
  ///   inside a transaction its caller opened.
  @discardableResult
  package func rollback(
    _ connection: Connection,
    _ target: RollbackTarget = .steps(1),
    dryRun: Bool = false,
    allowChanged: Bool = false
  ) throws -> MigrationReport {
    try rollback(connection, target, dryRun: dryRun, allowChanged: allowChanged, willRun: nil)
  }

  /// `rollback(_:_:dryRun:allowChanged:)`, calling `willRun` before each part (not in a dry run),
  /// through the seam to a database.
  package func rollback(
    _ connection: any SQLDatabase,
    _ target: RollbackTarget,
    dryRun: Bool,
    allowChanged: Bool,
    willRun: WillRun?
  ) throws -> MigrationReport {
    try Self.refuseOpenTransaction(connection)
    if !dryRun { try rewriteNumberedRows(connection) }
    let plan = try self.plan(connection)
    let applied = plan.migrations.filter { $0.appliedAt != nil }.sorted { $0.version > $1.version }
    let chosen: [MigrationStatus]
    switch target {
    case .version(let version):
      try checkTarget(version, plan: plan)
      chosen = applied.filter { $0.version > version }
    case .steps(let steps):
      chosen = Array(applied.prefix(max(0, steps)))
    }
    var toRevert: [MigrationPart] = []
    for entry in chosen {
      guard let migration = migrations.migration(version: entry.version) else {
        throw MigrationError.rollbackFileMissing(version: entry.version)
      }
      if entry.state == .changed, !allowChanged {
        throw MigrationError.changedAfterApplied(
          version: entry.version,
          file: migration.up.file,
          recorded: entry.recordedChecksum ?? "",
          current: migration.checksum
        )
      }
      guard let down = migration.down else {
        throw MigrationError.irreversible(
          version: migration.version,
          file: migration.up.file,
          format: migrations.format
        )
      }
      toRevert.append(MigrationPart(migration, down, .down))
    }
    if dryRun {
      try reportingState(connection) {
        try checkOwnTransactions(toRevert, singleTransaction: false)
      }
      let remaining = applied.dropFirst(toRevert.count).first?.version ?? .zero
      return MigrationReport(
        fromVersion: plan.currentVersion,
        toVersion: remaining,
        steps: toRevert.map { $0.step(sql: $0.script.sql) },
        dryRun: true,
        pendingCount: 0
      )
    }
    let baseline = ForeignKeyBaseline()
    let done = try runEach(toRevert, connection, baseline: baseline, willRun: willRun)
    return MigrationReport(
      fromVersion: plan.currentVersion,
      toVersion: try databaseVersion(connection),
      steps: done,
      dryRun: false,
      pendingCount: try self.plan(connection).migrations(in: .pending).count,
      foreignKeyViolationsKept: baseline.kept,
      foreignKeyViolationsKeptCount: baseline.keptCount
    )
  }

  /// Records every migration up to `version` as applied without running it, to adopt a
  /// database that predates strata.
  ///
  /// - Throws: `MigrationError`: an unknown version, a database that already has history, or an
  ///   SQLite failure while recording, or a connection inside its caller's transaction.
  @discardableResult
  package func baseline(_ connection: Connection, version: MigrationVersion) throws -> [Migration] {
    try baseline(connection as any SQLDatabase, version: version)
  }

  /// `baseline(_:version:)` through the seam to a database.
  @discardableResult
  package func baseline(
    _ connection: any SQLDatabase,
    version: MigrationVersion
  ) throws -> [Migration] {
    guard migrations.migration(version: version) != nil else {
      throw MigrationError.unknownTarget(version: version)
    }
    try Self.refuseOpenTransaction(connection)
    let recorded = migrations.migrations.filter { $0.version <= version }
    try reportingState(connection) {
      try MigrationPartRunner(connection).recordWithoutRunning(recorded)
    }
    return recorded
  }

  /// Refuses a connection inside its caller's transaction before anything runs: every run
  /// commits or rolls back transactions of its own.
  private static func refuseOpenTransaction(_ connection: any SQLDatabase) throws {
    guard connection.isAutocommit else {
      throw MigrationError.insideTransaction(path: connection.path)
    }
  }
}
