/// The state a failed migrate, rollback or baseline run left the database in, attached to its
/// error once, by `MigrationError.stopped`, after the failed step's transaction is rolled back.
public struct MigrationRunState: Hashable, Sendable {
  /// The newest applied version now; nil when it could not be read (the history itself failed,
  /// or another connection still holds the lock).
  public let databaseVersion: MigrationVersion?
  /// The steps the run committed before it failed (all applied, or all rolled back), which
  /// stay as they are.
  public let completed: [MigrationStep]
  /// The format of the folder the run read, so that the message and help name its own markers
  /// and options.
  public var format: MigrationFormat = .dbmate
  /// Set when the run was a dry run that tried the migrations on the database's rows
  /// (`MigrateOptions.triesRows`): what it tried before the failure, and what it could not
  /// try. Its transaction was rolled back, so the database was not changed; nil for a real run.
  package var dryRun: DryRunTrial?
}
