import Foundation
import Strata
import StrataArguments

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
      never replaced.
      """,
    options: [
      output, force, CommonOptions.migrations, CommonOptions.format, CommonOptions.quiet,
      CommonOptions.followSymlinks, CommonOptions.loadExtension, CommonOptions.migrationFormat,
      CommonOptions.exclude,
    ]
  )

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
    let migrations = try CommonOptions.loadMigrations(arguments, context)
    let configuration = try CommonOptions.connectionConfiguration(arguments)
    let given = arguments[Self.output] ?? "seeds/template.sqlite3"
    let output = DatabaseLocation.absolute(given, from: context.currentDirectory)
    if arguments[Self.output] == nil {
      try FileManager.default.createDirectory(
        at: output.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
    }
    let report = try TemplateBuilder.build(
      migrations,
      to: output,
      replacing: arguments[Self.force],
      configuration: configuration
    )
    context.finished("\(given) was written at version \(report.version).")
    switch arguments[CommonOptions.format] {
    case .json:
      try context.printJSON(report)
    case .text:
      if !arguments[CommonOptions.quiet] {
        context.print(
          "Wrote \(given) at version \(report.version) (\(report.migrations) migrations, "
            + "\(report.bytes) bytes)."
        )
      }
    }
    return ExitCode.success
  }
}
