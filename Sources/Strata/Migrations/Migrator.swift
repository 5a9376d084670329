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
  /// - Throws: `SQLiteError` when the history cannot be read.
  public func plan(_ connection: Connection) throws -> MigrationPlan {
    MigrationPlan(set: migrations, applied: try History.read(connection))
  }

  /// The problems that stop `migrate`: changed, unknown and out-of-order migrations.
  public func problems(in plan: MigrationPlan) -> [MigrationError] {
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
  ///   failed, saying which version the database is at now; `SQLiteError` when the history cannot
  ///   be read.
  @discardableResult
  public func migrate(
    _ connection: Connection,
    options: MigrateOptions = MigrateOptions()
  ) throws -> MigrationReport {
    let plan = try self.plan(connection)
    if let target = options.target {
      try checkTarget(target, plan: plan)
      if target < plan.currentVersion {
        return try rollback(
          connection,
          to: target,
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
    let toApply = migrations.migrations.filter {
      wanted.contains($0.version) && $0.version <= (options.target ?? .max)
    }
    let remaining = wanted.count - toApply.count
    if options.dryRun {
      let steps = toApply.map {
        MigrationStep($0, $0.up, .up, sql: $0.up.sql)
      }
      return MigrationReport(
        fromVersion: plan.currentVersion,
        toVersion: toApply.last.map { max($0.version, plan.currentVersion) } ?? plan.currentVersion,
        steps: steps,
        dryRun: true,
        pendingCount: remaining
      )
    }
    let baseline = ForeignKeyBaseline()
    let steps =
      options.singleTransaction
      ? try applyAll(toApply, connection, startVersion: plan.currentVersion, baseline: baseline)
      : try applyEach(toApply, connection, baseline: baseline)
    return MigrationReport(
      fromVersion: plan.currentVersion,
      toVersion: try databaseVersion(connection),
      steps: steps,
      dryRun: false,
      pendingCount: remaining,
      foreignKeyViolationsKept: baseline.kept,
      foreignKeyViolationsKeptCount: baseline.keptCount
    )
  }

  /// Reverts the newest `steps` applied migrations, or every one above `version`.
  ///
  /// - Throws: `MigrationError`: a missing, changed or irreversible migration, an unknown target,
  ///   or a down part that failed, saying which version the database is at now; `SQLiteError` when
  ///   the history cannot be read.
  @discardableResult
  public func rollback(
    _ connection: Connection,
    steps: Int = 1,
    to version: Int64? = nil,
    dryRun: Bool = false,
    allowChanged: Bool = false
  ) throws -> MigrationReport {
    let plan = try self.plan(connection)
    let applied = plan.migrations.filter { $0.appliedAt != nil }.sorted { $0.version > $1.version }
    let chosen: [MigrationStatus]
    if let version {
      try checkTarget(version, plan: plan)
      chosen = applied.filter { $0.version > version }
    } else {
      chosen = Array(applied.prefix(max(0, steps)))
    }
    var toRevert: [(Migration, MigrationScript)] = []
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
        throw MigrationError.irreversible(version: migration.version, file: migration.up.file)
      }
      toRevert.append((migration, down))
    }
    if dryRun {
      let remaining = applied.dropFirst(toRevert.count).first?.version ?? 0
      return MigrationReport(
        fromVersion: plan.currentVersion,
        toVersion: remaining,
        steps: toRevert.map {
          MigrationStep($0.0, $0.1, .down, sql: $0.1.sql)
        },
        dryRun: true,
        pendingCount: 0
      )
    }
    var done: [MigrationStep] = []
    let baseline = ForeignKeyBaseline()
    try reportingState(connection, completed: { done }) {
      try withForeignKeysDeferred(connection) {
        let history = try HistoryWriter(connection)
        for (migration, down) in toRevert {
          let started = ContinuousClock.now
          let ran: Bool
          if down.isTransactional {
            ran = try withForeignKeyBaseline(connection, baseline) {
              try connection.transaction(.immediate) { () -> Bool in
                guard try history.isApplied(migration.version) else { return false }
                try run(down, of: migration, connection, isRollback: true)
                try history.remove(migration.version)
                try checkForeignKeys(
                  connection,
                  migration: migration,
                  file: down.file,
                  isRollback: true,
                  baseline: baseline
                )
                return true
              }
            }
          } else {
            baseline.before = nil
            // `-- migrate:down transaction:false`: the statements run on their own; the history
            // row goes only after they all succeed.
            let applied = try connection.transaction(.immediate) {
              try history.isApplied(migration.version)
            }
            if applied {
              try run(down, of: migration, connection, isRollback: true)
              try connection.transaction(.immediate) { try history.remove(migration.version) }
            }
            ran = applied
          }
          guard ran else { continue }
          done.append(
            MigrationStep(
              migration,
              down,
              .down,
              durationMs: milliseconds(ContinuousClock.now - started)
            )
          )
        }
      }
    }
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
  ///   SQLite failure while recording.
  @discardableResult
  public func baseline(_ connection: Connection, version: Int64) throws -> [Migration] {
    guard migrations.migration(version: version) != nil else {
      throw MigrationError.unknownTarget(version: version)
    }
    let recorded = migrations.migrations.filter { $0.version <= version }
    try reportingState(connection) {
      try connection.transaction(.immediate) {
        let history = try HistoryWriter(connection)
        try history.createTableIfNeeded()
        let existing = try History.read(connection)
        guard existing.isEmpty else {
          throw MigrationError.baselineOnManagedDatabase(appliedCount: existing.count)
        }
        let now = Date()
        for migration in recorded {
          try history.record(migration, appliedAt: now, durationMs: 0)
        }
      }
    }
    return recorded
  }

  // MARK: - Applying

  private func applyEach(
    _ toApply: [Migration],
    _ connection: Connection,
    baseline: ForeignKeyBaseline
  ) throws
    -> [MigrationStep]
  {
    var steps: [MigrationStep] = []
    try reportingState(connection, completed: { steps }) {
      try withForeignKeysDeferred(connection) {
        let history = try HistoryWriter(connection)
        for migration in toApply {
          let started = ContinuousClock.now
          let ran: Bool
          if migration.up.isTransactional {
            ran = try withForeignKeyBaseline(connection, baseline) {
              try connection.transaction(.immediate) { () -> Bool in
                try history.createTableIfNeeded()
                guard try !history.isApplied(migration.version) else { return false }
                try run(migration.up, of: migration, connection, isRollback: false)
                try checkForeignKeys(
                  connection,
                  migration: migration,
                  file: migration.up.file,
                  isRollback: false,
                  baseline: baseline
                )
                try history.record(
                  migration,
                  appliedAt: Date(),
                  durationMs: milliseconds(ContinuousClock.now - started)
                )
                return true
              }
            }
          } else {
            baseline.before = nil
            ran = try applyOutsideTransaction(migration, history, connection, started: started)
          }
          guard ran else { continue }
          steps.append(
            MigrationStep(
              migration,
              migration.up,
              .up,
              durationMs: milliseconds(ContinuousClock.now - started)
            )
          )
        }
      }
    }
    return steps
  }

  /// `transaction:false`: the statements run on their own; the history row is written only
  /// after they all succeed.
  private func applyOutsideTransaction(
    _ migration: Migration,
    _ history: HistoryWriter,
    _ connection: Connection,
    started: ContinuousClock.Instant
  ) throws -> Bool {
    let alreadyApplied = try connection.transaction(.immediate) { () -> Bool in
      try history.createTableIfNeeded()
      return try history.isApplied(migration.version)
    }
    if alreadyApplied { return false }
    try run(migration.up, of: migration, connection, isRollback: false)
    try connection.transaction(.immediate) {
      guard try !history.isApplied(migration.version) else { return }
      try history.record(
        migration,
        appliedAt: Date(),
        durationMs: milliseconds(ContinuousClock.now - started)
      )
    }
    return true
  }

  private func applyAll(
    _ toApply: [Migration],
    _ connection: Connection,
    startVersion: Int64,
    baseline: ForeignKeyBaseline
  ) throws -> [MigrationStep] {
    if let loose = toApply.first(where: { !$0.up.isTransactional }) {
      throw MigrationError.noTransactionInSingleTransaction(
        version: loose.version,
        file: loose.up.file
      )
    }
    return try reportingState(connection) {
      try withForeignKeysDeferred(connection) {
        try withForeignKeyBaseline(connection, baseline) {
          try connection.transaction(.immediate) { () -> [MigrationStep] in
            let history = try HistoryWriter(connection)
            try history.createTableIfNeeded()
            var steps: [MigrationStep] = []
            for migration in toApply {
              let started = ContinuousClock.now
              guard try !history.isApplied(migration.version) else { continue }
              try run(migration.up, of: migration, connection, isRollback: false)
              try checkForeignKeys(
                connection,
                migration: migration,
                file: migration.up.file,
                isRollback: false,
                baseline: baseline
              )
              let duration = milliseconds(ContinuousClock.now - started)
              try history.record(migration, appliedAt: Date(), durationMs: duration)
              steps.append(
                MigrationStep(migration, migration.up, .up, durationMs: duration)
              )
            }
            return steps
          }
        }
      }
    }
  }

  /// Runs one part of a migration, turning a statement's failure into an error that names the
  /// file and line.
  private func run(
    _ script: MigrationScript,
    of migration: Migration,
    _ connection: Connection,
    isRollback: Bool
  ) throws {
    // The user's SQL may read strata's own tables but never change them (Authorizer.swift).
    let fence = connection.raiseFence(.strataTables)
    defer { connection.restoreFence(fence) }
    do {
      try connection.executeScript(script.sql, firstLine: script.firstLine) { statement in
        if script.isTransactional, let forbidden = Self.forbiddenInTransaction(statement.sql) {
          throw MigrationError.needsNoTransaction(
            version: migration.version,
            file: script.file,
            line: statement.line,
            statement: forbidden,
            databaseVersion: 0
          )
        }
      }
    } catch let error as ScriptError {
      // Some (such as `PRAGMA synchronous = …`) already fail when prepared.
      if script.isTransactional,
        let forbidden = Self.forbiddenInTransaction(error.underlying.sql ?? "")
      {
        throw MigrationError.needsNoTransaction(
          version: migration.version,
          file: script.file,
          line: error.line,
          statement: forbidden,
          databaseVersion: 0
        )
      }
      if !script.isTransactional {
        throw MigrationError.partiallyApplied(
          version: migration.version,
          file: script.file,
          line: error.line,
          statementsRun: error.statementNumber - 1,
          error: error.underlying,
          isRollback: isRollback,
          databaseVersion: 0
        )
      }
      if isRollback {
        throw MigrationError.rollbackFailed(
          version: migration.version,
          file: script.file,
          line: error.line,
          error: error.underlying,
          databaseVersion: 0
        )
      }
      throw MigrationError.failed(
        version: migration.version,
        file: script.file,
        line: error.line,
        error: error.underlying,
        databaseVersion: 0,
        keptEarlier: false
      )
    }
  }

  /// Names a statement that SQLite refuses, or silently ignores, inside a transaction.
  /// Statements that begin or end a transaction.
  static let transactionControl: Set<String> = ["BEGIN", "COMMIT", "END", "ROLLBACK"]
  /// The first words `forbiddenInTransaction` looks further at.
  static let checkedFirstWords = transactionControl.union(["VACUUM", "PRAGMA"])

  static func forbiddenInTransaction(_ sql: String) -> String? {
    // The first word decides; looking at it alone keeps a file of many large INSERTs linear.
    let firstWord = sql.drop { !$0.isLetter && $0 != "_" && $0 != "=" }
      .prefix { $0.isLetter || $0 == "_" || $0 == "=" }
    guard firstWord.count <= 8, Self.checkedFirstWords.contains(firstWord.uppercased()) else {
      return nil
    }
    let words = sql.uppercased().split(whereSeparator: { !$0.isLetter && $0 != "_" && $0 != "=" })
    guard let first = words.first else { return nil }
    if first == "VACUUM" { return "VACUUM" }
    // Transaction control would commit or drop strata's own transaction half way through the
    // migration (`ROLLBACK TO savepoint` stays inside it and is fine).
    if transactionControl.contains(String(first)) {
      let rest = words.dropFirst().drop { $0 == "TRANSACTION" }
      if first == "ROLLBACK", rest.first == "TO" { return nil }
      return String(first)
    }
    if first == "PRAGMA", sql.contains("=") || sql.contains("(") {
      let compact = sql.uppercased().filter { !$0.isWhitespace }
      for pragma in ["JOURNAL_MODE", "SYNCHRONOUS"]
      where compact.contains(pragma + "=") || compact.contains(pragma + "(") {
        return "PRAGMA \(pragma.lowercased())"
      }
    }
    return nil
  }
}
