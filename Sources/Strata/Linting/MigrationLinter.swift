/// Flags risky statements in the up parts of pending migrations (never in down parts, never in
/// applied migrations): dropped tables and columns, NOT NULL columns without a default,
/// rebuilds of referenced tables where foreign keys are not handled, `INSERT OR REPLACE`, data
/// changes beside schema changes, unindexed foreign keys, and statements that cannot run in
/// strata's transaction (`LintRule`, docs/lint.md).
///
/// The migrations are replayed in order into a fenced in-memory database (never the user's,
/// never a file), with SQLite's authorizer reporting what each statement does as it is
/// prepared, and the schema read after each statement that changes it. A `-- strata:allow
/// RULE` line disables a rule for the statement after it.
package struct MigrationLinter: Sendable {
  /// The migrations linted.
  package let migrations: MigrationSet
  /// The extensions and functions the replay's connection gets (see `DriftCheck`).
  package var configuration: ConnectionConfiguration

  /// A linter of `migrations`, replayed on connections configured with `configuration`.
  package init(_ migrations: MigrationSet, configuration: ConnectionConfiguration = .none) {
    self.migrations = migrations
    self.configuration = configuration
  }

  /// Lints the migrations pending in `connection`'s database (nil: every migration is
  /// pending). Reads the database's history only.
  ///
  /// - Throws: `SQLiteError` when the database's history cannot be read or the replay cannot be
  ///   opened; `ExtensionLoadError` (or the configuration's own error) when the configuration
  ///   fails. A statement that fails in the replay is not thrown: the result says where the
  ///   replay stopped.
  package func lint(_ connection: Connection? = nil) throws -> LintResult {
    var pending = Set(migrations.migrations.map(\.version))
    if let connection {
      let plan = try Migrator(migrations).plan(connection)
      pending = Set(
        plan.migrations.filter { $0.state == .pending || $0.state == .outOfOrder }.map(\.version)
      )
    }
    let scratch = try configuration.openInMemory()
    _ = scratch.raiseFence(.noOutsideFiles)
    try scratch.execute("PRAGMA foreign_keys = OFF")
    scratch.recordPreparedActions(true)
    var findings: [LintFinding] = []
    var stop: LintStop?
    for migration in migrations.migrations {
      let up = migration.up
      guard pending.contains(migration.version) else {
        do {
          try scratch.executeScript(up.sql, firstLine: up.firstLine)
        } catch let error as ScriptError {
          stop = LintStop(file: up.file, line: error.line, reason: error.underlying.message)
          break
        }
        continue
      }
      let run = try MigrationLintRun(migration, format: migrations.format, connection: scratch)
      do {
        try scratch.executeScript(up.sql, firstLine: up.firstLine) { statement in
          let kind = scratch.lastPreparedKind
          let actions = scratch.preparedActions
          try run.willRun(statement, kind: kind, actions: actions)
        }
      } catch let error as ScriptError {
        stop = LintStop(file: up.file, line: error.line, reason: error.underlying.message)
      }
      try run.finish()
      findings += run.findings
      if stop != nil { break }
    }
    return LintResult(findings: findings, pendingMigrations: pending.count, stoppedAt: stop)
  }
}
