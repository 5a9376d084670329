import Strata
import StrataArguments

/// `strata baseline --version V`: adopt a database that predates strata; `--from TOOL`: adopt
/// another migration tool's history.
enum BaselineCommand: Command {
  static let version = VersionOption.declare(
    "version",
    help: "The newest version the database already has."
  )
  /// `auto`, or the tool (nil: not given).
  static let from = Option<String?>(
    "from",
    "tool",
    help: "Adopt this tool's history instead (auto: the one the database has).",
    default: nil,
    choices: fromChoices
  ) { $0 }  // The parser refuses any value outside `choices`.
  static let fromChoices = ["auto"] + ForeignTool.allCases.map(\.rawValue)
  static let allowChanged = Flag(
    "allow-changed",
    help: "With --from: record files edited since the tool applied them (Flyway, sqlx) anyway."
  )

  static let spec = CommandSpec(
    name: "baseline",
    abstract: "Record migrations up to a version as applied without running them.",
    discussion: """
      For a database that already has the schema those migrations create (an app's
      data.sqlite3 from before strata): later migrations then apply on top. With --from,
      the versions another tool's history records as applied (gaps stay pending); its table
      is left as it is. A file Flyway or sqlx would call edited (its checksum is not the one
      the tool recorded) is refused unless --allow-changed; a Flyway repeatable migration
      unchanged since Flyway applied it is recorded as applied too.
      """,
    options: CommonOptions.databaseOptions + [version, from, allowChanged]
  )

  /// What `baseline` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let migrations: MigrationsOptions
    let output: OutputOptions
    /// `--version` as given: a version is read in the folder's format, once the folder is read.
    let version: String?
    /// `--from`: `auto`, or the tool.
    let from: String?
    let allowChanged: Bool

    init(_ arguments: ParsedArguments) throws {
      version = arguments[BaselineCommand.version]
      from = arguments[BaselineCommand.from]
      allowChanged = arguments[BaselineCommand.allowChanged]
      let usage = "Usage: strata baseline --version V, or strata baseline --from TOOL"
      if version != nil, from != nil {
        throw UsageError(message: "--version and --from cannot be combined", help: usage)
      }
      if from == nil, version == nil {
        throw UsageError(message: "missing --version or --from", help: usage)
      }
      if from == nil, allowChanged {
        throw UsageError(message: "--allow-changed goes with --from", help: usage)
      }
      try CommonOptions.rejectEmptyPaths(arguments)
      database = DatabaseOptions(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let migrations = try options.migrations.load(context)
    let connection: any SQLDatabase
    let database: String
    if let cluster = try options.database.cluster(context) {
      if options.version == nil {
        throw ClusterRefusal(
          url: cluster.description,
          reason: "adopting another tool's history rewrites it through SQLite itself",
          what: "baseline --from"
        )
      }
      connection = try ClusterRuns.openExisting(cluster, options.database)
      database = cluster.description
    } else {
      let resolved = try options.database.resolve(context)
      connection = try DatabaseSession.open(
        resolved,
        forWriting: true,
        busyTimeout: options.database.busyTimeout,
        configuration: try options.database.configuration(),
        mustExist: true
      )
      database = resolved.shown
    }
    guard
      let version = try VersionOption.parse(
        options.version,
        name: "version",
        in: migrations,
        allowsZero: false
      )
    else {
      let from = options.from
      // A cluster was refused above: adoption runs on a file's connection.
      guard let connection = connection as? Connection else { preconditionFailure() }
      let adoption = try Migrator(migrations).adopt(
        connection,
        from: from == "auto" ? nil : from.flatMap(ForeignTool.init(rawValue:)),
        folder: options.migrations.directory(context).url,
        allowChanged: options.allowChanged
      )
      return try report(adoption, database: database, options.output, context)
    }
    let recorded = try Migrator(migrations).baseline(connection, version: version)
    context.finished(
      "\(recorded.count) migration(s) up to version \(version) were recorded as applied in "
        + "\(database)."
    )
    let output = options.output
    switch output.format {
    case .json:
      struct Report: Encodable {
        let database: String
        let version: MigrationVersion
        let recorded: [MigrationVersion]
      }
      try context.printJSON(
        Report(database: database, version: version, recorded: recorded.map(\.version))
      )
    case .text:
      if !output.quiet {
        context.print(
          "Recorded \(recorded.count) migration(s) up to version \(version) as applied in "
            + "\(database), without running them."
        )
      }
    }
    return ExitCode.success
  }

  /// `--from TOOL`: what was adopted.
  private static func report(
    _ adoption: Adoption,
    database: String,
    _ output: OutputOptions,
    _ context: CommandContext
  ) throws -> Int32 {
    let history = adoption.history
    let versions = adoption.recorded.map(\.text).joined(separator: ", ")
    context.finished(
      "\(history.tool.displayName)'s history was adopted: \(adoption.recorded.count) "
        + "migration(s) were recorded as applied in \(database)."
    )
    switch output.format {
    case .json:
      struct Report: Encodable {
        let database: String
        let from: String
        let table: String
        let recorded: [MigrationVersion]
        let repeatables: [String]
        let acceptedEdits: [EditedFile]
      }
      try context.printJSON(
        Report(
          database: database,
          from: history.tool.rawValue,
          table: history.table,
          recorded: adoption.recorded,
          repeatables: adoption.repeatables,
          acceptedEdits: adoption.acceptedEdits
        )
      )
    case .text:
      if !output.quiet {
        context.print(
          "Adopted \(history.tool.displayName)'s history (\(history.table)): recorded "
            + "\(adoption.recorded.count) migration(s) as applied in \(database), without "
            + "running them: \(versions.isEmpty ? "none" : versions)."
        )
        if !adoption.repeatables.isEmpty {
          context.print(
            "Recorded \(adoption.repeatables.count) repeatable migration(s) unchanged since "
              + "\(history.tool.displayName) applied them as applied: "
              + adoption.repeatables.joined(separator: ", ") + "."
          )
        }
        if !adoption.acceptedEdits.isEmpty {
          context.print(
            "Recorded as applied although edited since \(history.tool.displayName) applied "
              + "them (--allow-changed): "
              + adoption.acceptedEdits.map(\.file).joined(separator: ", ") + "."
          )
        }
        context.print("\(history.table) is left as it was; strata reads only its own history now.")
      }
    }
    return ExitCode.success
  }
}
