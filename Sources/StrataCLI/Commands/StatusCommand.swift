import Strata
import StrataArguments

/// `strata status`: every migration's state; `--check` makes anything unfinished exit 1.
enum StatusCommand: Command {
  static let check = Flag(
    "check",
    help: "Exit 1 when anything is pending, changed, unknown or out of order, or the schema "
      + "file is not what the migrations produce."
  )

  static let spec = CommandSpec(
    name: "status",
    abstract: "Show applied, pending, changed and unknown migrations.",
    discussion: """
      With a schema file (--schema-file, or [schema] file in strata.toml), also compares it
      with the schema the migrations produce (replayed in memory) and shows whether it is
      current; --check then exits 1 when it is missing, differs, or cannot be compared.
      'strata schema' rewrites it. Runs over --databases leave the schema file out.
      Keeps a copy of the folder it read, and of the database's history, in the user's cache
      folder, and reads those instead while no file in the folder and none of the database's
      files has changed; STRATA_NO_CACHE=1 turns them off.
      """,
    options: CommonOptions.databaseOptions + [check] + CommonOptions.schemaFileOptions
      + CommonOptions.fleetOptions
  )

  struct Report: Encodable {
    let database: String
    let exists: Bool
    let currentVersion: MigrationVersion
    /// How the migration files are written (`MigrationFormat`'s name).
    let migrationFormat: String
    let migrations: [MigrationStatus]
    let counts: [String: Int]
    /// Other tools' histories, when strata has none: what `migrate` refuses to run again.
    let otherToolHistories: [ForeignHistory]
    /// Flyway's repeatable migrations; absent for every other format.
    let repeatables: [RepeatableStatus]?
    /// The schema file against the migrations, when one is kept.
    let schemaFile: SchemaFileRun.StatusReport?
  }

  /// What `status` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    let output: OutputOptions
    let schemaFile: SchemaFileOptions
    let fleet: FleetOptions
    let check: Bool

    init(_ arguments: ParsedArguments) throws {
      fleet = try FleetOptions(
        arguments,
        refusing: [(arguments[CommonOptions.schemaFile] != nil, "schema-file")]
      )
      try CommonOptions.rejectEmptyPaths(arguments)
      schemaFile = try SchemaFileOptions(arguments)
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
      check = arguments[StatusCommand.check]
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    // Read strictly before anything runs; a fleet leaves the schema file out.
    let settings = try options.schemaFile.projectSettings(context)
    if options.fleet.isFleet {
      let migrations = try options.migrations.load(context, cached: true)
      let fleet = try FleetRun.fleet(options.fleet, options.database, context, migrations)
      let summary = FleetRun.withProgress(fleet, context) { $0.plans(progress: $1) }
      let code = try FleetRun.report(summary, lines: FleetRun.statusLine, options.output, context)
      return options.check && summary.behindCount > 0 ? ExitCode.failure : code
    }
    let schemaFile = options.schemaFile.file(context, settings)
    // Resolved before the folder is read, its error (if any) thrown after the folder's.
    let resolved = Result { try options.database.resolveReading(context) }
    // Begun before the folder is read; its answer (or error) is taken only after.
    let early = earlyOpen(try? resolved.get(), options.database, context)
    let migrations = try options.migrations.load(context, cached: true)
    let database = try resolved.get()
    let configuration = try options.database.configuration()
    let exists: Bool
    let plan: MigrationPlan
    if let early {
      let opened = try early.opened()
      // As the database was when it was opened: a file made since is not the one read.
      exists = opened.existed
      plan = Migrator(migrations).plan(opened.history)
    } else {
      let kind = database.kind()
      exists = kind != .missing
      let connection = try DatabaseSession.open(
        database,
        forWriting: false,
        busyTimeout: options.database.busyTimeout,
        configuration: configuration,
        kind: kind
      )
      plan = try Migrator(migrations).plan(connection)
    }
    UntilExit.keep((migrations, plan))
    // Replayed only when something reads the answer.
    let showsSchema = options.check || !options.output.quiet || options.output.format == .json
    let rewrite = SchemaFileRun.Rewrite(
      schemaFile: options.schemaFile,
      migrations: options.migrations,
      extensions: options.database.extensions
    )
    let schema = schemaFile.flatMap { file in
      showsSchema ? SchemaFileRun.status(file, migrations, configuration, rewrite) : nil
    }
    try render(plan, database: database.shown, exists: exists, migrations, schema, options, context)
    let behind = !plan.isUpToDate || schema.map { !$0.isCurrent } == true
    return options.check && behind ? ExitCode.failure : ExitCode.success
  }

  /// The report, in the format asked for.
  private static func render(
    _ plan: MigrationPlan,
    database: String,
    exists: Bool,
    _ migrations: MigrationSet,
    _ schema: SchemaFileRun.StatusReport?,
    _ options: Options,
    _ context: CommandContext
  ) throws {
    var counts: [String: Int] = [:]
    for state in [
      MigrationStatus.State.applied, .pending, .changed, .unknown, .outOfOrder, .otherTool,
    ] {
      counts[state.rawValue] = plan.count(in: state)
    }
    switch options.output.format {
    case .json:
      try context.printJSON(
        Report(
          database: database,
          exists: exists,
          currentVersion: plan.currentVersion,
          migrationFormat: migrations.format.rawValue,
          migrations: plan.migrations,
          counts: counts,
          otherToolHistories: plan.otherToolHistories,
          repeatables: plan.repeatables.isEmpty ? nil : plan.repeatables,
          schemaFile: schema
        )
      )
    case .text:
      if !options.output.quiet {
        renderText(
          plan,
          database: database,
          exists: exists,
          migrations: migrations,
          schema: schema,
          counts,
          context
        )
      }
    }
  }

  /// The database opened and its history read while the folder is (`EarlyDatabaseOpen`);
  /// `nil` when an extension is to be loaded or the location is in error, which are then met
  /// in their turn, after the folder's errors, and for a database in WAL mode, whose reader
  /// may create `-wal` and `-shm` files: a broken folder must leave the folder of the
  /// database as it was.
  private static func earlyOpen(
    _ database: ResolvedDatabase?,
    _ options: DatabaseOptions,
    _ context: CommandContext
  ) -> EarlyDatabaseOpen? {
    guard options.extensions.isEmpty, let database, !isWALDatabase(at: database.path) else {
      return nil
    }
    let busyTimeout = options.busyTimeout
    return EarlyDatabaseOpen(
      at: database.path,
      cache: database.isClusterSnapshot
        ? nil : StatusCache.historyCache(forDatabaseAt: database.path, context)
    ) {
      try DatabaseSession.open(
        database,
        forWriting: false,
        busyTimeout: busyTimeout,
        configuration: ConnectionConfiguration()
      )
    }
  }

  private static func renderText(
    _ plan: MigrationPlan,
    database: String,
    exists: Bool,
    migrations: MigrationSet,
    schema: SchemaFileRun.StatusReport?,
    _ counts: [String: Int],
    _ context: CommandContext
  ) {
    let state = exists ? "version \(plan.currentVersion)" : "does not exist yet"
    context.print("Database:   \(database) (\(state))")
    // Counted as migrations, not files: a pair's two files, or a diesel folder's, are one.
    let count = migrations.migrations.count
    let repeatables = migrations.repeatables.count
    context.print(
      "Migrations: \(migrations.directory) (\(count) migration\(count == 1 ? "" : "s")"
        + (repeatables == 0 ? "" : ", \(repeatables) repeatable") + ")"
    )
    context.print("Format:     \(migrations.format.summary)")
    if let schema { context.print("Schema:     \(schema.path) (\(schema.summary))") }
    for history in plan.otherToolHistories {
      context.print(
        "History:    \(history.tool.displayName)'s \(history.table) records "
          + "\(history.recordedDescription); not adopted"
      )
    }
    defer {
      if let schema, let message = schema.message {
        context.print("Warning: \(message)")
        if let help = schema.help { context.print("Help: \(help)") }
      }
    }
    guard !plan.migrations.isEmpty else { return }
    context.print()
    let rows = plan.migrations.map { entry in
      [
        entry.version.text, entry.state.rawValue, entry.file.map(fileName) ?? entry.name,
        entry.appliedAt ?? "",
      ]
    }
    TextTable.print(["VERSION", "STATE", "MIGRATION", "APPLIED AT"], rows, context)
    context.print()
    let summary = ["applied", "pending", "changed", "unknown", "out-of-order", "other-tool"]
      .compactMap { key in counts[key].flatMap { $0 > 0 || key == "applied" ? "\($0) \(key)" : nil }
      }
      .joined(separator: ", ")
    context.print(summary)
    renderRepeatables(plan.repeatables, context)
    if let history = plan.otherToolHistories.first {
      let refusal = ForeignHistoryError.notAdopted(history)
      context.print("Warning: \(refusal.message)")
      context.print("Help: \(refusal.commandLineHelp)")
    }
    for problem in Migrator(migrations).problems(in: plan) {
      context.print("Warning: \(problem.message)")
      context.print("Help: \(problem.commandLineHelp)")
    }
  }

  /// Flyway's repeatable migrations, after the versioned ones: a changed one is applied again
  /// by the next `migrate`, which is not a problem.
  private static func renderRepeatables(
    _ repeatables: [RepeatableStatus],
    _ context: CommandContext
  ) {
    guard !repeatables.isEmpty else { return }
    context.print()
    let rows = repeatables.map {
      [$0.name, $0.state.rawValue, fileName($0.file), $0.appliedAt ?? ""]
    }
    TextTable.print(["REPEATABLE", "STATE", "MIGRATION", "APPLIED AT"], rows, context)
    context.print()
    let counts = [RepeatableStatus.State.applied, .pending, .changed].compactMap { state in
      let count = repeatables.filter { $0.state == state }.count
      return count > 0 || state == .applied ? "\(count) \(state.rawValue)" : nil
    }
    let due = repeatables.contains { $0.state != .applied }
    context.print(
      "Repeatable: \(counts.joined(separator: ", "))"
        + (due ? " ('strata migrate' applies them after the versioned migrations)" : "")
    )
  }

  /// The last part of the path (1,000 rows each take one).
  private static func fileName(_ path: String) -> String {
    if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")),
      path.utf8.index(after: slash) < path.utf8.endIndex
    {
      return String(path[path.utf8.index(after: slash)...])
    }
    return path.split(separator: "/").last.map(String.init) ?? path
  }
}
