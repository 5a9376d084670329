import Foundation
import Strata
import StrataArguments
import StrataDqlite

/// `strata backup FILE`: the database as one SQLite file at a new name, from a file (SQLite's
/// backup API) or from a dqlite cluster (its DUMP): a file that `inspect`, `status` and
/// `restore` read.
enum BackupCommand: Command {
  static let spec = CommandSpec(
    name: "backup",
    abstract: "Write the database as one SQLite file at a new name (a file's or a cluster's).",
    discussion: """
      Copies the database, as it is at one moment, into FILE: a database file through SQLite's
      backup API (it may be in use), a dqlite cluster's database (--database dqlite://...)
      through the leader's DUMP, with its WAL folded in. FILE must not exist: the copy is built
      beside it and linked into place when whole, so FILE is never half-written and never
      replaces a file. The database is only read.
      """,
    positionals: [PositionalSpec(name: "file", help: "The backup to write.", isRequired: true)],
    options: [
      CommonOptions.database, CommonOptions.format, CommonOptions.quiet, CommonOptions.busyTimeout,
    ]
  )

  struct Report: Encodable {
    let database: String
    let backup: String
    let bytes: Int64
  }

  /// What `backup` reads of its command line.
  struct Options: CommandOptions {
    let destination: String
    let database: DatabaseOptions
    let output: OutputOptions

    init(_ arguments: ParsedArguments) throws {
      try CommonOptions.rejectEmptyPaths(arguments)
      destination = arguments.positionals[0]
      guard !destination.isEmpty else {
        throw UsageError(message: "FILE is empty", help: "Name the backup: strata backup FILE")
      }
      database = DatabaseOptions(arguments)
      output = OutputOptions(arguments)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let destination = DatabaseLocation.absolute(
      options.destination,
      from: context.currentDirectory
    )
    let shown: String
    if let cluster = try options.database.cluster(context) {
      try ClusterRuns.openExisting(cluster, options.database).backup(to: destination)
      shown = cluster.description
    } else {
      let location = try options.database.resolve(context)
      let source = try DatabaseSession.open(
        location,
        forWriting: false,
        busyTimeout: options.database.busyTimeout,
        configuration: try options.database.configuration(),
        mustExist: true
      )
      try WholeNewFile.write(to: destination) { file in
        let copy = try ConnectionConfiguration().open(path: file.path)
        try source.copyPages(into: copy)
        // One file, whatever the source's journal: no WAL to carry beside it.
        try copy.execute("PRAGMA journal_mode = DELETE")
      }
      shown = location.shown
    }
    let bytes =
      (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int64)
      ?? 0
    context.finished("The backup of \(shown) was written to \(options.destination).")
    switch options.output.format {
    case .json:
      try context.printJSON(Report(database: shown, backup: options.destination, bytes: bytes))
    case .text:
      if !options.output.quiet {
        context.print("Wrote \(options.destination) (\(bytes) bytes), a backup of \(shown).")
      }
    }
    return ExitCode.success
  }
}
