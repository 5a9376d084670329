import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing the schema file: where it really is (links followed, never out of the
/// project), what is there, and the atomic write.
extension SchemaFile {
  /// Writes `contents` (a schema file's text, `contents(of:)`) unless the file already holds
  /// it: into a temporary file beside the file, synced, renamed over it, the folder synced. A
  /// replaced file keeps its permissions; a new one follows the umask. Only an empty file or
  /// one strata wrote (its schema file or its `inspect --format sql` dump) is replaced.
  ///
  /// - Throws: `SchemaFileError.notWritten`; what was at the path is then untouched.
  @discardableResult
  public func write(_ contents: String) throws -> WriteOutcome {
    do {
      return try writeFile(contents)
    } catch let failure as Failure {
      throw SchemaFileError.notWritten(path: displayPath, problem: failure.problem)
    }
  }

  /// The file's text, or nil when there is none.
  ///
  /// - Throws: `SchemaFileError.notRead`.
  func read() throws -> String? {
    do {
      return try existingText(at: try realPath())
    } catch let failure as Failure {
      // No folder, so no file: it is missing, not unreadable.
      if case .folderMissing = failure.problem { return nil }
      throw SchemaFileError.notRead(path: displayPath, problem: failure.problem)
    }
  }

  private func writeFile(_ contents: String) throws -> WriteOutcome {
    let path = try realPath()
    // A new file follows the umask; a replaced one keeps its bits, never wider.
    var kept: mode_t?
    if let existing = try existingText(at: path) {
      if Self.firstDifference(existing, contents) == nil { return .unchanged }
      guard existing.isEmpty || Self.ownBeginnings.contains(where: existing.hasPrefix) else {
        throw Failure(.notWrittenByStrata)
      }
      var info = stat()
      if stat(path, &info) == 0 { kept = info.st_mode & 0o777 }
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let shownFolder = shown(folder.path, real: path)
    guard isDirectory(atPath: folder.path) else {
      throw Failure(.folderMissing(folder: shownFolder))
    }
    guard isWritable(folder.path) else {
      throw Failure(.folderNotWritable(folder: shownFolder))
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    let prefix = ".\(name).strata-"
    removeStaleFiles(
      in: folder,
      prefix: prefix,
      suffixes: [".tmp"],
      olderThan: NewDatabaseFile.staleAfter
    )
    let temporary = folder.appendingPathComponent("\(prefix)\(UUID().uuidString).tmp").path
    try writeNew(temporary, Data(contents.utf8), keeping: kept, folder: shownFolder)
    guard rename(temporary, path) == 0 else {
      let failure = Self.failure(errno, folder: shownFolder)
      unlink(temporary)
      throw failure
    }
    // The new name is on disk only once the folder is synced, as every file strata writes.
    try? Durability.syncDirectory(folder)
    return .written
  }

  /// Creates `path` (it must not exist) holding `data`, synced to disk, with the permission
  /// bits `kept` (the file it replaces), else 0666 less the umask.
  private func writeNew(_ path: String, _ data: Data, keeping kept: mode_t?, folder: String) throws
  {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kept ?? 0o666)
    guard descriptor >= 0 else { throw Self.failure(errno, folder: folder) }
    var failure: Failure?
    if let kept, fchmod(descriptor, kept) != 0 { failure = Self.failure(errno, folder: folder) }
    if failure == nil, let code = writeAll(descriptor, data) {
      failure = Self.failure(code, folder: folder)
    }
    if failure == nil, Durability.flushToStorage(descriptor) != 0 {
      failure = Self.failure(errno, folder: folder)
    }
    close(descriptor)
    if let failure {
      unlink(path)
      throw failure
    }
  }

  /// The path with every symbolic link followed (of the file, or of its folder when there is no
  /// file yet). A path named inside the project must stay inside it once links are followed.
  ///
  /// - Throws: `Failure` when the path cannot be followed or leads out of the project.
  private func realPath() throws -> String {
    let path = url.path
    var info = stat()
    let real: String
    if lstat(path, &info) == 0 {
      if case .unreachable(let reason) = pathStatus(atPath: path) {
        throw Failure(.unreachable(reason: reason))
      }
      real = Strata.realPath(path) ?? path
    } else {
      let folder = url.deletingLastPathComponent().path
      switch pathStatus(atPath: folder) {
      case .directory:
        real = (Strata.realPath(folder) ?? folder) + "/" + url.lastPathComponent
      case .missing:
        throw Failure(.folderMissing(folder: shown(folder, real: path)))
      case .regular, .special:
        throw Failure(.unreachable(reason: "\(shown(folder, real: path)) is not a folder"))
      case .unreachable(let reason):
        throw Failure(.unreachable(reason: reason))
      }
    }
    let project = projectFolder.path
    guard path.hasPrefix(project.hasSuffix("/") ? project : project + "/") else { return real }
    let realProject = Strata.realPath(project) ?? project
    guard real.hasPrefix(realProject.hasSuffix("/") ? realProject : realProject + "/") else {
      throw Failure(.linkOutOfProject(target: real, project: project))
    }
    return real
  }

  /// The text of the file at `path` (links already followed), nil when there is none.
  private func existingText(at path: String) throws -> String? {
    switch pathStatus(atPath: path) {
    case .missing: return nil
    case .directory: throw Failure(.directory)
    case .special(let kind): throw Failure(.notRegularFile(kind: kind))
    case .unreachable(let reason): throw Failure(.unreachable(reason: reason))
    case .regular: break
    }
    if let problem = unreadableFileProblem(atPath: path) {
      throw Failure(.system(reason: problem))
    }
    do {
      return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    } catch {
      throw Failure(
        .system(
          reason: "it cannot be read: \(error.localizedDescription)",
          underlying: UnderlyingError(error)
        )
      )
    }
  }

  /// `folder` as messages show it: the display path's own folder when no link moved the file
  /// (`real` is where it was named), else the real folder.
  private func shown(_ folder: String, real: String) -> String {
    guard real == url.path else { return folder }
    let named = (displayPath as NSString).deletingLastPathComponent
    return named.isEmpty ? "." : named
  }

  /// A failed system call in words: a folder that refuses new files is said as such.
  private static func failure(_ code: Int32, folder: String) -> Failure {
    switch code {
    case EACCES, EPERM, EROFS: return Failure(.folderNotWritable(folder: folder))
    default:
      return Failure(
        .system(
          reason: String(cString: strerror(code)),
          underlying: UnderlyingError(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
        )
      )
    }
  }

  /// A problem on its way to the `SchemaFileError` that names the operation.
  struct Failure: Error {
    let problem: SchemaFileProblem
    init(_ problem: SchemaFileProblem) { self.problem = problem }
  }
}

/// Writes all of `data` to `descriptor`; the `errno` of the failure, or nil.
private func writeAll(_ descriptor: Int32, _ data: Data) -> Int32? {
  data.withUnsafeBytes { bytes -> Int32? in
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, base + offset, bytes.count - offset)
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return written < 0 ? errno : EIO }
      offset += written
    }
    return nil
  }
}
