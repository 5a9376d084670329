import Foundation

/// What `migrate` may do beyond applying pending migrations in order.
public struct MigrateOptions: Sendable {
  /// Migrate up or down to this version (0: an empty database).
  public var target: Int64?
  /// All pending migrations in one transaction: all applied, or none.
  public var singleTransaction = false
  /// Plan only; the database is not opened for writing.
  public var dryRun = false
  /// Accept applied migrations whose file changed.
  public var allowChanged = false
  /// Accept applied versions that no file has (a database newer than the folder).
  public var allowUnknown = false
  /// Apply pending migrations older than the newest applied one.
  public var allowOutOfOrder = false

  public init(
    target: Int64? = nil,
    singleTransaction: Bool = false,
    dryRun: Bool = false,
    allowChanged: Bool = false,
    allowUnknown: Bool = false,
    allowOutOfOrder: Bool = false
  ) {
    self.target = target
    self.singleTransaction = singleTransaction
    self.dryRun = dryRun
    self.allowChanged = allowChanged
    self.allowUnknown = allowUnknown
    self.allowOutOfOrder = allowOutOfOrder
  }
}

/// One migration applied or rolled back (or, in a dry run, that would be).
public struct MigrationStep: Hashable, Sendable, Codable {
  /// Which way a step moved the database.
  public enum Direction: String, Hashable, Sendable, Codable { case up, down }
  public let version: Int64
  public let name: String
  public let file: String
  public let direction: Direction
  /// Wall time of the step; 0 in a dry run.
  public let durationMs: Int64
  /// The statements run (in a dry run, the SQL that would run).
  public let sql: String?
}

extension MigrationStep {
  /// A step for one part (`script`) of `migration`.
  init(
    _ migration: Migration,
    _ script: MigrationScript,
    _ direction: Direction,
    durationMs: Int64 = 0,
    sql: String? = nil
  ) {
    self.init(
      version: migration.version,
      name: migration.name,
      file: script.file,
      direction: direction,
      durationMs: durationMs,
      sql: sql
    )
  }
}

/// What `migrate` or `rollback` did.
public struct MigrationReport: Hashable, Sendable, Codable {
  public let fromVersion: Int64
  public let toVersion: Int64
  public let steps: [MigrationStep]
  public let dryRun: Bool
  /// Pending migrations left (below `--to`, or none).
  public let pendingCount: Int
}

/// Applies, rolls back and reports a folder's migrations against a database.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction together with its history row,
/// so two processes migrating one file apply each migration exactly once, and a crash leaves
/// the database at the old version or the new one.
public struct Migrator: Sendable {
  public let migrations: MigrationSet

  public init(_ migrations: MigrationSet) {
    self.migrations = migrations
  }

  /// Every migration's state; reads only.
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
    let steps =
      options.singleTransaction
      ? try applyAll(toApply, connection, startVersion: plan.currentVersion)
      : try applyEach(toApply, connection)
    return MigrationReport(
      fromVersion: plan.currentVersion,
      toVersion: try databaseVersion(connection),
      steps: steps,
      dryRun: false,
      pendingCount: remaining
    )
  }

  /// Reverts the newest `steps` applied migrations, or every one above `version`.
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
    try reportingState(connection) {
      try withForeignKeysDeferred(connection) {
        let history = try HistoryWriter(connection)
        for (migration, down) in toRevert {
          let started = ContinuousClock.now
          let ran: Bool
          if down.isTransactional {
            ran = try connection.transaction(.immediate) { () -> Bool in
              guard try history.isApplied(migration.version) else { return false }
              try run(down, of: migration, connection, isRollback: true)
              try history.remove(migration.version)
              try checkForeignKeys(connection, migration: migration, file: down.file)
              return true
            }
          } else {
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
      pendingCount: try self.plan(connection).migrations(in: .pending).count
    )
  }

  /// Records every migration up to `version` as applied without running it, to adopt a
  /// database that predates strata.
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
    _ connection: Connection
  ) throws
    -> [MigrationStep]
  {
    var steps: [MigrationStep] = []
    try reportingState(connection, keptEarlier: { !steps.isEmpty }) {
      try withForeignKeysDeferred(connection) {
        let history = try HistoryWriter(connection)
        for migration in toApply {
          let started = ContinuousClock.now
          let ran: Bool
          if migration.up.isTransactional {
            ran = try connection.transaction(.immediate) { () -> Bool in
              try history.createTableIfNeeded()
              guard try !history.isApplied(migration.version) else { return false }
              try run(migration.up, of: migration, connection, isRollback: false)
              try checkForeignKeys(connection, migration: migration, file: migration.up.file)
              try history.record(
                migration,
                appliedAt: Date(),
                durationMs: milliseconds(ContinuousClock.now - started)
              )
              return true
            }
          } else {
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
    startVersion: Int64
  ) throws -> [MigrationStep] {
    if let loose = toApply.first(where: { !$0.up.isTransactional }) {
      throw MigrationError.noTransactionInSingleTransaction(
        version: loose.version,
        file: loose.up.file
      )
    }
    return try reportingState(connection) {
      try withForeignKeysDeferred(connection) {
        try connection.transaction(.immediate) { () -> [MigrationStep] in
          let history = try HistoryWriter(connection)
          try history.createTableIfNeeded()
          var steps: [MigrationStep] = []
          for migration in toApply {
            let started = ContinuousClock.now
            guard try !history.isApplied(migration.version) else { continue }
            try run(migration.up, of: migration, connection, isRollback: false)
            try checkForeignKeys(connection, migration: migration, file: migration.up.file)
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

  static func forbiddenInTransaction(_ sql: String) -> String? {
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

  // MARK: - Foreign keys

  /// Foreign keys off before `BEGIN` (inside a transaction the pragma is a no-op), restored
  /// after, on the same connection; so a table rebuild's `DROP TABLE` cannot cascade.
  private func withForeignKeysDeferred<T>(
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

  private func checkForeignKeys(
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

  // MARK: - State

  private func databaseVersion(_ connection: Connection) throws -> Int64 {
    try History.currentVersion(connection)
  }

  private func checkTarget(_ target: Int64, plan: MigrationPlan) throws {
    guard target == 0 || plan.migrations.contains(where: { $0.version == target }) else {
      throw MigrationError.unknownTarget(version: target)
    }
  }

  /// Runs `body`; a failure comes out as a `MigrationError` that says what state the database
  /// is in now (its transaction is rolled back by then).
  private func reportingState<T>(
    _ connection: Connection,
    keptEarlier: () -> Bool = { false },
    _ body: () throws -> T
  ) throws -> T {
    do {
      return try body()
    } catch let error as MigrationError {
      throw withState(error, connection, keptEarlier: keptEarlier())
    } catch let error as SQLiteError where error.isBusy {
      throw MigrationError.locked(
        path: connection.path,
        error: error,
        databaseVersion: try? connection.withoutWaitingForLocks { try databaseVersion(connection) },
        keptEarlier: keptEarlier()
      )
    } catch let error as SQLiteError {
      throw MigrationError.database(
        path: connection.path,
        error: error,
        databaseVersion: try? databaseVersion(connection)
      )
    }
  }

  /// Fills in the database's version now that the failed transaction is rolled back.
  private func withState(
    _ error: MigrationError,
    _ connection: Connection,
    keptEarlier: Bool
  )
    -> MigrationError
  {
    let version = (try? databaseVersion(connection)) ?? 0
    switch error {
    case .failed(let v, let file, let line, let underlying, _, _):
      return .failed(
        version: v,
        file: file,
        line: line,
        error: underlying,
        databaseVersion: version,
        keptEarlier: keptEarlier
      )
    case .rollbackFailed(let v, let file, let line, let underlying, _):
      return .rollbackFailed(
        version: v,
        file: file,
        line: line,
        error: underlying,
        databaseVersion: version
      )
    case .foreignKeyViolation(let v, let file, let violations, _):
      return .foreignKeyViolation(
        version: v,
        file: file,
        violations: violations,
        databaseVersion: version
      )
    case .needsNoTransaction(let v, let file, let line, let statement, _):
      return .needsNoTransaction(
        version: v,
        file: file,
        line: line,
        statement: statement,
        databaseVersion: version
      )
    case .partiallyApplied(let v, let file, let line, let run, let underlying, let isRollback, _):
      return .partiallyApplied(
        version: v,
        file: file,
        line: line,
        statementsRun: run,
        error: underlying,
        isRollback: isRollback,
        databaseVersion: version
      )
    default:
      return error
    }
  }
}
