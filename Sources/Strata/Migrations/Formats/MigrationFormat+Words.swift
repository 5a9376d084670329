extension MigrationFormat {
  /// How a message names the option that runs a part outside a transaction, in this format's
  /// own words; nil when the format has none (golang-migrate, iOS bundles).
  var noTransactionOption: String? {
    switch self {
    case .dbmate: "transaction:false"
    case .goose: "-- +goose NO TRANSACTION"
    case .sqlMigrate: "notransaction"
    case .sqlx: "-- no-transaction"
    case .diesel: "run_in_transaction = false (in metadata.toml)"
    case .flyway: "executeInTransaction=false (in the script's .sql.conf)"
    case .golangMigrate, .bundle: nil
    }
  }

  /// What to do so that a part runs outside a transaction, in this format's words.
  var noTransactionAdvice: String {
    switch self {
    case .dbmate:
      "mark the part '-- migrate:up transaction:false' (or '-- migrate:down transaction:false')"
    case .goose: "add the line '-- +goose NO TRANSACTION' to the file"
    case .sqlMigrate: "mark the part '-- +migrate Up notransaction' (or 'Down notransaction')"
    case .sqlx: "make '-- no-transaction' the file's first line"
    case .diesel: "add 'run_in_transaction = false' to metadata.toml in the migration's folder"
    case .flyway: "write 'executeInTransaction=false' in a file named like it plus .conf beside it"
    case .golangMigrate, .bundle:
      "\(tool) has no per-file option to run outside a transaction, so run the statement outside "
        + "the migrations (by hand, or from the app)"
    }
  }

  /// What to add so that a migration can be rolled back, in this format's words.
  var downPartAdvice: String {
    switch self {
    case .dbmate: "Add a '-- migrate:down' part to the file, or restore from a backup."
    case .goose: "Add a '-- +goose Down' part to the file, or restore from a backup."
    case .sqlMigrate: "Add a '-- +migrate Down' part to the file, or restore from a backup."
    case .golangMigrate:
      "Add its .down.sql file (the same version and name as the .up.sql), or restore from a "
        + "backup."
    case .sqlx:
      "sqlx reads no down part in a single file: write the migration as an .up.sql/.down.sql "
        + "pair with the same version and name, or restore from a backup."
    case .flyway:
      "Write Flyway's undo file for it (U<version>__<description>.sql beside it), or restore "
        + "from a backup."
    case .diesel:
      "Add a down.sql file to the migration's folder, or restore from a backup."
    case .bundle:
      "An iOS bundle's migrations have no down part: restore the database from a backup."
    }
  }
}
