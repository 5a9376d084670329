extension Schema {
  /// Facts about the file, from its PRAGMAs.
  public struct Database: Codable, Equatable, Sendable {
    /// The SQLite library reading the file, such as "3.40.1".
    public var sqliteVersion: String
    /// `PRAGMA page_size`, in bytes.
    public var pageSize: Int64
    /// `PRAGMA page_count`.
    public var pageCount: Int64
    /// `PRAGMA freelist_count`: unused pages that `VACUUM` would give back.
    public var freelistCount: Int64
    /// "UTF-8", "UTF-16le" or "UTF-16be".
    public var encoding: String
    /// "delete", "wal", "memory", …
    public var journalMode: String
    /// "none", "full" or "incremental".
    public var autoVacuum: String
    /// `PRAGMA user_version`, which apps and other tools use as a schema version.
    public var userVersion: Int64
    /// `PRAGMA application_id`, which marks the file's format for other tools.
    public var applicationID: Int64

    /// Page size × page count.
    public var sizeBytes: Int64 { pageSize * pageCount }
  }

  /// Where strata's migration history says the database is.
  public struct MigrationState: Codable, Equatable, Sendable {
    /// The newest applied version (0 when none).
    public var currentVersion: MigrationVersion
    /// Rows in `strata_migrations`.
    public var appliedCount: Int
    /// Migrations in the folder not applied yet (pending or out of order); nil without a folder.
    @ExplicitNull public var pendingCount: Int?
    /// The migrations folder compared against, as the user named it.
    @ExplicitNull public var migrationsDirectory: String?

    /// Makes a migration state from its parts.
    public init(
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
