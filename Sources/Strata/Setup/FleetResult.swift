import Foundation

/// What happened to one database of a fleet run, reported as it finishes.
public struct FleetDatabaseResult: Sendable {
  /// The database file, as the fleet was given it.
  public let database: URL
  /// What the run did to it.
  package let outcome: Outcome

  /// What a fleet run did to one database.
  package enum Outcome: Sendable {
    /// Migrations ran (or were reverted): the report says from which version to which.
    case migrated(MigrationReport)
    /// Nothing to do: the database was already at this version.
    case upToDate(MigrationVersion)
    /// The database's plan, read without changing anything (a fleet `status` or check).
    case inspected(MigrationPlan)
    /// The database checked by `validate()`: its problems (none when it agrees with the
    /// migrations) and what the replay could not check.
    case validated(ValidationResult)
    /// This database failed with the error a single run on it would throw; the file is as that
    /// error says (each migration commits on its own, so at the last one that succeeded).
    case failed(any Error)
    /// Not started: an earlier database failed and the fleet stops at a failure.
    case skipped
  }

  /// The error, when this database failed.
  public var error: (any Error)? {
    if case .failed(let error) = outcome { return error }
    return nil
  }
}

/// Every database's result, in the order the fleet was given them, and the counts a summary
/// line shows.
public struct FleetSummary: Sendable {
  /// One result per database, in the fleet's order (not the order they finished in).
  public let results: [FleetDatabaseResult]

  /// Databases whose migrations ran.
  public var migratedCount: Int { count { if case .migrated = $0 { true } else { false } } }
  /// Databases that were already up to date (or, read by `plans()`, have nothing to do).
  public var upToDateCount: Int {
    count {
      switch $0 {
      case .upToDate: true
      case .inspected(let plan): plan.isUpToDate
      default: false
      }
    }
  }
  /// Databases read by `plans()` that have pending, changed or unknown migrations.
  public var behindCount: Int {
    count { if case .inspected(let plan) = $0 { !plan.isUpToDate } else { false } }
  }
  /// Databases `validate()` found agreeing with the migrations.
  public var validCount: Int {
    count { if case .validated(let result) = $0 { result.problems.isEmpty } else { false } }
  }
  /// Databases `validate()` found problems in.
  public var invalidCount: Int {
    count { if case .validated(let result) = $0 { !result.problems.isEmpty } else { false } }
  }
  /// Databases that failed.
  public var failedCount: Int { count { if case .failed = $0 { true } else { false } } }
  /// Databases not started because the fleet stopped at a failure.
  public var skippedCount: Int { count { if case .skipped = $0 { true } else { false } } }
  /// The databases that failed, with their errors.
  public var failures: [FleetDatabaseResult] { results.filter { $0.error != nil } }
  /// True when no database failed or was skipped.
  public var succeeded: Bool { failedCount == 0 && skippedCount == 0 }

  private func count(_ matches: (FleetDatabaseResult.Outcome) -> Bool) -> Int {
    results.reduce(0) { $0 + (matches($1.outcome) ? 1 : 0) }
  }
}
