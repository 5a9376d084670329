import Foundation

/// What `migrate` may do beyond applying pending migrations in order.
public struct MigrateOptions: Sendable {
  /// Migrate up or down to this version (0: an empty database).
  public var target: MigrationVersion?
  /// All pending migrations in one transaction: all applied, or none.
  public var singleTransaction = false
  /// Change nothing: the report's steps say what would run.
  public var dryRun = false
  /// With `dryRun`, also run every pending migration on the database's rows, in one
  /// transaction that is always rolled back (`MigrationReport.trial` says what was tried), and
  /// throw the first failure as the run would. It holds the write lock meanwhile and keeps
  /// every page it changes in memory, so a check before shipping wants it, an app's launch
  /// does not. On a read-only connection, the plan only.
  public var triesRows = false
  /// Accept applied migrations whose file changed.
  public var allowChanged = false
  /// Accept applied versions that no file has (a database newer than the folder).
  public var allowUnknown = false
  /// Apply pending migrations older than the newest applied one.
  public var allowOutOfOrder = false
  /// Copy the database next to itself before the first migration of a run that applies any
  /// (not in a dry run), keeping the newest copies as the policy says; nil: no backup.
  package var backup: BackupPolicy?

  /// Options for `migrate`; the defaults apply every pending migration, each in its own
  /// transaction, and refuse changed, unknown and out-of-order migrations.
  public init(
    target: MigrationVersion? = nil,
    singleTransaction: Bool = false,
    dryRun: Bool = false,
    triesRows: Bool = false,
    allowChanged: Bool = false,
    allowUnknown: Bool = false,
    allowOutOfOrder: Bool = false
  ) {
    self.target = target
    self.singleTransaction = singleTransaction
    self.dryRun = dryRun
    self.triesRows = triesRows
    self.allowChanged = allowChanged
    self.allowUnknown = allowUnknown
    self.allowOutOfOrder = allowOutOfOrder
  }

  /// The same options with a backup policy: the CLI's `--backup` (`BackupPolicy` is package).
  package init(
    target: MigrationVersion? = nil,
    singleTransaction: Bool = false,
    dryRun: Bool = false,
    triesRows: Bool = false,
    allowChanged: Bool = false,
    allowUnknown: Bool = false,
    allowOutOfOrder: Bool = false,
    backup: BackupPolicy?
  ) {
    self.init(
      target: target,
      singleTransaction: singleTransaction,
      dryRun: dryRun,
      triesRows: triesRows,
      allowChanged: allowChanged,
      allowUnknown: allowUnknown,
      allowOutOfOrder: allowOutOfOrder
    )
    self.backup = backup
  }
}

/// One migration applied or rolled back (or, in a dry run, that would be).
public struct MigrationStep: Hashable, Sendable, Codable {
  /// Which way a step moved the database.
  package enum Direction: String, Hashable, Sendable, Codable {
    /// The up part ran: the migration was applied.
    case up
    /// The down part ran: the migration was rolled back.
    case down
  }
  /// The migration's version.
  public let version: MigrationVersion
  /// The migration's name.
  public let name: String
  /// The file whose part ran, as the user named it.
  public let file: String
  /// Up (applied) or down (rolled back).
  package let direction: Direction
  /// Wall time of the step; 0 in a dry run.
  public let durationMs: Int64
  /// The statements run (in a dry run, the SQL that would run).
  public let sql: String?
  /// True when the part has no SQL: the step only recorded (or, rolling back, removed) the
  /// migration in the history; a down step's migration keeps the changes its up part made.
  public var isNoOp = false
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
    isNoOp = script.isNoOp
  }
}

/// What `migrate` or `rollback` did.
public struct MigrationReport: Hashable, Sendable, Codable {
  /// The version before the run.
  public let fromVersion: MigrationVersion
  /// The version after the run (in a dry run, the version it would reach).
  public let toVersion: MigrationVersion
  /// Each migration applied or rolled back, in the order it ran.
  public let steps: [MigrationStep]
  /// True when nothing ran: the steps say what would have.
  public let dryRun: Bool
  /// Pending migrations left (below `--to`, or none).
  public let pendingCount: Int
  /// Foreign key violations that were in the database before the run and that it left as they
  /// were: not blamed on any migration, but worth fixing (at most 100 listed).
  public var foreignKeyViolationsKept: [ForeignKeyViolation] = []
  /// How many there are in all.
  public var foreignKeyViolationsKeptCount = 0
  /// The backup written before the first migration (`MigrateOptions.backup`), if one was.
  package var backup: DatabaseBackup?
  /// In a dry run of pending migrations: what was tried on the database's rows (in a
  /// transaction that was rolled back) and what could not be. Nil for a real run and for a dry
  /// run that rolls back, whose down parts are not tried.
  package var trial: DryRunTrial?
}
