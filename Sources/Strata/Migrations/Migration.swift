/// One part of a migration (up or down): its SQL and where it stands in its file.
public struct MigrationScript: Hashable, Sendable, Codable {
  /// The SQL, BOM stripped and CRLF turned into LF.
  public let sql: String
  /// The file, as the user named it (`migrations/0001_create_person_info.sql`).
  public let file: String
  /// The line of the file on which `sql` starts, so errors point into the file.
  public let firstLine: Int
  /// False for `-- migrate:up transaction:false` (VACUUM, `PRAGMA journal_mode`).
  public let isTransactional: Bool
}

/// A versioned migration read from a file (dbmate markers) or a pair of files
/// (golang-migrate `.up.sql` / `.down.sql`).
public struct Migration: Hashable, Sendable, Codable {
  /// The leading digits of the file name: `1` for `0001_…`, or a UTC timestamp.
  public let version: MigrationVersion
  /// The rest of the file name: `create_person_info`.
  public let name: String
  /// The SQL that moves the database to this version.
  public let up: MigrationScript
  /// The SQL that reverts it; nil when the migration is irreversible.
  public let down: MigrationScript?
  /// SHA-256 hex of the up part (BOM stripped, CRLF → LF): applied migrations must not change.
  public let checksum: String

  /// The file name of the up part, as in messages: `0001_create_person_info.sql`.
  public var fileName: String {
    up.file.split(separator: "/").last.map(String.init) ?? up.file
  }
}
