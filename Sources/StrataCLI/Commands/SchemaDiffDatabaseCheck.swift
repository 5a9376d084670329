import Strata

/// Whether the `--database` a migration is generated from has applied exactly the migrations
/// folder: one behind it (migrations pending) or ahead of it (versions the folder lacks) does
/// not have the schema the migrations produce, and a migration from its schema written into the
/// folder would repeat, or miss, what those migrations do.
struct SchemaDiffDatabaseCheck {
  /// The database as the user named it.
  let database: String
  /// The migrations folder as the user named it.
  let folder: String
  /// The folder's migrations not applied to the database (pending or out of order).
  let notApplied: [MigrationStatus]
  /// The versions the database has applied that the folder has no file for.
  let notInFolder: [MigrationStatus]

  init(database: String, folder: String, plan: MigrationPlan) {
    self.database = database
    self.folder = folder
    notApplied = plan.migrations.filter { $0.state == .pending || $0.state == .outOfOrder }
    notInFolder = plan.migrations(in: .unknown)
  }

  /// True when the database has applied every migration of the folder, and no other.
  var matches: Bool { notApplied.isEmpty && notInFolder.isEmpty }

  /// What differs, as a clause: "app.db has not applied 1 migration of migrations
  /// (migrations/0002_m.sql)".
  var difference: String {
    var parts: [String] = []
    if !notApplied.isEmpty {
      parts.append(
        "\(database) has not applied \(count(notApplied)) of \(folder) ("
          + list(notApplied.map { $0.file ?? "version \($0.version)" }) + ")"
      )
    }
    if !notInFolder.isEmpty {
      parts.append(
        "\(database) has applied \(count(notInFolder)) that \(folder) has no file for ("
          + list(notInFolder.map { "version \($0.version) \($0.name)" }) + ")"
      )
    }
    return parts.joined(separator: ", and ")
  }

  /// What to do: migrate the database first, or compare with the migrations' own schema.
  var help: String {
    (notApplied.isEmpty
      ? "Bring the missing migration files into \(folder)"
      : "Run 'strata migrate --database \(database)' first")
      + ", or leave out --database to compare with the schema the migrations in \(folder) "
      + "produce."
  }

  /// The refusal of `strata new --from-schema`: nothing was written.
  var error: SchemaDiffDatabaseError {
    SchemaDiffDatabaseError(
      message: difference + ", so its schema is not the one the migrations produce: a "
        + "migration from it would repeat or miss what those do. Nothing was written.",
      help: help
    )
  }

  /// The warning of `strata diff`, which only prints.
  var warning: String {
    "Warning: \(difference): the migration printed starts from its schema, not the one the "
      + "migrations produce. \(help)"
  }

  private func count(_ migrations: [MigrationStatus]) -> String {
    "\(migrations.count) migration\(migrations.count == 1 ? "" : "s")"
  }

  private func list(_ items: [String]) -> String {
    items.prefix(3).joined(separator: ", ") + (items.count > 3 ? ", …" : "")
  }
}

/// `strata new --from-schema --database DB` refused: DB has not applied exactly the folder.
struct SchemaDiffDatabaseError: StrataError {
  let message: String
  let help: String
}
