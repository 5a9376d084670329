import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a template database into place the crash-safe way: copy it to a temporary file in
/// the destination's folder, flush it to disk, then link it to the final name, which fails if
/// the name exists (callers `verify` the template first). A crash at any moment leaves either no database or a
/// complete one, and an existing file is never overwritten.
enum TemplateInstaller {
  /// How old a temporary copy must be before an install removes it as a leftover of a crash.
  static let staleAfter: Double = 600

  /// Checks that `template` is a complete SQLite database: the header, then `quick_check`.
  static func verify(_ template: URL) throws {
    let path = template.path
    if let problem = regularFileProblem(atPath: path), pathStatus(atPath: path) != .missing {
      throw SetupError.templateInvalid(path: path, reason: problem)
    }
    switch databaseFileKind(at: path) {
    case .missing: throw SetupError.templateMissing(path: path)
    case .directory: throw SetupError.templateInvalid(path: path, reason: "it is a directory")
    case .empty: throw SetupError.templateInvalid(path: path, reason: "the file is empty")
    case .notSQLite:
      throw SetupError.templateInvalid(
        path: path,
        reason: "it does not start with the SQLite header"
      )
    case .sqlite: break
    }
    do {
      // Immutable: a template in a read-only bundle may be in WAL mode, which an ordinary
      // read-only open cannot read without creating its -shm; and what is checked is then the
      // file alone, exactly what is copied.
      let connection = try Connection(path: path, mode: .immutable)
      let result = try connection.rows("PRAGMA quick_check").compactMap { $0.first?.textValue }
      guard result == ["ok"] else {
        throw SetupError.templateInvalid(
          path: path,
          reason: "quick_check: \(result.prefix(3).joined(separator: "; "))"
        )
      }
    } catch let error as SQLiteError {
      throw SetupError.templateInvalid(path: path, reason: error.message)
    }
  }

  /// Temporary copies for `destination` are named `.<name>.strata-<UUID>.tmp`.
  private static func temporaryPrefix(_ destination: URL) -> String {
    ".\(destination.lastPathComponent).strata-"
  }

  /// Removes what an interrupted install left beside `destination` (a `kill -9` between copying
  /// and linking): the temporary copy, and the journal SQLite wrote beside it while its history
  /// was stamped. Only once they are old, so that an install in progress in another process is
  /// never touched. Runs on every setup, since once the database exists no install follows.
  static func removeLeftovers(of destination: URL) {
    removeStaleFiles(
      in: destination.deletingLastPathComponent(),
      prefix: temporaryPrefix(destination),
      suffixes: [".tmp", ".tmp-journal", ".tmp-wal", ".tmp-shm"],
      olderThan: staleAfter
    )
  }

  /// Installs `template` at `destination` unless a file is already there.
  ///
  /// - Parameter prepare: runs on the temporary copy before it is linked into place.
  /// - Returns: true when this call created the database; false when a file was already there
  ///   (or another process installed one first).
  static func install(
    _ template: URL,
    at destination: URL,
    prepare: (URL) throws -> Void = { _ in },
    beforeLink: () throws -> Void = {}
  ) throws -> Bool {
    removeLeftovers(of: destination)
    if databaseFileKind(at: destination.path) != .missing { return false }
    let folder = destination.deletingLastPathComponent()
    let prefix = temporaryPrefix(destination)
    let temporary = folder.appendingPathComponent("\(prefix)\(UUID().uuidString).tmp")
    defer { unlink(temporary.path) }
    do {
      try FileManager.default.copyItem(at: template, to: temporary)
      // The copy keeps the template's mode; a template in a bundle or a package is often
      // read-only, and the app's database must not be. It may keep the template's date too
      // (Apple's copy does): a fresh copy must not look stale to another process's sweep.
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o644, .modificationDate: Date()],
        ofItemAtPath: temporary.path
      )
      try prepare(temporary)
      let handle = try FileHandle(forWritingTo: temporary)
      try handle.synchronize()
      try handle.close()
      try beforeLink()
    } catch let error as StrataError {
      throw error
    } catch {
      throw SetupError.copyFailed(path: destination.path, reason: error.localizedDescription)
    }
    if link(temporary.path, destination.path) != 0 {
      let code = errno
      if code == EEXIST { return false }
      throw SetupError.copyFailed(path: destination.path, reason: String(cString: strerror(code)))
    }
    syncDirectory(folder)
    return true
  }

  /// Makes the new directory entry durable.
  private static func syncDirectory(_ folder: URL) {
    let descriptor = open(folder.path, O_RDONLY)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
