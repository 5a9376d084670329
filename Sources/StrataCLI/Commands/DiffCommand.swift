import Foundation
import Strata
import StrataArguments

/// `strata diff --schema FILE`: prints the migration from what the migrations produce (or a
/// database) to the schema in FILE, checked before it is printed.
enum DiffCommand: Command {
  static let schema = Option<String?>(
    "schema",
    "file",
    help: "The desired schema: CREATE statements, such as 'strata inspect --format sql' writes."
  )

  static let spec = CommandSpec(
    name: "diff",
    abstract: "Print the migration from the migrations' schema to a desired schema.",
    discussion: """
      Compares the schema the migrations produce (replayed in memory), or the --database file's,
      with the CREATE statements of --schema FILE, and prints a migration with an up and a down
      part in the migrations folder's format. It uses ALTER TABLE where SQLite can make the
      change and SQLite's 12-step rebuild where it cannot, keeping rows, child rows, indexes,
      triggers, views and AUTOINCREMENT counters. Renames are never guessed (--rename), and
      nothing that loses data is written without --allow-destructive. The migration is applied
      to a scratch copy of the schema with sample rows before it is printed; if the result is
      not the desired schema or rows it must keep changed, nothing is printed (exit 1). Write
      it as the next migration with 'strata new NAME --from-schema FILE'. See docs/diff.md.
      """,
    options: [schema] + SchemaDiffArguments.options + [
      CommonOptions.migrations, CommonOptions.migrationFormat, CommonOptions.exclude,
      CommonOptions.format, CommonOptions.quiet,
    ]
  )

  /// What `--format json` prints.
  struct Report: Encodable {
    let desiredSchema: String
    let changes: [String]
    let destructive: [String]
    let up: String
    /// null when the change cannot be undone.
    @ExplicitNull var down: String?
    @ExplicitNull var irreversibleReason: String?
    /// The files `strata new --from-schema` would write, in the folder's format.
    let files: [File]
    let sampledTables: Int
    let tables: Int

    struct File: Encodable {
      let ending: String
      let text: String
    }
  }

  /// What `diff` reads of its command line.
  struct Options: CommandOptions {
    /// `--schema` as given: the desired schema.
    let desiredPath: String
    let schemaDiff: SchemaDiffArguments
    let output: OutputOptions

    init(_ arguments: ParsedArguments) throws {
      guard let desiredPath = arguments[DiffCommand.schema] else {
        throw UsageError(
          message: "strata diff needs the desired schema: --schema FILE",
          help: "Write the desired CREATE statements to a file (or start from 'strata inspect "
            + "--format sql > desired.sql') and run 'strata diff --schema desired.sql'."
        )
      }
      self.desiredPath = desiredPath
      try CommonOptions.rejectEmptyPaths(arguments)
      schemaDiff = SchemaDiffArguments(arguments)
      output = OutputOptions(arguments)
    }
  }

  static func run(_ options: Options, _ context: CommandContext) throws -> Int32 {
    let (migration, folder, format) = try options.schemaDiff.generate(
      desiredPath: options.desiredPath,
      writing: false,
      context
    )
    let files =
      migration.isEmpty
      ? []
      : try MigrationSet.newMigrationTexts(
        in: folder,
        name: "schema_change",
        format: format,
        excluding: options.schemaDiff.migrations.exclusion,
        content: migration
      ).files
    switch options.output.format {
    case .json:
      try context.printJSON(
        Report(
          desiredSchema: migration.desiredFile,
          changes: migration.changes,
          destructive: migration.destructiveChanges,
          up: migration.up,
          down: migration.down,
          irreversibleReason: migration.irreversibleReason,
          files: files.map { Report.File(ending: $0.ending, text: $0.text) },
          sampledTables: migration.sampledTableCount,
          tables: migration.tableCount
        )
      )
    case .text:
      if migration.isEmpty {
        if !options.output.quiet {
          context.printError(
            "No changes: the schema already is the one \(migration.desiredFile) describes."
          )
        }
        return ExitCode.success
      }
      // The migration that was checked, byte for byte, unless a person reads it on a terminal.
      context.printSQL(SQLOutput.migrationFiles(files))
      if !options.output.quiet { SchemaDiffArguments.report(migration, context) }
    }
    return ExitCode.success
  }
}
