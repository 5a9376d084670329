import Foundation
import Strata
import StrataArguments
import StrataDqlite

/// `strata template`: builds the template database an app bundles, from the migrations.
enum TemplateCommand: Command {
  static let output = Option<String?>(
    "output",
    "path",
    help: "Where to write it (default: seeds/template.sqlite3)."
  )
  static let force = Flag(
    "force",
    help: "Replace an unchanged template (or empty file) at the output path."
  )
  static let check = Flag(
    "check",
    help: "Write nothing: exit 1 saying what differs when the template at the output path is "
      + "not what the migrations build now, 0 when it is."
  )
  static let stamp = Option<String?>(
    "stamp",
    "path",
    help: "With --check: write an empty file at PATH when the template is current (an output "
      + "for a build system, such as strata's build plugin)."
  )

  static let spec = CommandSpec(
    name: "template",
    abstract: "Build the template database from the migrations.",
    discussion: """
      Applies every migration to a fresh database and writes it with VACUUM INTO, history
      included, so a database copied from it starts at the newest version. The same migrations
      give a byte-identical file. An existing file at the output path is replaced only with
      --force, and only when it is an empty file or a database whose content is exactly what
      strata's migrations put there: strata rebuilds the migrations it records (their files
      must be present and unedited) and compares every table, schema and rows. A template an
      app or a user wrote into (or a copy of one), a database with rows, or any other file is
      never replaced. With --check nothing is written: the template is compared with what the
      migrations build now (a migration it lacks, a migration file edited since, any other
      difference) and the command exits 1 naming each difference, 0 when it is current.
      """,
    options: [
      output, force, check, stamp, CommonOptions.migrations, CommonOptions.format,
      CommonOptions.quiet,
      CommonOptions.followSymlinks, CommonOptions.loadExtension, CommonOptions.migrationFormat,
      CommonOptions.exclude,
    ]
  )

  /// What `template` reads of its command line.
  struct Options: CommandOptions {
    let migrations: MigrationsOptions
    let output: OutputOptions
    /// `--load-extension`, in order.
    let extensions: [SQLiteExtension]
    /// `--output` as given; nil writes `seeds/template.sqlite3`, creating `seeds`.
    let path: String?
    let force: Bool
    let check: Bool
    /// `--stamp` as given (with `--check`).
    let stamp: String?

    init(_ arguments: ParsedArguments) throws {
      try CommonOptions.rejectEmptyPaths(arguments)
      migrations = MigrationsOptions(arguments)
      output = OutputOptions(arguments)
      extensions = DatabaseOptions(arguments).extensions
      path = arguments[TemplateCommand.output]
      force = arguments[TemplateCommand.force]
      check = arguments[TemplateCommand.check]
      stamp = arguments[TemplateCommand.stamp]
      if check, force {
        throw UsageError(message: "--check writes nothing, so --force has nothing to replace")
      }
      if !check, stamp != nil {
        throw UsageError(message: "--stamp is written only by a check: pass --check too")
      }
    }

    /// The output path as the user gave it, or the default.
    var shownPath: String { path ?? "seeds/template.sqlite3" }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let migrations = try options.migrations.load(context)
    try MigrationOrderCheck.refuseDisagreeingOrder(
      migrations,
      formatNamed: options.migrations.formatNamed,
      context
    )
    if let path = options.path, DqliteURL.names(path) {
      throw ClusterRefusal(
        url: path,
        reason: "a template is a file bundled with an app; build it here, then migrate the "
          + "cluster"
      )
    }
    let configuration = try DatabaseOptions.configuration(loading: options.extensions)
    let given = options.shownPath
    let output = DatabaseLocation.absolute(given, from: context.currentDirectory)
    if options.check {
      return try checkTemplate(output, shownAs: given, migrations, configuration, options, context)
    }
    if options.path == nil {
      try FileManager.default.createDirectory(
        at: output.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
    }
    let report = try TemplateBuilder.build(
      migrations,
      to: output,
      replacing: options.force,
      configuration: configuration
    )
    context.finished("\(given) was written at version \(report.version).")
    switch options.output.format {
    case .json:
      try context.printJSON(report)
    case .text:
      if !options.output.quiet {
        context.print(
          "Wrote \(given) at version \(report.version) (\(report.migrations) migrations, "
            + "\(report.bytes) bytes)."
        )
      }
    }
    return ExitCode.success
  }
}

extension TemplateCommand {
  /// `--check`: the library's `TemplateBuilder.check`, with the command that rebuilds the
  /// template as its help; `--stamp` is written only when the template is current.
  static func checkTemplate(
    _ template: URL,
    shownAs given: String,
    _ migrations: MigrationSet,
    _ configuration: ConnectionConfiguration,
    _ options: Options,
    _ context: CommandContext
  ) throws -> Int32 {
    let stamp = options.stamp.map {
      DatabaseLocation.absolute($0, from: context.currentDirectory)
    }
    // A stamp left by an earlier check must not say that this one passed.
    if let stamp { try? FileManager.default.removeItem(at: stamp) }
    do {
      try TemplateBuilder.check(template, against: migrations, configuration: configuration)
    } catch SetupError.templateMissing {
      throw StaleTemplateError(
        message: "template \(given) does not exist, so it cannot be checked; nothing was written",
        help: "Build it with 'strata template --output \(given)' (with the same --migrations)."
      )
    } catch SetupError.templateStale(_, let differences) {
      throw StaleTemplateError(
        message: SetupError.templateStale(path: given, differences: differences).message,
        help: "Rebuild it: remove \(given) and run 'strata template --output \(given)' with the "
          + "same --migrations, then commit or bundle the new file."
      )
    }
    if let stamp {
      guard FileManager.default.createFile(atPath: stamp.path, contents: Data()) else {
        throw SetupError.templateNotWritten(path: stamp.path, reason: "could not create the file")
      }
    }
    context.finished("\(given) is current; nothing was written.")
    switch options.output.format {
    case .json:
      try context.printJSON(["template": given, "status": "current"])
    case .text:
      if !options.output.quiet {
        context.print("\(given) is current: it is what the migrations build now.")
      }
    }
    return ExitCode.success
  }
}

/// A stale template, in the CLI's words: the command that rebuilds it.
struct StaleTemplateError: StrataError {
  let message: String
  let help: String
}
