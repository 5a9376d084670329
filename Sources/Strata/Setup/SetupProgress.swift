/// How far `DatabaseSetup.run()` has got, for a "migrating" screen: an app that shows it is
/// not killed by the watchdog for a launch that seems to hang.
///
/// Reported on the thread doing the work, in this order: `checking`, `copyingTemplate` (only
/// when there is no database yet and a template), `migrating` once per migration applied,
/// `seeding` while seed files load (a few times per file, not per row), then `done`. A launch
/// that finds everything up to date reports `checking` and `done` only.
public enum SetupProgress: Hashable, Sendable {
  /// Checking the settings, the migrations and seeds folders, the template and the database
  /// path; nothing is created or changed yet.
  case checking
  /// Copying the template into place (atomically).
  case copyingTemplate
  /// About to apply one migration.
  case migrating(MigrationProgress)
  /// Loading seed files: the file and the rows read so far.
  case seeding(SeedProgress)
  /// Finished: the report `run()` returns follows.
  case done
  /// One database of a `MigrationFleet` finished (a fleet reports only this).
  case databaseFinished(FleetProgress)

  /// The step, without its details.
  package var step: Step {
    switch self {
    case .checking: .checking
    case .copyingTemplate: .copyingTemplate
    case .migrating: .migrating
    case .seeding: .seeding
    case .done: .done
    case .databaseFinished: .databaseFinished
    }
  }

  /// The steps of a setup, in the order they run.
  package enum Step: String, Hashable, Sendable, CaseIterable {
    /// Checking what the setup was given.
    case checking
    /// Copying the template.
    case copyingTemplate
    /// Applying migrations.
    case migrating
    /// Loading seed files.
    case seeding
    /// Finished.
    case done
    /// A fleet's database finished (fleets only).
    case databaseFinished
  }
}

/// The migration a setup is about to apply, and where it stands in the run.
public struct MigrationProgress: Hashable, Sendable {
  /// The migration's version.
  public let version: MigrationVersion
  /// The migration's name.
  public let name: String
  /// Its position among the migrations this run applies (1-based).
  public let number: Int
  /// How many migrations this run applies.
  public let count: Int
}
