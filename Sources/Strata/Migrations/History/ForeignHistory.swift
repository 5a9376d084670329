/// A migration tool other than strata whose history a database can carry.
///
/// A database migrated by one of these keeps that tool's record of what it applied; strata reads
/// it so that it neither runs those migrations again nor forgets them (see
/// ``Migrator/adopt(_:from:folder:allowChanged:)``).
package enum ForeignTool: String, CaseIterable, Sendable, Codable {
  /// dbmate: `schema_migrations (version varchar(128) primary key)`, one row per migration.
  case dbmate
  /// golang-migrate: `schema_migrations (version uint64, dirty bool)`, one row, the newest
  /// version; `dirty` when that migration failed half-way.
  case golangMigrate = "golang-migrate"
  /// goose: `goose_db_version`, one row per up or down; a version is applied when its newest
  /// row says `is_applied`.
  case goose
  /// sqlx: `_sqlx_migrations`, one row per migration; `success` false when it failed.
  case sqlx
  /// Diesel: `__diesel_schema_migrations (version VARCHAR(50))`, one row per migration.
  case diesel
  /// Flyway: `flyway_schema_history`, one row per run of a versioned or repeatable script.
  case flyway
  /// sql-migrate: `gorp_migrations (id, applied_at)`, one row per migration, its id being the
  /// file name.
  case sqlMigrate = "sql-migrate"
  /// GRDB's `DatabaseMigrator`: `grdb_migrations (identifier TEXT)`, names rather than numbers.
  case grdb
  /// FMDBMigrationManager: `schema_migrations (version INTEGER UNIQUE NOT NULL)`.
  case fmdb
  /// SQLiteMigrationManager.swift: `schema_migrations ("version" INTEGER NOT NULL UNIQUE)`.
  case sqliteMigrationManager = "sqlitemigrationmanager"
  /// A hand-rolled scheme: `PRAGMA user_version` set by the app, with no history table.
  case userVersion = "user-version"

  /// The tool's own name, for messages.
  package var displayName: String {
    switch self {
    case .dbmate: "dbmate"
    case .golangMigrate: "golang-migrate"
    case .goose: "goose"
    case .sqlx: "sqlx"
    case .diesel: "Diesel"
    case .flyway: "Flyway"
    case .grdb: "GRDB"
    case .sqlMigrate: "sql-migrate"
    case .fmdb: "FMDBMigrationManager"
    case .sqliteMigrationManager: "SQLiteMigrationManager"
    case .userVersion: "PRAGMA user_version"
    }
  }

  /// Where the tool keeps its history.
  package var table: String {
    switch self {
    case .dbmate, .golangMigrate, .fmdb, .sqliteMigrationManager: "schema_migrations"
    case .goose: "goose_db_version"
    case .sqlx: "_sqlx_migrations"
    case .diesel: "__diesel_schema_migrations"
    case .flyway: "flyway_schema_history"
    case .grdb: "grdb_migrations"
    case .sqlMigrate: "gorp_migrations"
    case .userVersion: "PRAGMA user_version"
    }
  }

  /// Whether two tools keep the same table with the same meaning, so either name adopts it
  /// (FMDBMigrationManager and SQLiteMigrationManager: a set of integer versions).
  func reads(_ other: ForeignTool) -> Bool {
    self == other || Set([self, other]) == [.fmdb, .sqliteMigrationManager]
  }
}

/// What another tool's history says was applied, as read from the database.
package struct ForeignHistory: Hashable, Sendable, Codable {
  /// The tool whose table this is.
  package let tool: ForeignTool
  /// The table read (or `PRAGMA user_version`).
  package let table: String
  /// The versions the tool records one by one as applied, ascending.
  package let versions: [MigrationVersion]
  /// For tools that record only their newest version (golang-migrate, `user_version`, a Flyway
  /// baseline): every version up to this one was applied.
  package let through: MigrationVersion?
  /// A migration the tool records as failed half-way (golang-migrate's `dirty`, sqlx's or
  /// Flyway's `success` false), as the tool spells it.
  package let failed: String?
  /// Recorded entries that are not a version strata can match with a file (a GRDB identifier
  /// such as `createAuthors`, a Flyway version such as `1.1`), as the tool spells them.
  package let unmappable: [String]

  /// Whether the tool records anything as applied.
  package var isEmpty: Bool {
    versions.isEmpty && through == nil && failed == nil && unmappable.isEmpty
  }

  /// What the history records, in words: "versions 1, 2 and 5", "every version up to 3".
  package var recordedDescription: String {
    var parts: [String] = []
    if let through { parts.append("every version up to \(through)") }
    if !versions.isEmpty {
      parts.append(
        (versions.count == 1 ? "version " : "versions ")
          + versions.map(\.text).joined(
            separator: ", "
          )
      )
    }
    if !unmappable.isEmpty {
      parts.append("entries that are not numbers (\(unmappable.joined(separator: ", ")))")
    }
    if let failed { parts.append("\(failed) failed half-way") }
    return parts.isEmpty ? "nothing applied" : parts.joined(separator: "; ")
  }

  /// The versions of `set` this history covers: those it records, and every one up to
  /// ``through``.
  func covered(in set: MigrationSet) -> Set<MigrationVersion> {
    let ordering = set.versionOrdering
    var covered = Set(versions.map { $0.read(as: ordering) })
    if let through = through?.read(as: ordering) {
      for migration in set.migrations where migration.version <= through {
        covered.insert(migration.version)
      }
    }
    return covered
  }

  /// The recorded versions that no file of `set` has.
  func missing(in set: MigrationSet) -> [MigrationVersion] {
    let known = Set(set.migrations.map(\.version))
    let ordering = set.versionOrdering
    return (versions + (through.map { [$0] } ?? [])).filter {
      !known.contains($0.read(as: ordering))
    }
  }
}
