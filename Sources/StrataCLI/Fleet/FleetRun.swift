import Foundation
import Strata

/// What `migrate`, `status`, `validate` and `rollback` do with `--databases`: the fleet it
/// names, and the report of its results (a summary line; each failure named with its error).
enum FleetRun {
  /// The fleet `--databases` names, and the files its patterns matched that belong to other
  /// databases (left out).
  struct Resolved {
    let fleet: MigrationFleet
    let leftOut: [DatabaseList.LeftOut]
  }

  /// A fleet's results, and what its patterns left out, for the report.
  @dynamicMemberLookup struct Summary {
    let fleetSummary: FleetSummary
    let leftOut: [DatabaseList.LeftOut]

    subscript<Value>(dynamicMember keyPath: KeyPath<FleetSummary, Value>) -> Value {
      fleetSummary[keyPath: keyPath]
    }
  }

  /// The fleet `--databases` names, with the run's busy timeout, extensions and jobs.
  ///
  /// - Throws: `DatabaseListError` when a glob matches nothing (or only files that belong to
  ///   other databases) or such a file is named outright; `ExtensionLoadError`.
  static func fleet(
    _ options: FleetOptions,
    _ database: DatabaseOptions,
    _ context: CommandContext,
    _ migrations: MigrationSet
  ) throws -> Resolved {
    let resolution = try DatabaseList.resolve(
      options.databases,
      currentDirectory: context.currentDirectory
    )
    var fleet = MigrationFleet(migrations, databases: resolution.databases)
    fleet.jobs = options.jobs
    fleet.failFast = options.failFast
    fleet.busyTimeout = database.busyTimeout
    fleet.configuration = try database.configuration()
    return Resolved(fleet: fleet, leftOut: resolution.leftOut)
  }

  /// Runs `work` (a fleet call given a progress closure) with a progress line on a terminal,
  /// cleared before the report.
  static func withProgress(
    _ resolved: Resolved,
    _ context: CommandContext,
    _ work: (MigrationFleet, (@Sendable (SetupProgress) -> Void)?) -> FleetSummary
  ) -> Summary {
    let line = FleetProgressLine.make(context)
    var progress: (@Sendable (SetupProgress) -> Void)?
    if let line {
      progress = { event in
        if case .databaseFinished(let finished) = event { line.update(finished) }
      }
    }
    let summary = work(resolved.fleet, progress)
    line?.clear()
    return Summary(fleetSummary: summary, leftOut: resolved.leftOut)
  }

  /// One database in `--format json`.
  struct DatabaseReport: Encodable {
    let database: String
    /// `migrated`, `upToDate`, `failed` or `skipped` (`status`: `upToDate` or `behind`).
    let result: String
    var fromVersion: MigrationVersion?
    var toVersion: MigrationVersion?
    var pending: Int?
    var error: ErrorOutput.JSONError.Body?
    /// `validate`: the problems found, in the CLI's words.
    var problems: [ValidationProblem]?
  }

  /// A file a pattern matched that was left out: it belongs to another database.
  struct LeftOutReport: Encodable {
    let file: String
    let reason: String
  }

  struct Report: Encodable {
    let databases: [DatabaseReport]
    let summary: [String: Int]
    let leftOut: [LeftOutReport]
  }

  /// Prints the fleet's results and returns the exit code: 1 when any database failed or was
  /// skipped. Text: each failure (`Error:`/`Help:` with the file) on standard error, then the
  /// summary line on standard output (none with `--quiet` when all went well). The files its
  /// patterns left out are named in a note on standard error (also with `--quiet`: never left
  /// out silently), and in JSON's `leftOut`; leaving them out fails nothing.
  static func report(
    _ summary: Summary,
    lines: (FleetDatabaseResult, String) -> String? = { _, _ in nil },
    done: String = "migrated",
    _ output: OutputOptions,
    _ context: CommandContext
  ) throws -> Int32 {
    let reports = summary.results.map { databaseReport($0, context) }
    let counts = [
      "databases": summary.results.count, "migrated": summary.migratedCount,
      "upToDate": summary.upToDateCount, "failed": summary.failedCount,
      "skipped": summary.skippedCount, "behind": summary.behindCount,
      "valid": summary.validCount, "invalid": summary.invalidCount,
    ]
    switch output.format {
    case .json:
      let leftOut = summary.leftOut.map {
        LeftOutReport(
          file: CommonOptions.shown(URL(fileURLWithPath: $0.path), context),
          reason: $0.reason
        )
      }
      try context.printJSON(Report(databases: reports, summary: counts, leftOut: leftOut))
    case .text:
      if let note = leftOutNote(summary.leftOut, context) { context.printError(note) }
      for result in summary.results {
        let shown = CommonOptions.shown(result.database, context)
        if let line = lines(result, shown), !output.quiet { context.print(line) }
        for problem in problems(result) {
          context.printError("Error: \(shown): \(problem.message)")
          context.printError("Help: \(problem.help)")
        }
        guard let error = result.error else { continue }
        let (message, help, _) = ErrorOutput.describe(error, saying: \.fleetCommandLineWords)
        // Most messages name the file already; the others get it in front.
        let named = message.contains(result.database.path) || message.contains(shown)
        context.printError("Error: \(named ? "" : "\(shown): ")\(message)")
        if let help { context.printError("Help: \(help)") }
      }
      if !summary.succeeded || summary.invalidCount > 0 || !output.quiet {
        context.print(summaryLine(summary.fleetSummary, done: done))
      }
    }
    return summary.succeeded && summary.invalidCount == 0 ? ExitCode.success : ExitCode.failure
  }

  /// `Note: left out 1 file that belongs to another database: t/acme.db-journal (acme.db's
  /// rollback journal)`; the first `shownLeftOut` by name, then how many more.
  static func leftOutNote(_ leftOut: [DatabaseList.LeftOut], _ context: CommandContext) -> String? {
    guard !leftOut.isEmpty else { return nil }
    let count = leftOut.count
    var named = leftOut.prefix(shownLeftOut).map {
      "\(CommonOptions.shown(URL(fileURLWithPath: $0.path), context)) (\($0.reason))"
    }
    if count > shownLeftOut { named.append("and \(count - shownLeftOut) more") }
    let files =
      count == 1
      ? "1 file that belongs to another database" : "\(count) files that belong to other databases"
    return "Note: left out \(files): " + named.joined(separator: ", ")
  }

  static let shownLeftOut = 10

  /// `validate`'s problems for one database, their help in a fleet run's words.
  private static func problems(_ result: FleetDatabaseResult) -> [ValidationProblem] {
    guard case .validated(let validation) = result.outcome else { return [] }
    return ValidateCommand.problems(validation, saying: \.fleetCommandLineWords)
  }

  /// `status`'s line for one database: its version and how many migrations are pending.
  static func statusLine(_ result: FleetDatabaseResult, _ shown: String) -> String? {
    guard case .inspected(let plan) = result.outcome else { return nil }
    let pending = plan.migrations(in: .pending).count
    let state = plan.isUpToDate ? "up to date" : "\(pending) pending"
    return "\(shown): version \(plan.currentVersion), \(state)"
  }

  /// `3 migrated, 1 already up to date, 1 failed (5 databases)`; for `status`,
  /// `4 up to date, 1 behind, 0 failed (5 databases)`.
  static func summaryLine(_ summary: FleetSummary, done: String = "migrated") -> String {
    let read = summary.results.contains { if case .inspected = $0.outcome { true } else { false } }
    let validated = summary.validCount + summary.invalidCount > 0
    var parts =
      validated
      ? ["\(summary.validCount) valid", "\(summary.invalidCount) with problems"]
      : read
        ? ["\(summary.upToDateCount) up to date", "\(summary.behindCount) behind"]
        : ["\(summary.migratedCount) \(done)", "\(summary.upToDateCount) already up to date"]
    parts.append("\(summary.failedCount) failed")
    if summary.skippedCount > 0 { parts.append("\(summary.skippedCount) not started") }
    let count = summary.results.count
    return parts.joined(separator: ", ") + " (\(count) database\(count == 1 ? "" : "s"))"
  }

  private static func databaseReport(
    _ result: FleetDatabaseResult,
    _ context: CommandContext
  ) -> DatabaseReport {
    let shown = CommonOptions.shown(result.database, context)
    switch result.outcome {
    case .migrated(let report):
      return DatabaseReport(
        database: shown,
        result: "migrated",
        fromVersion: report.fromVersion,
        toVersion: report.toVersion
      )
    case .upToDate(let version):
      return DatabaseReport(
        database: shown,
        result: "upToDate",
        fromVersion: version,
        toVersion: version
      )
    case .inspected(let plan):
      let pending = plan.migrations(in: .pending).count
      return DatabaseReport(
        database: shown,
        result: plan.isUpToDate ? "upToDate" : "behind",
        toVersion: plan.currentVersion,
        pending: pending
      )
    case .validated(let validation):
      return DatabaseReport(
        database: shown,
        result: validation.problems.isEmpty ? "valid" : "invalid",
        problems: problems(result)
      )
    case .failed(let error):
      let (message, help, code) = ErrorOutput.describe(error, saying: \.fleetCommandLineWords)
      return DatabaseReport(
        database: shown,
        result: "failed",
        error: .init(message: message, help: help, exitCode: code)
      )
    case .skipped:
      return DatabaseReport(database: shown, result: "skipped")
    }
  }
}
