/// The outcome of comparing a database with its migrations replayed in memory.
package struct DriftReport: Codable, Equatable, Sendable {
  /// The migrations folder, as the user named it.
  package let migrationsDirectory: String
  /// The versions replayed: those the database records as applied (every one when it has no
  /// history).
  package let replayedVersions: [MigrationVersion]
  /// Applied versions that have no file, which could not be replayed.
  package let unreplayableVersions: [MigrationVersion]
  /// Each way the database differs from the replayed migrations; empty when there is no drift.
  package let differences: [SchemaDifference]
  /// Statements the replay did not run (it never reaches a file, and has none of the
  /// database's rows), so they were not checked.
  package let notChecked: [UncheckedStatement]
  /// False when the replay stopped before the end, or a repeatable migration changed since it
  /// was applied, so the schemas were not compared and `differences` is empty for want of a
  /// comparison.
  package let schemaCompared: Bool
  /// Flyway's repeatable migrations whose file changed since they were applied (their files):
  /// the database holds what the old text made, which the replay cannot rebuild, and the next
  /// migration run applies them again, so the schema is not compared until then.
  package var changedRepeatables: [String] = []

  /// True when the database differs from its migrations (`strata inspect --diff` exits 1).
  package var hasDrift: Bool { !differences.isEmpty }
}

/// Compares a live database's schema with the one its migrations produce: replays them into an
/// in-memory database (fenced: see `MigrationReplay`) and compares tables, columns, indexes,
/// foreign keys, checks, triggers and views. strata's own tables, shadow tables and row counts
/// are not compared.
package struct DriftCheck: Sendable {
  /// The migrations whose schema the database is compared with.
  package let migrations: MigrationSet
  /// The extensions and functions the replay's connection gets, so that migrations calling
  /// an app's functions replay as they migrate.
  package var configuration: ConnectionConfiguration

  /// A check of databases against `migrations`, replayed on connections configured with
  /// `configuration`.
  package init(_ migrations: MigrationSet, configuration: ConnectionConfiguration = .none) {
    self.migrations = migrations
    self.configuration = configuration
  }

  /// Replays the migrations the database records as applied (all of them when it has no
  /// history), so pending migrations are not reported as drift, and compares.
  ///
  /// - Throws: `InspectionError.replayFailed` when a replayed migration fails in the replay;
  ///   `ExtensionLoadError` (or the configuration's own error) when the configuration fails.
  package func check(_ connection: Connection) throws -> DriftReport {
    let (report, failure) = try check(connection, replayingPending: false)
    if let failure {
      throw InspectionError.replayFailed(directory: migrations.directory, reason: "\(failure)")
    }
    return report
  }

  /// The comparison, and the first migration that fails in the replay. With
  /// `replayingPending`, the pending migrations run in the replay after the comparison, so each
  /// is checked against the schema the earlier ones produce. Without a connection (files only),
  /// every migration is pending and nothing is compared.
  func check(
    _ connection: Connection?,
    replayingPending: Bool
  ) throws -> (report: DriftReport, failure: ReplayFailure?) {
    let live = try connection.map { try SchemaInspector($0).inspect() }
    let applied = try connection.map { try Migrator(migrations).applied($0).map(\.version) } ?? []
    let hasHistory = try connection.map { try History.exists($0) } ?? false
    let wanted = Set(applied)
    let replayed =
      connection == nil
      ? [] : migrations.migrations.filter { !hasHistory || wanted.contains($0.version) }
    let known = Set(migrations.migrations.map(\.version))
    // Flyway's repeatable migrations replay after the versioned ones, as `migrate` runs them.
    let recordedRepeatables = try connection.map { try History.readRepeatables($0) } ?? []
    let appliedRepeatables = connection.map { _ in Set(recordedRepeatables.map(\.name)) }
    let changedRepeatables = migrations.repeatables.filter { repeatable in
      recordedRepeatables.contains {
        $0.name == repeatable.name && $0.checksum != repeatable.checksum
      }
    }.map(\.script.file)
    let repeatables = migrations.repeatables.filter {
      connection != nil && (!hasHistory || appliedRepeatables?.contains($0.name) == true)
    }
    // Outside the `do`: a configuration that fails is its own error, not the replay's.
    let replay = try MigrationReplay(
      directory: migrations.directory,
      format: migrations.format,
      configuration: configuration
    )
    do {
      var failure = try replay.replay(replayed + repeatables.map(\.asMigration))
      let compared =
        live != nil && failure == nil && !replay.stopped && changedRepeatables.isEmpty
      var differences: [SchemaDifference] = []
      if compared, let live {
        let expected = try SchemaInspector(replay.scratch).inspect()
        differences = SchemaComparison.differences(expected: expected, actual: live)
      }
      if replayingPending, failure == nil {
        replay.checksDownParts = true
        replay.rowsAreTheReplays =
          try connection.map {
            try MigrationReplay.userTablesAreEmpty($0)
              && MigrationReplay.userTablesAreEmpty(replay.scratch)
          } ?? true
        let done = Set(replayed.map(\.version))
        let replayedNames = Set(repeatables.map(\.name))
        failure = try replay.replay(
          migrations.migrations.filter { !done.contains($0.version) }
            + migrations.repeatables.filter { !replayedNames.contains($0.name) }.map(\.asMigration)
        )
      }
      let report = DriftReport(
        migrationsDirectory: migrations.directory,
        replayedVersions: replayed.map(\.version),
        unreplayableVersions: applied.filter { !known.contains($0) },
        differences: differences,
        notChecked: replay.unchecked,
        schemaCompared: compared,
        changedRepeatables: changedRepeatables
      )
      return (report, failure)
    } catch {
      throw InspectionError.replayFailed(in: migrations.directory, by: error) ?? error
    }
  }
}
