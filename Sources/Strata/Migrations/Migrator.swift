import Foundation

/// Applies, rolls back and reports a folder's migrations against a database.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction together with its history row,
/// so two processes migrating one file apply each migration exactly once, and a crash leaves
/// the database at the old version or the new one.
public struct Migrator: Sendable {
  /// The migrations to apply, check or roll back.
  public let migrations: MigrationSet

  /// A migrator for `migrations`; it opens nothing until called with a connection.
  public init(_ migrations: MigrationSet) {
    self.migrations = migrations
  }

  /// Every migration's state; reads only.
  ///
  /// - Throws: `SQLiteError` when the history (or another tool's) cannot be read.
  package func plan(_ connection: Connection) throws -> MigrationPlan {
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
  typealias WillRun = (_ part: MigrationPart, _ number: Int, _ count: Int) throws -> Void

  /// `migrate(_:options:)`, calling `willRun` before each part (not in a dry run).
  func migrate(
    _ connection: Connection,
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
          allowChanged: options.allowChanged
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
      if options.triesRows { report.trial = try tryOnTheRows(parts, connection) }
      return report
    }
    let backup = try options.backup.flatMap { policy in
      parts.isEmpty
        ? nil
        : try DatabaseBackup.write(connection, version: plan.currentVersion, policy: policy)
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

  /// `rollback(_:_:dryRun:allowChanged:)`, calling `willRun` before each part (not in a dry run).
  func rollback(
    _ connection: Connection,
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

  // MARK: - Running

  /// Refuses a connection inside its caller's transaction before anything runs: every run
  /// commits or rolls back transactions of its own.
  private static func refuseOpenTransaction(_ connection: Connection) throws {
    guard connection.isAutocommit else {
      throw MigrationError.insideTransaction(path: connection.path)
    }
  }

  /// Runs each part in a transaction of its own (or none, for `transaction:false`); the parts
  /// that ran before a failure stay done. The database's lock is kept from one commit to the
  /// next (`MigrationRunLock`).
  private func runEach(
    _ parts: [MigrationPart],
    _ connection: Connection,
    baseline: ForeignKeyBaseline,
    willRun: WillRun? = nil
  ) throws -> [MigrationStep] {
    var steps: [MigrationStep] = []
    try reportingState(connection, completed: { steps }) {
      // Given up after the foreign keys' setting is restored, and before a failure is read.
      let lock = MigrationRunLock(connection)
      defer { lock.release() }
      try Self.withForeignKeysDeferred(connection) {
        let runner = try MigrationPartRunner(
          connection,
          baseline: baseline,
          format: migrations.format,
          lock: lock
        )
        for (index, part) in parts.enumerated() {
          try willRun?(part, index + 1, parts.count)
          if let step = try runner.runAlone(part) { steps.append(step) }
        }
      }
    }
    return steps
  }

  /// `--single-transaction`: every part in one transaction, so a failure leaves none applied.
  private func runAllInOneTransaction(
    _ parts: [MigrationPart],
    _ connection: Connection,
    baseline: ForeignKeyBaseline,
    willRun: WillRun?
  ) throws -> [MigrationStep] {
    try refuseLooseParts(parts, singleTransaction: true)
    return try reportingState(connection) {
      try checkOwnTransactions(parts, singleTransaction: true)
      return try Self.withForeignKeysDeferred(connection) {
        try Self.withForeignKeyBaseline(connection, baseline) {
          try connection.transaction(.immediate) { () -> [MigrationStep] in
            let runner = try MigrationPartRunner(connection, baseline: baseline)
            var steps: [MigrationStep] = []
            for (index, part) in parts.enumerated() {
              try willRun?(part, index + 1, parts.count)
              let started = ContinuousClock.now
              guard try runner.runInTransaction(part, started: started) else { continue }
              steps.append(part.step(durationMs: milliseconds(ContinuousClock.now - started)))
            }
            return steps
          }
        }
      }
    }
  }

  /// In a run in one transaction, refuses a part marked to run outside a transaction.
  private func refuseLooseParts(_ parts: [MigrationPart], singleTransaction: Bool) throws {
    guard singleTransaction, let loose = parts.first(where: { !$0.script.isTransactional })
    else { return }
    throw MigrationError.noTransactionInSingleTransaction(
      version: loose.migration.version,
      file: loose.script.file,
      format: migrations.format
    )
  }

  /// Refuses, before anything runs, a part whose own transaction cannot work as written, and
  /// in a run in one transaction any part that manages its own (its `BEGIN` would fail there).
  private func checkOwnTransactions(_ parts: [MigrationPart], singleTransaction: Bool) throws {
    for part in parts {
      guard let own = try OwnTransaction.find(in: part, format: migrations.format),
        singleTransaction
      else { continue }
      throw MigrationError.ownTransactionInSingleTransaction(
        version: part.migration.version,
        file: part.script.file,
        line: own.statements[own.blocks[0].begin].line
      )
    }
  }
}
