import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a template database from migrations: apply them to a fresh scratch database, then
/// `VACUUM INTO` the destination, carrying the `strata_migrations` rows.
public enum TemplateBuilder {
  /// What `build` wrote.
  public struct Report: Hashable, Sendable, Codable {
    /// The template file written.
    public let path: String
    /// The version the template is at: its newest migration.
    public let version: Int64
    /// How many migrations the template has applied.
    public let migrations: Int
    /// The template's size in bytes.
    public let bytes: Int
  }

  /// The `applied_at` recorded in a template, so the same migrations give the same bytes;
  /// `init` stamps the real time on its copy.
  static let templateTimestamp = "1970-01-01T00:00:00.000Z"

  /// Writes the template to `destination`, which must not exist; with `replacing`, an older
  /// template (or an empty file) there is replaced atomically. Anything else at `destination`
  /// (a database with rows, a text file) is never replaced: `OutputFileError`.
  ///
  /// - Throws: `OutputFileError` when something at `destination` may not be replaced,
  ///   `MigrationError` when a migration fails, `SetupError.templateNotWritten` or
  ///   `DatabaseOpenError` when the file cannot be written.
  @discardableResult
  public static func build(
    _ migrations: MigrationSet,
    to destination: URL,
    replacing: Bool = false
  ) throws -> Report {
    _ = try OutputFile.checkWritable(destination, replacing: replacing, isOwnOutput: isTemplate)
    let folder = destination.deletingLastPathComponent()
    guard isDirectory(atPath: folder.path) else {
      throw DatabaseOpenError.folderMissing(path: destination.path, folder: folder.path)
    }
    let prefix = ".\(destination.lastPathComponent).strata-"
    removeStaleFiles(
      in: folder,
      prefix: prefix,
      suffixes: [".build", ".build-journal", ".build-wal", ".build-shm", ".tmp"],
      olderThan: TemplateInstaller.staleAfter
    )
    let stem = folder.appendingPathComponent("\(prefix)\(UUID().uuidString)").path
    let scratch = stem + ".build"
    let output = stem + ".tmp"
    defer {
      for suffix in ["", "-journal", "-wal", "-shm"] { unlink(scratch + suffix) }
      for suffix in ["", "-wal", "-shm"] { unlink(output + suffix) }
    }
    let report: MigrationReport
    do {
      // Built in a file, not in memory, so that migrations setting file-level state
      // (`PRAGMA journal_mode = WAL`) leave it as they do in an app's database. The scratch
      // file is thrown away, so it need not be synced.
      let connection = try Connection(path: scratch, mode: .readWriteCreate)
      try connection.execute("PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON")
      report = try Migrator(migrations).migrate(connection)
      if try History.exists(connection) {
        try connection.run(
          "UPDATE strata_migrations SET applied_at = ?, duration_ms = 0",
          [.text(templateTimestamp)]
        )
      }
      let journalMode = try connection.scalar("PRAGMA journal_mode")?.textValue
      try connection.execute("VACUUM INTO \(quoteLiteral(output))")
      // VACUUM INTO always writes a rollback-journal database.
      if journalMode == "wal" {
        try Connection(path: output, mode: .readWrite).execute("PRAGMA journal_mode = WAL")
      }
    } catch let error as SQLiteError {
      throw DatabaseOpenError.sqlite(path: destination.path, error)
    }
    do {
      try Durability.syncFile(at: output)
    } catch let error as FileSyncError {
      throw SetupError.templateNotWritten(path: destination.path, reason: error.reason)
    }
    // Checked again just before the name is taken: the build may have taken a while.
    let exists = try OutputFile.checkWritable(
      destination,
      replacing: replacing,
      isOwnOutput: isTemplate
    )
    OutputFile.removeEmptyJournals(beside: destination)
    // A new name is taken with link(2), which fails rather than replace a file that appeared
    // meanwhile; only a file checked above is replaced, with rename(2).
    let moved = exists ? rename(output, destination.path) : link(output, destination.path)
    guard moved == 0 else {
      if errno == EEXIST { throw OutputFileError.exists(path: destination.path) }
      throw SetupError.templateNotWritten(
        path: destination.path,
        reason: String(cString: strerror(errno))
      )
    }
    // The new name is on disk only once the folder is synced, as the installer does.
    try? Durability.syncDirectory(folder)
    let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size]) as? Int
    return Report(
      path: destination.path,
      version: report.toVersion,
      migrations: report.steps.count,
      bytes: size ?? 0
    )
  }

  /// Whether the database at `path` is a template strata built: every history row carries the
  /// fixed template timestamp, no seed was recorded, and without history rows it holds no
  /// table of its own. Read without locks or `-shm` (the caller refused a `-wal` with changes).
  static func isTemplate(_ path: String) -> Bool {
    guard let connection = try? Connection(path: path, mode: .immutable),
      (try? History.exists(connection)) == true,
      let rows = try? connection.scalar("SELECT count(*) FROM strata_migrations")?.integerValue,
      let foreign = try? connection.scalar(
        "SELECT count(*) FROM strata_migrations WHERE applied_at IS NOT ?",
        [.text(templateTimestamp)]
      )?.integerValue,
      foreign == 0,
      let others = try? connection.scalar(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name <> 'strata_migrations'"
          + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
      )?.integerValue
    else { return false }
    if (try? connection.scalar("SELECT 1 FROM sqlite_master WHERE name = 'strata_seeds'")) != nil {
      return false
    }
    return rows > 0 || others == 0
  }
}
