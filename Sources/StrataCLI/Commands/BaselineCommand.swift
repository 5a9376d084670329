import Strata
import StrataArguments

/// `strata baseline --version V`: adopt a database that predates strata.
enum BaselineCommand: Command {
  static let version = Option<Int64?>.integer(
    "version",
    "version",
    help: "The newest version the database already has.",
    minimum: 1
  )

  static let spec = CommandSpec(
    name: "baseline",
    abstract: "Record migrations up to a version as applied without running them.",
    discussion: """
      For a database that already has the schema those migrations create (an app's
      data.sqlite3 from before strata): later migrations then apply on top.
      """,
    options: CommonOptions.databaseOptions + [version]
  )

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    guard let version = arguments[Self.version] else {
      throw UsageError(message: "missing --version", help: "Usage: strata baseline --version V")
    }
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    let location = try CommonOptions.databaseURL(arguments, context)
    let connection = try DatabaseSession.open(
      location,
      forWriting: true,
      busyTimeout: arguments[CommonOptions.busyTimeout],
      configuration: try CommonOptions.connectionConfiguration(arguments),
      mustExist: true
    )
    let recorded = try Migrator(migrations).baseline(connection, version: version)
    let database = CommonOptions.shown(location.url, context)
    context.finished(
      "\(recorded.count) migration(s) up to version \(version) were recorded as applied in "
        + "\(database)."
    )
    switch arguments[CommonOptions.format] {
    case .json:
      struct Report: Encodable {
        let database: String
        let version: Int64
        let recorded: [Int64]
      }
      try context.printJSON(
        Report(database: database, version: version, recorded: recorded.map(\.version))
      )
    case .text:
      if !arguments[CommonOptions.quiet] {
        context.print(
          "Recorded \(recorded.count) migration(s) up to version \(version) as applied in "
            + "\(database), without running them."
        )
      }
    }
    return ExitCode.success
  }
}
