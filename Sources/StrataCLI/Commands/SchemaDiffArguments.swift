import Foundation
import Strata
import StrataArguments

/// The options `strata diff` and `strata new --from-schema` share, read once, and the one way
/// both make the migration: the current schema (the migrations' replay, or `--database`), the
/// desired schema file, and `SchemaDiff`.
struct SchemaDiffArguments {
  static let rename = RepeatedOption<SchemaRename>(
    "rename",
    "old=new",
    help: "A table (old=new) or column (table.old=new) the desired schema renames (repeatable)."
  ) { text in
    do {
      return try SchemaRename(parsing: text)
    } catch let error as DiffError {
      throw UsageError(message: "--rename \(quotedArgument(text)): \(error.message)")
    }
  }
  static let allowDestructive = Flag(
    "allow-destructive",
    help: "Write changes that lose data: drops, columns made generated, types that change "
      + "values (each marked in the file)."
  )
  static let oldestSQLite = Option<Int32?>(
    "oldest-sqlite",
    "version",
    help: "The oldest SQLite the migration must run on, such as 3.31 (default: this one's).",
    default: nil
  ) { text in
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).compactMap {
      Int32($0).flatMap { $0 >= 0 ? $0 : nil }
    }
    guard (2...3).contains(parts.count), parts.count == text.split(separator: ".").count,
      parts[0] == 3, parts[1] < 1000
    else {
      throw UsageError(
        message: "--oldest-sqlite must be a version of SQLite 3 such as 3.31 or 3.35.5; got "
          + quotedArgument(text)
      )
    }
    return 3_000_000 + parts[1] * 1000 + (parts.count == 3 ? min(parts[2], 999) : 0)
  }

  /// The options both commands take besides the desired schema's and the migrations folder's.
  static let options: [any OptionDeclaration] = [
    rename, allowDestructive, oldestSQLite, CommonOptions.database, CommonOptions.busyTimeout,
    CommonOptions.followSymlinks, CommonOptions.loadExtension,
  ]

  /// How the migration is made: renames, destructive changes, the oldest SQLite.
  let diff: SchemaDiffOptions
  /// `--database`, `--busy-timeout` and `--load-extension`.
  let database: DatabaseOptions
  let migrations: MigrationsOptions
  /// The first of these options given, for the usage error of one given without a desired
  /// schema.
  let firstGiven: String?

  init(_ arguments: ParsedArguments) {
    diff = SchemaDiffOptions(
      renames: arguments[Self.rename],
      allowsDestructive: arguments[Self.allowDestructive],
      oldestSQLite: arguments[Self.oldestSQLite]
    )
    database = DatabaseOptions(arguments)
    migrations = MigrationsOptions(arguments)
    let given: [(given: Bool, name: String)] = [
      (!diff.renames.isEmpty, "--rename"), (diff.allowsDestructive, "--allow-destructive"),
      (diff.oldestSQLite != nil, "--oldest-sqlite"), (database.path != nil, "--database"),
      (!database.extensions.isEmpty, "--load-extension"),
    ]
    firstGiven = given.first(where: \.given)?.name
  }

  /// The migration from the current schema to the one in the file `desiredPath`, and the
  /// migrations folder (whose format the migration is written in).
  ///
  /// - Parameter writing: the migration is written into the folder (`strata new`): a
  ///   `--database` that has not applied exactly the folder's migrations is refused; else
  ///   (`strata diff`) it is said as a warning.
  func generate(
    desiredPath: String,
    writing: Bool,
    _ context: CommandContext
  ) throws -> (migration: GeneratedMigration, folder: URL, format: MigrationFormat?) {
    let configuration = try database.configuration()
    let desiredURL = URL(
      fileURLWithPath: desiredPath,
      relativeTo: URL(fileURLWithPath: context.currentDirectory + "/")
    )
    let desired = try DesiredSchema(
      contentsOf: desiredURL,
      displayPath: desiredPath,
      configuration: configuration
    )
    let folder = migrations.directory(context)
    let current: Schema
    if database.path != nil {
      let (schema, check) = try databaseSchema(context, configuration)
      current = schema
      if let check, !check.matches {
        if writing { throw check.error }
        context.printError(check.warning)
      }
    } else {
      current = try migrations.load(context).producedSchema(configuration: configuration)
    }
    let migration = try SchemaDiff.migration(
      from: current,
      to: desired,
      options: diff,
      configuration: configuration
    )
    return (migration, folder.url, migrations.format)
  }

  /// The schema of the `--database` file, read without changing it, and how its history
  /// stands against the migrations folder (nil when the folder cannot be read).
  private func databaseSchema(
    _ context: CommandContext,
    _ configuration: ConnectionConfiguration
  ) throws -> (Schema, SchemaDiffDatabaseCheck?) {
    let location = try database.resolveReading(context)
    let connection = try DatabaseSession.open(
      location,
      forWriting: false,
      busyTimeout: database.busyTimeout,
      configuration: configuration,
      mustExist: true
    )
    // An invalid byte would read as U+FFFD and compare equal to a desired schema's U+FFFD.
    try SchemaInspector(connection).refuseInvalidUTF8()
    let schema = try SchemaInspector(connection).inspect()
    guard let migrations = try? migrations.load(context),
      let plan = try? Migrator(migrations).plan(connection)
    else { return (schema, nil) }
    let check = SchemaDiffDatabaseCheck(
      database: location.shown,
      folder: self.migrations.directory(context).shown,
      plan: plan
    )
    return (schema, check)
  }

  /// What the command says on standard error after the migration: how it was checked, what it
  /// loses, and a missing down part.
  static func report(_ migration: GeneratedMigration, _ context: CommandContext) {
    let count = migration.changes.count
    context.printError(
      "\(count) change\(count == 1 ? "" : "s") from \(migration.desiredFile), checked on a "
        + "scratch copy of the schema with sample rows in \(migration.sampledTableCount) of "
        + "\(migration.tableCount) table\(migration.tableCount == 1 ? "" : "s")."
    )
    for change in migration.destructiveChanges {
      context.printError("Warning: destructive: \(change).")
    }
    if let reason = migration.irreversibleReason {
      context.printError("Warning: no down part: \(reason).")
    }
  }
}
