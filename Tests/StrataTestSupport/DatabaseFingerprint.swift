import Foundation
import Strata

/// What a user would call "the state of the database", read from the file: the schema SQL
/// from `sqlite_master`, every table's rows in order, and strata's history and seed ledger
/// without their timestamps and durations (which differ from run to run).
///
/// Two files with equal fingerprints hold the same schema and the same data.
public struct DatabaseFingerprint: Equatable, CustomStringConvertible, Sendable {
  /// A hash of the schema and of every row, comparable within one process.
  public let digest: String
  /// Applied migration versions, in order (empty without `strata_migrations`).
  public let versions: [Int64]
  /// Row count per table, for readable failure messages.
  public let rowCounts: [String: Int]

  public var description: String {
    let counts = rowCounts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return "versions \(versions), rows [\(counts.joined(separator: ", "))], \(digest.prefix(12))"
  }

  /// Reads `url` with a read-only connection. A missing file has the empty fingerprint.
  public static func of(_ url: URL) throws -> DatabaseFingerprint {
    guard FileManager.default.fileExists(atPath: url.path) else { return try empty }
    return try of(Connection(path: url.path, mode: .readOnly))
  }

  /// The fingerprint of a database with nothing in it (no file, or a zero-byte one).
  public static var empty: DatabaseFingerprint {
    get throws { try of(Connection.inMemory()) }
  }

  public static func of(_ connection: Connection) throws -> DatabaseFingerprint {
    // Hasher is seeded once per process: digests compare within one test run, never across.
    var hash = Hasher()
    let objects = try connection.rows(
      "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name"
    )
    for object in objects {
      hash.combine(object.map(\.description).joined(separator: "|"))
    }
    var counts: [String: Int] = [:]
    let tables = objects.filter { $0[0] == .text("table") }.compactMap { $0[1].textValue }
    for table in tables {
      let name = quoteIdentifier(table)
      let columns: [String]
      let order: String
      switch table {
      case "strata_migrations":
        columns = ["version", "name", "checksum"]
        order = "version"
      case "strata_seeds":
        columns = ["file", "checksum", "table_name", "mode", "rows_inserted", "rows_updated"]
        order = "rowid"
      default:
        columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)])
          .compactMap { $0[0].textValue }
        // A WITHOUT ROWID table has no rowid; its natural order is its primary key's.
        let hasRowID = (try? connection.prepare("SELECT rowid FROM \(name)")) != nil
        order = hasRowID ? "rowid" : "1"
      }
      // SQLite renders each row (quote() keeps types apart: 1, '1', X'01', NULL) and joins
      // them in order, so the comparison costs one string per table.
      let row = columns.map { "quote(\(quoteIdentifier($0)))" }.joined(separator: " || ',' || ")
      let dump = try connection.rows(
        "SELECT count(*), group_concat(r, char(10)) FROM "
          + "(SELECT \(row) AS r FROM \(name) ORDER BY \(order))"
      )
      hash.combine(table)
      hash.combine(dump.first?[1].textValue ?? "")
      counts[table] = Int(dump.first?[0].integerValue ?? 0)
    }
    hash.combine(try connection.scalar("PRAGMA user_version")?.description ?? "")
    let versions =
      tables.contains("strata_migrations")
      ? try connection.rows("SELECT version FROM strata_migrations ORDER BY version")
        .compactMap { $0[0].integerValue }
      : []
    return DatabaseFingerprint(
      digest: String(UInt64(bitPattern: Int64(hash.finalize())), radix: 16),
      versions: versions,
      rowCounts: counts
    )
  }
}
