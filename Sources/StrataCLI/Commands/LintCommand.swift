import Strata
import StrataArguments

/// `strata lint`: flags risky statements in the up parts of the pending migrations
/// (`MigrationLinter`); exit 1 when anything is found.
enum LintCommand: Command {
  static let spec = CommandSpec(
    name: "lint",
    abstract:
      "Flag risky statements in pending migrations (drops, rebuilds, REPLACE); exit 1 on one.",
    discussion: """
      Replays the migrations into an in-memory database and checks the up part of each pending
      migration (every migration when the database does not exist; never a down part) for:
      drop-table, drop-column, not-null-without-default, rebuild-referenced-table,
      insert-or-replace, data-with-schema-change, unindexed-foreign-key and
      needs-no-transaction. A line '-- strata:allow RULE[, RULE...]' disables the rules it names
      for the statement after it; such lines do not count toward the migration's checksum. The
      database is only read. See docs/lint.md.
      """,
    options: CommonOptions.databaseOptions
  )

  struct Summary: Encodable {
    let findings: Int
    let pendingMigrations: Int
    let stoppedAt: LintStop?
  }

  struct Report: Encodable {
    let findings: [LintFinding]
    let summary: Summary
  }

  /// What `lint` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    let output: OutputOptions

    init(_ arguments: ParsedArguments) throws {
      try CommonOptions.rejectEmptyPaths(arguments)
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let migrations = try options.migrations.load(context)
    let database = try options.database.resolveReading(context)
    let configuration = try options.database.configuration()
    var connection: Connection?
    let kind = database.kind()
    if kind != .missing {
      connection = try DatabaseSession.open(
        database,
        forWriting: false,
        busyTimeout: options.database.busyTimeout,
        configuration: configuration,
        kind: kind
      )
    }
    let result = try MigrationLinter(migrations, configuration: configuration).lint(connection)
    switch options.output.format {
    case .json:
      try context.printJSON(
        Report(
          findings: result.findings,
          summary: Summary(
            findings: result.findings.count,
            pendingMigrations: result.pendingMigrations,
            stoppedAt: result.stoppedAt
          )
        )
      )
    case .text:
      for finding in result.findings {
        context.print(finding.description)
        context.print("Help: \(finding.help)")
      }
      if let stop = result.stoppedAt {
        context.printError("Error: \(stoppedMessage(stop))")
      }
      if !options.output.quiet || !result.findings.isEmpty {
        context.print(summary(result))
      }
    }
    return result.findings.isEmpty && result.stoppedAt == nil
      ? ExitCode.success : ExitCode.failure
  }

  /// Where the replay stopped, for text output (lint's error, validate's warning).
  static func stoppedMessage(_ stop: LintStop) -> String {
    "the lint's replay of the migrations stopped at \(stop.file):\(stop.line) (\(stop.reason)); "
      + "the statements after it were not linted"
  }

  /// "3 findings in 2 pending migrations", "No findings in 4 pending migrations"; "No findings
  /// before the replay stopped, in 2 pending migrations" when it stopped.
  static func summary(_ result: LintResult) -> String {
    let count = result.findings.count
    let found =
      count == 0 ? "No findings" : count == 1 ? "1 finding" : "\(count) findings"
    let pending = result.pendingMigrations
    let scope = result.stoppedAt == nil ? "" : " before the replay stopped,"
    return "\(found)\(scope) in \(pending) pending migration\(pending == 1 ? "" : "s")"
  }
}
