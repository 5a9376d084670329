/// How a folder's migration files are written: which tool's names and marker lines they use.
///
/// strata reads each folder as its own tool reads it, so that a team switches to strata with
/// its folder unchanged. The format is detected per folder from the files themselves (their
/// names and marker lines) unless the caller names it; a folder that mixes formats is refused.
public enum MigrationFormat: String, CaseIterable, Sendable, Codable {
  /// strata's own, which is dbmate's: `<version>_<name>.sql` with `-- migrate:up` and
  /// `-- migrate:down` sections (several pairs allowed), or no marker (the whole file is the
  /// up part); `.up.sql`/`.down.sql` pairs may sit beside them.
  case dbmate
  /// golang-migrate: `<version>_<name>.up.sql` and `<version>_<name>.down.sql` only.
  case golangMigrate = "golang-migrate"
  /// goose: `-- +goose Up`, `-- +goose Down`, `StatementBegin`/`StatementEnd`,
  /// `-- +goose NO TRANSACTION` (annotations in any case, as goose reads them).
  case goose
  /// sql-migrate: `-- +migrate Up [notransaction]`, `-- +migrate Down [notransaction]`,
  /// `StatementBegin`/`StatementEnd`.
  case sqlMigrate = "sql-migrate"
  /// sqlx: `<version>_<name>.sql` (up only) or `.up.sql`/`.down.sql` pairs, a file starting
  /// with `-- no-transaction` run outside a transaction.
  case sqlx
  /// diesel: one folder per migration, `<YYYY-MM-DD-HHMMSS>_<name>/up.sql` and `down.sql`,
  /// `metadata.toml` with `run_in_transaction = false`; versions ordered as text.
  case diesel
  /// iOS bundles (SQLiteMigrationManager, FMDBMigrationManager): `<version>.sql` or
  /// `<version>_<name>.sql`, the whole file being the up part, with no down part.
  case bundle
  /// Flyway: `V<version>__<description>.sql`, `U<version>__…` undo files as down parts,
  /// `R__<description>.sql` repeatable migrations; `flyway.conf` read or refused.
  case flyway

  /// The format named `name` (its raw value; `strata` is another name for `dbmate`); nil for
  /// any other name.
  package init?(named name: String) {
    if name == "strata" {
      self = .dbmate
    } else if let format = MigrationFormat(rawValue: name) {
      self = format
    } else {
      return nil
    }
  }

  /// How `status` and `validate` describe the format.
  package var summary: String {
    switch self {
    case .dbmate: "dbmate (strata's own: -- migrate:up / -- migrate:down)"
    case .golangMigrate: "golang-migrate (.up.sql / .down.sql pairs)"
    case .goose: "goose (-- +goose Up / -- +goose Down)"
    case .sqlMigrate: "sql-migrate (-- +migrate Up / -- +migrate Down)"
    case .sqlx: "sqlx (<version>_<name>.sql, .up.sql / .down.sql, -- no-transaction)"
    case .bundle: "bundle (iOS <version>.sql, the whole file is the up part)"
    case .diesel: "diesel (<version>_<name>/up.sql and down.sql folders)"
    case .flyway: "flyway (V<version>__<description>.sql, U… undo, R__… repeatable)"
    }
  }

  /// The tool's name as messages say it.
  var tool: String {
    switch self {
    case .dbmate: "strata (dbmate)"
    case .golangMigrate, .goose, .sqlMigrate, .sqlx, .diesel: rawValue
    case .flyway: "Flyway"
    case .bundle: "an iOS bundle's migration manager"
    }
  }

  /// How the format's tool compares versions.
  package var versionOrdering: MigrationVersion.Ordering {
    switch self {
    case .dbmate, .golangMigrate, .goose, .sqlMigrate, .sqlx, .bundle: .numeric
    case .diesel: .text
    case .flyway: .dotted
    }
  }

  /// The version `text` names in this format (`--to`, `baseline`'s version), compared as the
  /// format's tool compares versions.
  /// - Throws: ``MigrationVersionError`` when `text` is not a version of this format.
  package func version(_ text: String) throws -> MigrationVersion {
    try MigrationVersion(text: text, ordering: versionOrdering)
  }

  /// Whether `.up.sql`/`.down.sql` pairs belong to the format.
  var readsPairs: Bool { self == .dbmate || self == .golangMigrate || self == .sqlx }
}
