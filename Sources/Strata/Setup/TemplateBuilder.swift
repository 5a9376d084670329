import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a template database from migrations: apply them to a fresh scratch database, then
/// `VACUUM INTO` the destination, carrying the `strata_migrations` rows.
package enum TemplateBuilder {
  /// What `build` wrote.
  package struct Report: Hashable, Sendable, Codable {
    /// The template file written.
    package let path: String
    /// The version the template is at: its newest migration.
    package let version: MigrationVersion
    /// How many migrations the template has applied.
    package let migrations: Int
    /// The template's size in bytes.
    package let bytes: Int
  }

  /// The `applied_at` recorded in a template, so the same migrations give the same bytes;
  /// `init` stamps the real time on its copy.
  static let templateTimestamp = "1970-01-01T00:00:00.000Z"

  /// Writes the template to `destination`, which must not exist; with `replacing`, an empty
  /// file there, or a file whose content is exactly what the migrations it records build (a
  /// template never changed since: see `TemplateVerification`), is replaced atomically. Anything
  /// else at `destination` (a database with rows, a copy of a template the app wrote into, a
  /// text file) is never replaced: `OutputFileError`.
  /// Every connection of the build gets `configuration` (the extensions and functions the
  /// migrations call).
  ///
  /// - Throws: `OutputFileError` when something at `destination` may not be replaced,
  ///   `MigrationError` when a migration fails, `SetupError.templateNotWritten` or
  ///   `DatabaseOpenError` when the file cannot be written, `ExtensionLoadError` (or the
  ///   configuration's own error) when `configuration` fails.
  @discardableResult
  package static func build(
    _ migrations: MigrationSet,
    to destination: URL,
    replacing: Bool = false,
    configuration: ConnectionConfiguration = .none
  ) throws -> Report {
    let existing = try OutputFile.checkWritable(destination, replacing: replacing) { path in
      try TemplateVerification.verify(path, against: migrations, configuration: configuration)
    }
    let folder = destination.deletingLastPathComponent()
    guard isDirectory(atPath: folder.path) else {
      throw DatabaseOpenError.folderMissing(path: destination.path, folder: folder.path)
    }
    let scratch = ScratchFiles(beside: destination)
    defer { scratch.remove() }
    let report = try writeTemplate(
      migrations,
      with: scratch,
      shownAs: destination.path,
      configuration: configuration
    )
    // Checked again just before the name is taken: the build may have taken a while.
    try OutputFile.checkUnchanged(destination, since: existing)
    // A replaced file keeps its permissions, never wider (SQLite created the new one from the
    // umask: 0644 under umask 022 would widen a 0600 template); a new file follows the umask.
    if let existing, chmod(scratch.output, existing.mode & 0o777) != 0 {
      throw SetupError.templateNotWritten(
        path: destination.path,
        reason: String(cString: strerror(errno))
      )
    }
    do {
      try Durability.syncFile(at: scratch.output)
    } catch let error as FileSyncError {
      throw SetupError.templateNotWritten(path: destination.path, reason: error.reason)
    }
    OutputFile.removeEmptyJournals(beside: destination)
    // A new name is taken with link(2), which fails rather than replace a file that appeared
    // meanwhile; only a file checked above is replaced, with rename(2).
    let moved =
      existing != nil
      ? rename(scratch.output, destination.path) : link(scratch.output, destination.path)
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

  /// The scratch files of one build, hidden beside the destination (same file system, so the
  /// result can be renamed into place); a build that was killed leaves them to be removed by a
  /// later one.
  struct ScratchFiles {
    /// Where the migrations are applied; thrown away.
    let build: String
    /// The template, written by `VACUUM INTO`.
    let output: String

    init(beside destination: URL) {
      let folder = destination.deletingLastPathComponent()
      let prefix = ".\(destination.lastPathComponent).strata-"
      removeStaleFiles(
        in: folder,
        prefix: prefix,
        suffixes: [".build", ".build-journal", ".build-wal", ".build-shm", ".tmp"],
        olderThan: NewDatabaseFile.staleAfter
      )
      let stem = folder.appendingPathComponent("\(prefix)\(UUID().uuidString)").path
      build = stem + ".build"
      output = stem + ".tmp"
    }

    func remove() {
      for suffix in ["", "-journal", "-wal", "-shm"] { unlink(build + suffix) }
      for suffix in ["", "-wal", "-shm"] { unlink(output + suffix) }
    }
  }

  /// Applies `migrations` to a fresh database at `scratch.build`, stamps the history with the
  /// template timestamp and writes the result to `scratch.output` with `VACUUM INTO`: the same
  /// migrations always give the same bytes.
  static func writeTemplate(
    _ migrations: MigrationSet,
    with scratch: ScratchFiles,
    shownAs path: String,
    configuration: ConnectionConfiguration
  ) throws -> MigrationReport {
    do {
      // Built in a file, not in memory, so that migrations setting file-level state
      // (`PRAGMA journal_mode = WAL`) leave it as they do in an app's database. The scratch
      // file is thrown away, so it need not be synced.
      let connection = try configuration.open(path: scratch.build, mode: .readWriteCreate)
      try connection.execute("PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON")
      let report = try Migrator(migrations).migrate(connection)
      if try History.exists(connection) {
        try connection.run(
          "UPDATE strata_migrations SET applied_at = ?, duration_ms = 0",
          [.text(templateTimestamp)]
        )
      }
      let journalMode = try connection.scalar("PRAGMA journal_mode")?.textValue
      try connection.execute("VACUUM INTO \(quoteLiteral(scratch.output))")
      // VACUUM INTO always writes a rollback-journal database.
      if journalMode == "wal" {
        try configuration.open(path: scratch.output, mode: .readWrite)
          .execute("PRAGMA journal_mode = WAL")
      }
      return report
    } catch let error as SQLiteError {
      throw DatabaseOpenError.sqlite(path: path, error)
    }
  }
}
