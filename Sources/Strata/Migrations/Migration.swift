/// One part of a migration (up or down): its SQL and where it stands in its file.
package struct MigrationScript: Hashable, Sendable, Codable {
  /// The SQL, BOM stripped and CRLF turned into LF.
  package let sql: String
  /// The file, as the user named it (`migrations/0001_create_person_info.sql`).
  package let file: String
  /// The line of the file on which `sql` starts, so errors point into the file.
  package let firstLine: Int
  /// False for `-- migrate:up transaction:false` (VACUUM, `PRAGMA journal_mode`).
  package let isTransactional: Bool

  /// True when the part has no SQL (only comments, or nothing): it runs as a no-op, as other
  /// migration tools run it. Rolling back such a down part keeps what the up part did.
  package var isNoOp: Bool { !containsSQL(sql) }
}

/// A versioned migration read from a file (dbmate markers) or a pair of files
/// (golang-migrate `.up.sql` / `.down.sql`).
package struct Migration: Hashable, Sendable, Codable {
  /// The leading digits of the file name: `1` for `0001_…`, or a UTC timestamp.
  package let version: MigrationVersion
  /// The rest of the file name: `create_person_info`.
  package let name: String
  /// The SQL that moves the database to this version.
  package let up: MigrationScript
  /// The SQL that reverts it; nil when the migration is irreversible.
  package let down: MigrationScript?
  /// SHA-256 hex of the up part (BOM stripped, CRLF → LF): applied migrations must not change.
  package let checksum: String

  /// The file name of the up part, as in messages: `0001_create_person_info.sql`.
  package var fileName: String {
    up.file.split(separator: "/").last.map(String.init) ?? up.file
  }
}
