/// The schema a migrations folder produces: every migration (then Flyway's repeatables) replayed
/// in order into a fenced in-memory database, as `migrate` applies them to a new, empty file.
///
/// For the places that need exactly the migrations' schema (a schema file kept current, a
/// generated migration): a replay that failed, skipped a statement (one the fence refuses, such
/// as an `ATTACH` of a file) or stopped is an error here, never a best guess.
struct ProducedSchema {
  /// The replay's database, holding the schema the migrations produce (and any rows they insert).
  let database: Connection

  /// Replays every migration of `migrations` on a connection configured with `configuration`
  /// (the functions and extensions the migrations call).
  ///
  /// - Throws: `InspectionError.replayFailed` when a migration fails in the replay;
  ///   `InspectionError.replayIncomplete` when the replay skipped statements or stopped.
  init(_ migrations: MigrationSet, configuration: ConnectionConfiguration = .none) throws {
    let replay = try MigrationReplay(
      directory: migrations.directory,
      format: migrations.format,
      configuration: configuration
    )
    // From an empty database, the replay holds every row a migration meets: a failing
    // constraint is the migration's own.
    replay.rowsAreTheReplays = true
    let failure: ReplayFailure?
    do {
      failure = try replay.replay(migrations.migrations + migrations.repeatables.map(\.asMigration))
    } catch {
      throw InspectionError.replayFailed(in: migrations.directory, by: error) ?? error
    }
    if let failure {
      throw InspectionError.replayFailed(directory: migrations.directory, reason: "\(failure)")
    }
    if !replay.unchecked.isEmpty {
      throw InspectionError.replayIncomplete(
        directory: migrations.directory,
        notChecked: replay.unchecked
      )
    }
    database = replay.scratch
  }

  /// The schema, as `SchemaInspector` reads it.
  func schema() throws -> Schema {
    try SchemaInspector(database).inspect()
  }

  /// The canonical dump of the schema (`strata inspect --format sql`'s text).
  func dump() throws -> String {
    try schema().rendered(as: .sql)
  }
}

extension MigrationSet {
  /// The schema these migrations produce in a new, empty database, replayed in memory (no file
  /// is created or read): what a schema file committed beside the migrations should hold.
  ///
  /// - Parameter configuration: the functions and extensions the migrations call.
  /// - Throws: `InspectionError.replayFailed` when a migration fails, `.replayIncomplete` when
  ///   the replay had to skip a statement, so the schema is not known exactly.
  package func producedSchema(configuration: ConnectionConfiguration = .none) throws -> Schema {
    try ProducedSchema(self, configuration: configuration).schema()
  }
}
