import Foundation
import Strata

/// "Upgrade from every shipped release": each earlier release's template (`v1.sqlite3`,
/// `v2.sqlite3` …, with the fixture rows a user of that release would have) is copied,
/// migrated to now, and checked: its schema must equal a fresh install's (`DriftCheck`, the
/// drift engine `strata inspect --diff` uses) and its rows must have survived.
///
/// ```swift
/// let check = try UpgradeCheck(migrations: migrationsURL)
/// try check.check(releases: try UpgradeCheck.releases(in: releasesFolder))
/// ```
///
/// Made from the app's `DatabaseSetup` (`init(setup:)`), it runs the whole launch on each
/// release, as the app does at launch: the migrations with the setup's options, then the seed
/// files with its seed mode and settings. A seed file that would fail at launch on a database
/// of that release (a header naming a column a migration dropped or renamed, a value that no
/// longer fits its column) fails the check with its `file:line`, before the app ships; at
/// launch it would not lock the user out, but the bundled data would not load.
///
/// Rows survive when every table of the old file that still exists holds each old row, found
/// by its primary key (its rowid in a table without one), with the same value in every column
/// the table still has. A migration that changes values on purpose names those columns in
/// `changedOnPurpose`; a caller's own checks go in the closure of `check(releases:also:)`.
public struct UpgradeCheck: Sendable {
  /// The app's migrations now.
  public var migrations: MigrationSet
  /// The configuration every connection gets (the app's Swift functions, extensions).
  public var configuration: ConnectionConfiguration
  /// Columns whose values a migration changes on purpose, as `table.column`: not compared.
  public var changedOnPurpose: Set<String> = []
  /// The app's launch (seeds, settings, seed mode, migrate options): when set, each release is
  /// upgraded by it (`DatabaseSetup.run()`, its `database` and `template` replaced by the
  /// release's copy) and its seed files must load; nil migrates only (`migrations`).
  public var setup: DatabaseSetup?

  /// A check of the app's whole launch: `setup`'s migrations (read as its launch reads them),
  /// its configuration, and its seed files with their settings.
  ///
  /// ```swift
  /// let check = try UpgradeCheck(setup: AppDatabase.setup(database: scratchURL))
  /// try check.check(releases: try UpgradeCheck.releases(in: releasesFolder))
  /// ```
  ///
  /// - Throws: `MigrationError` when the migrations folder cannot be read.
  public init(setup: DatabaseSetup) throws {
    self.init(
      migrations: try setup.checkedMigrations(),
      configuration: setup.connectionConfiguration
    )
    self.setup = setup
  }

  /// A check against `migrations`.
  public init(migrations: MigrationSet, configuration: ConnectionConfiguration = .none) {
    self.migrations = migrations
    self.configuration = configuration
  }

  /// A check against the migrations folder at `migrations` (such as the bundle's).
  ///
  /// - Throws: `MigrationError` when the folder cannot be read.
  public init(migrations: URL, configuration: ConnectionConfiguration = .none) throws {
    self.init(migrations: try MigrationSet(directory: migrations), configuration: configuration)
  }

  /// What checking one release found: all was well.
  public struct Release: Hashable, Sendable {
    /// The release's template.
    public let file: String
    /// The version the release's template was at.
    public let fromVersion: MigrationVersion
    /// The version it was migrated to.
    public let toVersion: MigrationVersion
    /// How many of the old file's rows were found again.
    public let rowsChecked: Int
    /// The seed files the launch loaded after the migrations (none without `setup`).
    public let seedFilesLoaded: [String]
  }

  /// The `.sqlite3` files in `folder`, in release order (`v2` before `v10`).
  ///
  /// - Throws: `UpgradeCheckError.noReleases` when the folder holds none.
  public static func releases(in folder: URL) throws -> [URL] {
    let files = DatabaseSetup.releaseFiles(in: folder)
    guard !files.isEmpty else { throw UpgradeCheckError.noReleases(folder: folder.path) }
    return files
  }

  /// Checks each release in turn, each in its own temporary copy; the files are never
  /// changed. `also` gets each upgraded database for the caller's own checks.
  ///
  /// - Throws: `UpgradeCheckError` naming the first release that fails and what differs.
  @discardableResult
  public func check(
    releases: [URL],
    also: ((_ release: URL, _ upgraded: Connection) throws -> Void)? = nil
  ) throws -> [Release] {
    guard !releases.isEmpty else { throw UpgradeCheckError.noReleases(folder: "(none given)") }
    return try releases.map { try check(release: $0, also: also) }
  }

  /// Checks one release's template: copy, migrate, compare schema and rows; with `setup`, then
  /// load the seed files as the launch does.
  ///
  /// - Throws: `UpgradeCheckError` naming the release and what differs (`seedsFailed` for a
  ///   seed file that would fail at launch).
  @discardableResult
  public func check(
    release: URL,
    also: ((_ release: URL, _ upgraded: Connection) throws -> Void)? = nil
  ) throws -> Release {
    let name = release.lastPathComponent
    let copy = try TestDatabase.fresh(template: release, configuration: configuration)
    let connection = try copy.connection()
    let before = try RowSnapshot(connection)
    let versions: (from: MigrationVersion, to: MigrationVersion)
    do {
      if let setup {
        // The launch's own path; its seed step comes after the rows are compared.
        let report = try setup.launch(onCopy: copy.url, seeding: false)
        versions = (report.fromVersion, report.version)
      } else {
        let report = try Migrator(migrations).migrate(connection)
        versions = (report.fromVersion, report.toVersion)
      }
    } catch let error as SettingsError {
      throw error
    } catch {
      throw UpgradeCheckError.migrationFailed(release: name, cause: error)
    }
    let drift = try DriftCheck(migrations, configuration: configuration).check(connection)
    if !drift.differences.isEmpty {
      throw UpgradeCheckError.schemaDiffers(release: name, differences: drift.differences)
    }
    let problems = try before.problems(in: connection, ignoring: changedOnPurpose)
    if !problems.isEmpty {
      throw UpgradeCheckError.rowsDiffer(release: name, problems: problems)
    }
    var seeded: [String] = []
    if let setup {
      let report = try setup.launch(onCopy: copy.url)
      if case .seedingFailed(_, _, let version, let error) = report.seedProblem {
        throw UpgradeCheckError.seedsFailed(release: name, version: version, error: error)
      }
      seeded = report.seedFilesLoaded
    }
    if let also {
      do {
        try also(release, connection)
      } catch {
        throw UpgradeCheckError.callerCheckFailed(release: name, cause: error)
      }
    }
    return Release(
      file: release.path,
      fromVersion: versions.from,
      toVersion: versions.to,
      rowsChecked: before.rowCount,
      seedFilesLoaded: seeded
    )
  }
}
