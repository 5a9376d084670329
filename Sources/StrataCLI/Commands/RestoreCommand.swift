import Foundation
import Strata
import StrataArguments
import StrataDqlite

/// `strata restore [FILE]`: copies a backup `migrate --backup` wrote back into the database,
/// through SQLite's backup API (the file is written in place, never replaced); or lists them.
enum RestoreCommand: Command {
  static let force = Flag(
    "force",
    help: "Restore even when the database has migrations the backup lacks (they are undone), "
      + "or cannot be read (it is damaged); never a damaged backup."
  )
  static let list = Flag("list", help: "List the database's backups, newest first; restore none.")

  static let spec = CommandSpec(
    name: "restore",
    abstract: "Put a backup written by 'migrate --backup' back into the database.",
    discussion: """
      FILE defaults to the newest backup beside the database. The backup must pass SQLite's
      integrity check (a damaged one is refused, even with --force). Refuses, changing nothing,
      when the database's history has migrations the backup's lacks, or the database cannot be
      read, unless --force. A missing database is created from the backup.
      """,
    positionals: [
      PositionalSpec(name: "file", help: "The backup (default: the newest).", isRequired: false)
    ],
    options: [
      CommonOptions.database, CommonOptions.format, CommonOptions.quiet, CommonOptions.busyTimeout,
      force, list,
    ]
  )

  /// What `--format json` prints after a restore.
  struct Report: Encodable {
    let database: String
    let backup: String
    let version: MigrationVersion
    let undone: [MigrationVersion]
    /// What was at the database's path: readable, missing or unreadable.
    let before: RestoreReport.Before
    /// Where an unreadable database's bytes were copied before they were replaced.
    let damagedCopy: String?
  }

  /// One backup in `--list --format json`.
  struct Listed: Encodable {
    let file: String
    let version: String
    let createdAt: String
  }

  /// What `restore` reads of its command line.
  struct Options: CommandOptions {
    let database: DatabaseOptions
    let output: OutputOptions
    /// The backup named, as given; nil takes the newest.
    let file: String?
    let force: Bool
    let list: Bool

    init(_ arguments: ParsedArguments) throws {
      try CommonOptions.rejectEmptyPaths(arguments)
      database = DatabaseOptions(arguments)
      output = OutputOptions(arguments)
      file = arguments.positionals.first
      force = arguments[RestoreCommand.force]
      list = arguments[RestoreCommand.list]
      if list, file != nil || force {
        throw UsageError(message: "--list takes no FILE and no --force: it restores nothing")
      }
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    do {
      return try restore(options, context)
    } catch let error as BackupError {
      throw error.shown(context)
    }
  }

  private static func restore(_ options: Options, _ context: CommandContext) throws -> Int32 {
    if let cluster = options.database.named(context), DqliteURL.names(cluster) {
      throw ClusterRefusal(
        url: cluster,
        reason: "restore replaces a database file with a backup, and a cluster's database "
          + "is replaced through dqlite itself; restore the backup to a file (--database FILE)"
      )
    }
    let location = try options.database.resolve(context)
    let database = location.shown
    let json = options.output.format == .json
    let quiet = options.output.quiet
    if options.list {
      return try printList(location.url, database: database, json: json, quiet: quiet, context)
    }
    let backup: URL
    if let file = options.file {
      backup =
        URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: context.currentDirectory))
        .standardizedFileURL
    } else {
      guard let newest = try DatabaseBackup.list(of: location.url).first else {
        throw BackupError.noBackups(database: location.url.path)
      }
      backup = newest.url
    }
    let report = try DatabaseBackup.restore(
      backup,
      into: location.url,
      force: options.force,
      busyTimeout: options.database.busyTimeout
    )
    let shownBackup = CommonOptions.shown(backup, context)
    let kept = report.damagedCopy.map {
      "; its bytes were kept as \(CommonOptions.shown($0, context))"
    }
    let into =
      switch report.before {
      case .readable: database
      case .missing: "\(database) (there was no database: it was created from the backup)"
      case .unreadable: "\(database) (it could not be read: replaced by the backup\(kept ?? ""))"
      }
    let outcome = "Restored \(shownBackup) into \(into): it is now at version \(report.version)."
    context.finished(outcome)
    if json {
      try context.printJSON(
        Report(
          database: database,
          backup: shownBackup,
          version: report.version,
          undone: report.undone,
          before: report.before,
          damagedCopy: report.damagedCopy.map { CommonOptions.shown($0, context) }
        )
      )
    } else if !quiet {
      context.print(outcome)
      if !report.undone.isEmpty {
        context.print("Undone: version(s) \(report.undone.map(\.text).joined(separator: ", ")).")
      }
    }
    return ExitCode.success
  }

  /// `--list`: the backups beside the database, newest first.
  private static func printList(
    _ url: URL,
    database: String,
    json: Bool,
    quiet: Bool,
    _ context: CommandContext
  ) throws -> Int32 {
    let backups = try DatabaseBackup.list(of: url)
    let rows = backups.map { backup in
      Listed(
        file: CommonOptions.shown(backup.url, context),
        version: backup.version,
        createdAt: backup.createdAt.formatted(.iso8601)
      )
    }
    if json {
      try context.printJSON(rows)
    } else if !quiet {
      if rows.isEmpty {
        context.print("No backups of \(database).")
      } else {
        TextTable.print(
          ["VERSION", "WRITTEN", "FILE"],
          rows.map { [$0.version, $0.createdAt, $0.file] },
          context
        )
      }
    }
    return ExitCode.success
  }
}
