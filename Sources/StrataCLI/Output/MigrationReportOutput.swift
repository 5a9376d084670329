import Strata

/// Renders what `migrate` and `rollback` did.
enum MigrationReportOutput {
  struct JSONReport: Encodable {
    let database: String
    let fromVersion: MigrationVersion
    let toVersion: MigrationVersion
    let dryRun: Bool
    let pendingCount: Int
    let steps: [MigrationStep]
    /// The backup written before the first migration (`--backup`), if one was.
    var backup: String?
    /// The schema file, when one is kept (`--schema-file`, `[schema] file`).
    var schemaFile: SchemaFileRun.WriteReport?
    /// A dry run of pending migrations: the files tried on the database's rows (rolled back);
    /// nil when none could be (a read-only database) or for any other run.
    var triedOnRows: [String]?
    /// A dry run: the parts that could not be tried on the rows, by file and line.
    var notTried: [UncheckedStatement]?
  }

  /// "Backed up to FILE (version V).", as `migrate --backup` says it before the first migration.
  static func backedUp(_ backup: DatabaseBackup, _ context: CommandContext) -> String {
    "Backed up to \(CommonOptions.shown(backup.url, context)) (version \(backup.version))."
  }

  static func render(
    _ report: MigrationReport,
    database: String,
    format: OutputFormat,
    quiet: Bool,
    schemaFile: SchemaFileRun.WriteReport? = nil,
    onEmptyDatabase: Bool = false,
    _ context: CommandContext
  ) {
    context.finished(outcome(report, database: database))
    if format == .json {
      let json = JSONReport(
        database: database,
        fromVersion: report.fromVersion,
        toVersion: report.toVersion,
        dryRun: report.dryRun,
        pendingCount: report.pendingCount,
        steps: report.steps,
        backup: report.backup.map { CommonOptions.shown($0.url, context) },
        schemaFile: schemaFile,
        triedOnRows: report.trial.flatMap { $0.ranOnTheDatabase ? $0.tried.map(\.file) : nil },
        notTried: report.trial?.notTried
      )
      try? context.printJSON(json)
      return
    }
    if quiet { return }
    for step in report.steps {
      let verb =
        switch (step.direction, report.dryRun) {
        case (.up, false): "Applied"
        case (.down, false): "Rolled back"
        case (.up, true): "Would apply"
        case (.down, true): "Would roll back"
        }
      if step.isNoOp {
        context.print(
          "\(verb) \(step.file)\(report.dryRun ? "" : " (\(step.durationMs) ms)"): \(noOpNote(step, dryRun: report.dryRun))"
        )
      } else if report.dryRun {
        context.print("\(verb) \(step.file):")
        // A CRLF file's carriage returns are its layout, not content to show escaped.
        for line in (step.sql ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
          context.print("    " + (line.hasSuffix("\r") ? line.dropLast() : line))
        }
      } else {
        context.print("\(verb) \(step.file) (\(step.durationMs) ms)")
      }
    }
    if report.dryRun {
      for place in report.trial?.notTried ?? [] {
        context.printError(
          "Warning: \(place.line.map { "\(place.file):\($0)" } ?? place.file): "
            + "not tried: \(place.reason)"
        )
      }
      context.print(dryRunLine(report, database: database, onEmptyDatabase: onEmptyDatabase))
    } else if report.steps.isEmpty {
      context.print("\(database) is up to date at version \(report.toVersion).")
    } else {
      let pending = report.pendingCount > 0 ? " (\(report.pendingCount) still pending)" : ""
      context.print("\(database) is now at version \(report.toVersion)\(pending).")
    }
    if let line = SchemaFileRun.line(schemaFile, source: database) { context.print(line) }
    if let first = report.foreignKeyViolationsKept.first {
      context.print(
        "Note: the database already had \(report.foreignKeyViolationsKeptCount) foreign key "
          + "violation(s) before this run (such as: \(first)); the migrations did not add any and "
          + "are not blamed. List them with 'PRAGMA foreign_key_check', then fix or delete those rows."
      )
    }
  }

  /// Writes the schema file after a run that changed the database, then renders the report
  /// with the file's line. When the file cannot be written, the report comes first in text (the
  /// migrations stay applied; the error that follows says so), and in JSON only the error is
  /// printed (its message names the version), so standard output stays one JSON document.
  ///
  /// - Throws: `SchemaFileFailure` when the file was not written.
  static func render(
    _ report: MigrationReport,
    database: String,
    keeping schemaFile: SchemaFile?,
    of connection: Connection,
    _ output: OutputOptions,
    _ rewrite: SchemaFileRun.Rewrite,
    _ context: CommandContext
  ) throws {
    try render(
      report,
      database: database,
      keeping: schemaFile,
      reading: { connection },
      onEmptyDatabase: connection.path == ":memory:",
      output,
      rewrite,
      context
    )
  }

  /// `render(_:database:keeping:of:_:_:_:)` with the database to write the schema file from
  /// opened only when it is written (a cluster's, from a snapshot taken after the run).
  static func render(
    _ report: MigrationReport,
    database: String,
    keeping schemaFile: SchemaFile?,
    reading connection: () throws -> Connection,
    onEmptyDatabase: Bool,
    _ output: OutputOptions,
    _ rewrite: SchemaFileRun.Rewrite,
    _ context: CommandContext
  ) throws {
    let format = output.format
    let quiet = output.quiet
    let written: SchemaFileRun.WriteReport?
    do {
      written = try SchemaFileRun.write(
        schemaFile,
        changed: !report.dryRun && !report.steps.isEmpty,
        .init(database: database, done: done(report)),
        connection: connection,
        rewrite
      )
    } catch {
      if format == .text {
        render(report, database: database, format: format, quiet: quiet, context)
      } else {
        context.finished(outcome(report, database: database))
      }
      throw error
    }
    render(
      report,
      database: database,
      format: format,
      quiet: quiet,
      schemaFile: written,
      onEmptyDatabase: onEmptyDatabase,
      context
    )
  }

  /// A dry run's last line: the versions, and what was tried on the rows (never more than was).
  static func dryRunLine(
    _ report: MigrationReport,
    database: String,
    onEmptyDatabase: Bool
  ) -> String {
    let versions =
      "Dry run: \(database) is at version \(report.fromVersion) and would be at version "
      + "\(report.toVersion)"
    guard let trial = report.trial, !report.steps.isEmpty else {
      return "\(versions); nothing was changed."
    }
    guard trial.ranOnTheDatabase else {
      return "\(versions); the migrations were not tried on its rows (it can only be read "
        + "here); nothing was changed."
    }
    let count = trial.tried.count
    let migrations = count == 1 ? "1 migration" : "\(count) migrations"
    let rows =
      onEmptyDatabase
      ? "on an empty database in memory (\(database) does not exist yet)"
      : "on its rows in a transaction that was rolled back"
    let skipped = trial.notTried.count
    let notTried =
      skipped == 0
      ? ""
      : ", \(skipped == 1 ? "1 part" : "\(skipped) parts") not tried (warnings above)"
    return "\(versions); tried \(migrations) \(rows)\(notTried); nothing was changed."
  }

  /// What the run did to the database, after its name: "was migrated to version 3".
  static func done(_ report: MigrationReport) -> String {
    let down = !report.steps.isEmpty && report.steps.allSatisfy { $0.direction == .down }
    return "was \(down ? "rolled back" : "migrated") to version \(report.toVersion)"
  }

  /// Why a step with no SQL changed nothing but the history.
  private static func noOpNote(_ step: MigrationStep, dryRun: Bool) -> String {
    switch (step.direction, dryRun) {
    case (.up, _): "its up part has no SQL, so it is a no-op (recorded as applied)"
    case (.down, false): "its down part has no SQL, so the changes its up part made stay"
    case (.down, true): "its down part has no SQL, so the changes its up part made would stay"
    }
  }

  /// What was done, in a sentence that stays true when the report cannot be written.
  static func outcome(_ report: MigrationReport, database: String) -> String {
    if report.dryRun || report.steps.isEmpty {
      return "Nothing was changed: \(database) is at version \(report.fromVersion)."
    }
    let count = report.steps.count
    let what = count == 1 ? "1 migration was" : "\(count) migrations were"
    let verb = report.steps.allSatisfy { $0.direction == .up } ? "applied" : "rolled back"
    return "\(what) \(verb): \(database) is now at version \(report.toVersion)."
  }
}
