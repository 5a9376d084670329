import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a template database from migrations: apply them to a fresh in-memory database, then
/// `VACUUM INTO` the destination, carrying the `strata_migrations` rows.
public enum TemplateBuilder {
  /// What `build` wrote.
  public struct Report: Hashable, Sendable, Codable {
    public let path: String
    public let version: Int64
    public let migrations: Int
    public let bytes: Int
  }

  /// The `applied_at` recorded in a template, so the same migrations give the same bytes;
  /// `init` stamps the real time on its copy.
  static let templateTimestamp = "1970-01-01T00:00:00.000Z"

  /// Writes the template to `destination`, replacing an older template there atomically.
  public static func build(_ migrations: MigrationSet, to destination: URL) throws -> Report {
    if databaseFileKind(at: destination.path) == .directory {
      throw DatabaseOpenError.isDirectory(path: destination.path)
    }
    let folder = destination.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw DatabaseOpenError.folderMissing(path: destination.path, folder: folder.path)
    }
    let connection = try Connection.inMemory()
    try connection.execute("PRAGMA foreign_keys = ON")
    let report = try Migrator(migrations).migrate(connection)
    try connection.execute(
      "UPDATE strata_migrations SET applied_at = \(quoteLiteral(templateTimestamp)), duration_ms = 0"
    )
    let temporary = folder.appendingPathComponent(
      ".\(destination.lastPathComponent).strata-\(UUID().uuidString).tmp"
    )
    defer { try? FileManager.default.removeItem(at: temporary) }
    do {
      try connection.execute("VACUUM INTO \(quoteLiteral(temporary.path))")
    } catch let error as SQLiteError {
      throw DatabaseOpenError.sqlite(path: destination.path, error)
    }
    guard rename(temporary.path, destination.path) == 0 else {
      throw MigrationError.unreadable(
        file: destination.path,
        reason: "could not move the template into place: \(String(cString: strerror(errno)))"
      )
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size]) as? Int
    return Report(
      path: destination.path,
      version: report.toVersion,
      migrations: report.steps.count,
      bytes: size ?? 0
    )
  }
}
