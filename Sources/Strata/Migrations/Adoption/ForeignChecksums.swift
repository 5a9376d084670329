import Foundation

/// The checksums Flyway and sqlx record for each script they applied, and the same checksum of a
/// file here, so that adopting their history can tell whether a file is still the one they ran
/// (the other tools record none).
///
/// - Flyway (`ChecksumCalculator` in flyway-core): the file is read line by line with Java's
///   `readLine`, which ends a line at LF, CR or CRLF and keeps no ending; a byte order mark is
///   removed from the first line; each line's UTF-8 bytes go into one CRC-32, with nothing
///   between them. So the line endings do not count, and the CRC is taken over the file's bytes
///   without its leading BOM and without any CR or LF byte (no other UTF-8 byte is 0x0A or
///   0x0D). Flyway stores it as a Java `int` (signed 32 bits). Placeholders would count as
///   replaced in a repeatable script, but strata refuses a file that has one.
/// - sqlx (`sqlx-core/src/migrate/source.rs`, `migration.rs`): SHA-384 of the file's text exactly
///   as read (`read_to_string`: BOM and CR kept), the `.up.sql` file of a pair; stored as 48
///   bytes. (A project's `sqlx.toml` can list `ignored-chars` to leave out of the hash; strata
///   does not read it, so such a project's files are all reported as edited.)
enum ForeignChecksum: Hashable, Sendable {
  case flyway(Int32)
  case sqlx([UInt8])

  /// The checksum `tool` computes for a file of these bytes; nil for a tool that records none.
  init?(_ tool: ForeignTool, bytes: [UInt8]) {
    switch tool {
    case .flyway:
      let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      let lines = bytes[start...].lazy.filter { $0 != 0x0A && $0 != 0x0D }
      self = .flyway(Int32(bitPattern: CRC32.checksum(lines)))
    case .sqlx:
      self = .sqlx(SHA384.digest(bytes))
    default:
      return nil
    }
  }

  /// As the tool shows it: Flyway's signed number, sqlx's bytes in hex.
  var text: String {
    switch self {
    case .flyway(let value): String(value)
    case .sqlx(let bytes): SHA384.hexDigits(bytes)
    }
  }
}

/// What one tool's history records as the checksum of each applied script.
struct RecordedChecksums {
  /// Per version applied (as the tool records it), the checksum of its newest successful run;
  /// nil when Flyway recorded that run of an SQL script without one, which its validate calls a
  /// mismatch with any file. A version not compared is absent: one whose newest row is a
  /// baseline, an undo, a deletion, a failure or a kind of migration Flyway records no checksum
  /// for (Java), and every version at or below a Flyway baseline (as Flyway's validate).
  var versions: [MigrationVersion: ForeignChecksum?] = [:]
  /// Flyway's baseline version, when its history has one: versions at or below it are not
  /// compared.
  var baseline: MigrationVersion?
  /// Flyway's repeatable scripts, by the description Flyway records (`refresh views` for
  /// `R__refresh_views.sql`): the checksum of the newest run, when it succeeded.
  var repeatables: [String: ForeignChecksum] = [:]
  /// Flyway's repeatable scripts whose newest row records a failed run (its validate fails
  /// with "Detected failed repeatable migration"), by description.
  var failedRepeatables: [String] = []
  /// Flyway's repeatable scripts applied and not marked deleted since, by description: each
  /// needs its file (its validate fails with "Detected applied migration not resolved
  /// locally" otherwise).
  var appliedRepeatables: [String] = []

  /// Reads them from `tool`'s table; empty for a tool that records no checksum.
  static func read(_ connection: any SQLDatabase, tool: ForeignTool) throws -> RecordedChecksums {
    switch tool {
    case .flyway: try readFlyway(connection)
    case .sqlx: try readSQLx(connection)
    default: RecordedChecksums()
    }
  }

  /// sqlx: one row per version; only a successful one is adopted.
  private static func readSQLx(_ connection: any SQLDatabase) throws -> RecordedChecksums {
    var recorded = RecordedChecksums()
    let statement = try connection.prepare(
      "SELECT version, checksum FROM _sqlx_migrations WHERE success ORDER BY version"
    )
    while try statement.step() {
      let bytes: [UInt8]
      switch statement.value(at: 1) {
      case .blob(let blob): bytes = blob
      case .text(let text): bytes = Array(text.utf8)
      default: continue
      }
      recorded.versions[MigrationVersion(integer: statement.int64(at: 0))] = .sqlx(bytes)
    }
    return recorded
  }

  /// The kinds of row Flyway writes for an SQL script, always with its checksum.
  private static let flywayScriptTypes: Set<String> = ["SQL", "SQL_BASELINE"]

  /// Flyway: rows in the order it installed them; the newest row of a version or description
  /// decides, as in `ForeignHistoryReader` (an undo, a deletion or a failure leaves no checksum
  /// to compare: the version is not adopted or is refused there).
  private static func readFlyway(_ connection: any SQLDatabase) throws -> RecordedChecksums {
    var recorded = RecordedChecksums()
    var failed: Set<String> = []
    var applied: Set<String> = []
    let statement = try connection.prepare(
      "SELECT version, description, type, checksum, success FROM flyway_schema_history "
        + "WHERE type <> 'SCHEMA' ORDER BY installed_rank"
    )
    while try statement.step() {
      let type = statement.string(at: 2) ?? ""
      let succeeded = statement.int64(at: 4) != 0
      let counts = succeeded && !type.hasPrefix("UNDO") && type != "DELETE"
      let checksum: ForeignChecksum? =
        counts && !statement.isNull(at: 3)
        ? .flyway(Int32(truncatingIfNeeded: statement.int64(at: 3))) : nil
      if let text = statement.string(at: 0) {
        guard let version = try? MigrationVersion(flyway: text) else { continue }
        if type == "BASELINE" {
          recorded.baseline = version
          recorded.versions[version] = nil
        } else if let checksum {
          recorded.versions[version] = .some(checksum)
        } else if counts, flywayScriptTypes.contains(type) {
          // Flyway's validate: a null applied checksum never equals the file's.
          recorded.versions[version] = .some(nil)
        } else {
          recorded.versions[version] = nil
        }
      } else {
        let description = statement.string(at: 1) ?? ""
        recorded.repeatables[description] = checksum
        if type == "DELETE" {
          failed.remove(description)
          applied.remove(description)
        } else if succeeded {
          failed.remove(description)
          applied.insert(description)
        } else {
          failed.insert(description)
        }
      }
    }
    recorded.failedRepeatables = failed.sorted()
    recorded.appliedRepeatables = applied.sorted()
    return recorded
  }
}

/// A file another tool would call edited: its checksum is not the one that tool recorded when it
/// applied it.
package struct EditedFile: Hashable, Sendable, Codable {
  /// The migration's version.
  package let version: MigrationVersion
  /// The file, as the user named it.
  package let file: String
  /// The checksum the other tool recorded, as it shows it (Flyway's number, sqlx's hex).
  package let recorded: String
  /// The same checksum of the file as it is now.
  package let current: String
}
