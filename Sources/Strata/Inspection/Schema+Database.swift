extension Schema {
  /// Facts about the file, from its PRAGMAs.
  package struct Database: Codable, Equatable, Sendable {
    /// The SQLite library reading the file, such as "3.40.1".
    package var sqliteVersion: String
    /// `PRAGMA page_size`, in bytes.
    package var pageSize: Int64
    /// `PRAGMA page_count`.
    package var pageCount: Int64
    /// `PRAGMA freelist_count`: unused pages that `VACUUM` would give back.
    package var freelistCount: Int64
    /// "UTF-8", "UTF-16le" or "UTF-16be".
    package var encoding: String
    /// "delete", "wal", "memory", …
    package var journalMode: String
    /// "none", "full" or "incremental".
    package var autoVacuum: String
    /// `PRAGMA user_version`, which apps and other tools use as a schema version.
    package var userVersion: Int64
    /// `PRAGMA application_id`, which marks the file's format for other tools.
    package var applicationID: Int64

    /// Page size × page count.
    package var sizeBytes: Int64 { pageSize * pageCount }
  }

  /// Where strata's migration history says the database is.
  package struct MigrationState: Codable, Equatable, Sendable {
    /// The newest applied version (0 when none).
    package var currentVersion: MigrationVersion
    /// Rows in `strata_migrations`.
    package var appliedCount: Int
    /// Migrations in the folder not applied yet (pending or out of order); nil without a folder.
    @ExplicitNull package var pendingCount: Int?
    /// The migrations folder compared against, as the user named it.
    @ExplicitNull package var migrationsDirectory: String?

    /// Makes a migration state from its parts.
    package init(
      currentVersion: MigrationVersion,
      appliedCount: Int,
      pendingCount: Int?,
      migrationsDirectory: String?
    ) {
      self.currentVersion = currentVersion
      self.appliedCount = appliedCount
      self.pendingCount = pendingCount
      self.migrationsDirectory = migrationsDirectory
    }
  }
}
