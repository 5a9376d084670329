import Strata

/// What `UpgradeCheck` found wrong with a release's upgrade: each case names the release file
/// and what differs, so a test failure reads as the bug report.
public enum UpgradeCheckError: StrataError {
  /// No release templates were given, or the folder holds none: nothing would be checked.
  case noReleases(folder: String)
  /// Migrating the release's template failed (the migration's own error is the cause).
  case migrationFailed(release: String, cause: any Error)
  /// After the upgrade the schema differs from a fresh install's.
  case schemaDiffers(release: String, differences: [SchemaDifference])
  /// Rows of the release are gone, or their values changed, after the upgrade.
  case rowsDiffer(release: String, problems: [RowProblem])
  /// After the migrations, the launch's seed step failed on the release's data (`error`, at
  /// its `file:line`): shipped, the app would open its database without that launch's seed
  /// data (rolled back), at every launch until the file is fixed.
  case seedsFailed(release: String, version: MigrationVersion, error: SeedError)
  /// The caller's own check threw (its error is the cause).
  case callerCheckFailed(release: String, cause: any Error)

  /// What failed, for which release.
  public var message: String {
    switch self {
    case .noReleases(let folder):
      "no release templates (.sqlite3 files) to upgrade in \(folder): nothing was checked"
    case .migrationFailed(let release, let cause):
      "upgrading \(release) failed: \(Self.text(of: cause))"
    case .schemaDiffers(let release, let differences):
      "after upgrading \(release) the schema differs from a fresh install: "
        + differences.map(\.description).joined(separator: "; ")
    case .rowsDiffer(let release, let problems):
      "after upgrading \(release) \(problems.count) row check(s) failed: "
        + problems.prefix(10).map(\.description).joined(separator: "; ")
        + (problems.count > 10 ? "; …" : "")
    case .callerCheckFailed(let release, let cause):
      "the check of upgraded \(release) failed: \(Self.text(of: cause))"
    case .seedsFailed(let release, let version, let error):
      "after upgrading \(release) to version \(version) the launch's seed step fails: "
        + "\(error.problem); shipped, the app would open that database without the bundled "
        + "data, at every launch until the file is fixed"
    }
  }

  /// What to do next.
  public var help: String {
    switch self {
    case .noReleases:
      "Keep each shipped release's template (with fixture rows) in the folder the test reads."
    case .migrationFailed(_, let cause as any StrataError):
      cause.help
    case .migrationFailed:
      "Fix the migration so that it applies to a database of that release."
    case .schemaDiffers:
      "Make the migrations take a database of that release to the schema a fresh install has "
        + "(a migration that only a fresh install runs, or an edited old migration, does this)."
    case .rowsDiffer:
      "Fix the migration that loses or changes the rows (a table rebuilt without copying a "
        + "column, say), or name columns changed on purpose in changedOnPurpose."
    case .seedsFailed(_, _, let error):
      "\(error.help) The seed file must load on a database of every earlier release: its "
        + "header naming only columns the migrations keep, its values fitting the columns' "
        + "types and checks now (or a migration that makes them fit)."
    case .callerCheckFailed(_, let cause as any StrataError):
      cause.help
    case .callerCheckFailed:
      "See the check's own error."
    }
  }

  private static func text(of error: any Error) -> String {
    (error as? any StrataError)?.message ?? "\(error)"
  }
}
