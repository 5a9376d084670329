import Foundation
import Strata
import StrataArguments
import StrataDqlite

/// The databases `--databases` names: globs expanded by strata (not the shell), or `@FILE`
/// lists, each file counted once however many patterns or links reach it.
///
/// Glob rules: `*` matches any run of characters and `?` one character, both within one path
/// segment; a `**` segment matches any number of folders (none included); a name starting with
/// a dot (a hidden file or folder) is matched only by a segment that starts with a dot itself;
/// `**` does not descend into hidden folders nor into links to folders. A relative pattern is
/// read from the current folder. Every entry whose name matches is a match, folders and
/// non-SQLite files included: the fleet reports them for that file.
///
/// `@FILE`: one path per line (relative paths from the current folder), blank lines and lines
/// starting with `#` skipped; a path that does not exist is created by `migrate`, as a single
/// run would.
///
/// A file that belongs to another database (`DatabaseSidecar`: a `-journal`, `-wal` or `-shm`,
/// a super-journal, strata's backups, damaged copies and work files; or a symbolic or hard
/// link to one) is never a database,
/// whether or not its database is there: a pattern's match is left out (and said so); a path
/// named outright, as an argument without `*` or `?` or as a line of a list, stops the run
/// before anything is opened.
package enum DatabaseList {
  /// A file a pattern matched that belongs to another database.
  package struct LeftOut: Equatable, Sendable {
    /// The absolute path matched.
    package let path: String
    /// What it is: `acme.db's rollback journal`, or a link to one.
    package let reason: String
  }

  /// The databases, in the order given, each once, and the matches left out.
  package struct Resolution: Sendable {
    package var databases: [URL] = []
    package var leftOut: [LeftOut] = []
  }

  /// The files `arguments` name, in the order given, duplicates removed, sidecars left out.
  ///
  /// - Throws: `DatabaseListError` when a glob matches nothing (or nothing but sidecars), a
  ///   list file cannot be read, or a sidecar is named outright.
  package static func resolve(
    _ arguments: [String],
    currentDirectory: String
  ) throws(DatabaseListError) -> Resolution {
    var seen = Set<String>()
    var seenLeftOut = Set<String>()
    var resolution = Resolution()
    func add(_ path: String) {
      if seen.insert(identity(path)).inserted {
        resolution.databases.append(URL(fileURLWithPath: path))
      }
    }
    for argument in arguments {
      if argument.hasPrefix("@") {
        let list = String(argument.dropFirst())
        for (line, text, path) in try listed(list, currentDirectory: currentDirectory) {
          if DqliteURL.names(text) { throw .cluster(address: text, list: list, line: line) }
          if let reason = sidecarReason(path) {
            throw .listedSidecar(list: list, line: line, path: text, reason: reason)
          }
          add(path)
        }
        continue
      }
      if DqliteURL.names(argument) { throw .cluster(address: argument, list: nil, line: nil) }
      let absolute = Self.absolute(argument, currentDirectory)
      let isPattern = argument.contains("*") || argument.contains("?")
      if !isPattern, let reason = sidecarReason(absolute) {
        throw .namedSidecar(path: argument, reason: reason)
      }
      let paths = glob(absolute)
      if paths.isEmpty { throw .noMatch(pattern: argument) }
      var kept: [String] = []
      var left: [LeftOut] = []
      for path in paths {
        if let reason = sidecarReason(path) {
          left.append(LeftOut(path: path, reason: reason))
        } else {
          kept.append(path)
        }
      }
      if kept.isEmpty {
        throw .onlySidecars(
          pattern: argument,
          files: left.map { (shown($0.path, currentDirectory), $0.reason) }
        )
      }
      // By path: a link to a journal is named as well as the journal.
      for item in left where seenLeftOut.insert(item.path).inserted {
        resolution.leftOut.append(item)
      }
      kept.forEach(add)
    }
    return resolution
  }

  /// What `path` is when it belongs to another database: by its own name, or, for a link (or
  /// a path through one), by the name of the file it leads to.
  static func sidecarReason(_ path: String) -> String? {
    if let sidecar = DatabaseSidecar(fileName: (path as NSString).lastPathComponent) {
      return sidecar.role
    }
    let real = linkTarget(path)
    if let real, let sidecar = DatabaseSidecar(fileName: (real as NSString).lastPathComponent) {
      return "a link to \(real), which is \(sidecar.role)"
    }
    return hardLinkedSidecar(real ?? path)
  }

  /// A file with more than one name, one of them a sidecar's in its own folder (`ln
  /// acme.db-wal tenant.db`): the same file as that sidecar, so SQLite would write the log
  /// into it. A name in a folder strata does not read cannot be seen.
  private static func hardLinkedSidecar(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink > 1 else {
      return nil
    }
    let folder = (path as NSString).deletingLastPathComponent
    for name in entries(folder) {
      // SQLite's files alone: strata links a new database to its name from a work file of its
      // own (`.NAME.strata-…`), which a crash can leave behind beside it.
      guard let sidecar = DatabaseSidecar(fileName: name), sidecar.isSQLiteFile else { continue }
      var other = stat()
      let twin = (folder as NSString).appendingPathComponent(name)
      if stat(twin, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino {
        return "the same file as \(twin) (a hard link), which is \(sidecar.role)"
      }
    }
    return nil
  }

  /// Where a path through links leads: the real path, or for a dangling link (which SQLite
  /// would create) the path it names, followed link by link. Nil when it cannot be told.
  private static func linkTarget(_ path: String) -> String? {
    // The caller has checked the name itself: a sidecar's name here means a link led to it.
    if let resolved = realpath(path, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    var current = path
    for _ in 0..<40 {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
      else { return current == path ? nil : current }
      current =
        target.hasPrefix("/")
        ? target
        : ((current as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(target)
    }
    return nil
  }

  /// `path` as the messages show it: relative to the current folder when under it.
  static func shown(_ path: String, _ currentDirectory: String) -> String {
    let base = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
  }

  private static func absolute(_ path: String, _ currentDirectory: String) -> String {
    path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
  }

  /// The same file reached twice (a link, `./a` and `a`) has one identity: its device and
  /// inode when it exists, else its standardized path.
  private static func identity(_ path: String) -> String {
    var info = stat()
    if stat(path, &info) == 0 { return "\(info.st_dev):\(info.st_ino)" }
    return (path as NSString).standardizingPath
  }

  /// A list's paths: each with its line number, its text and its absolute path.
  private static func listed(
    _ file: String,
    currentDirectory: String
  ) throws(DatabaseListError) -> [(line: Int, text: String, path: String)] {
    let path = absolute(file, currentDirectory)
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw .unreadableList(path: file)
    }
    // Every line counts, blank ones too, so that a line number is the editor's.
    return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      .enumerated()
      .map { ($0.offset + 1, $0.element.trimmingCharacters(in: .whitespaces)) }
      .filter { !$0.1.isEmpty && !$0.1.hasPrefix("#") }
      .map { ($0.0, $0.1, absolute($0.1, currentDirectory)) }
  }

  /// The paths matching an absolute pattern, sorted within each folder.
  static func glob(_ pattern: String) -> [String] {
    let segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    return match(segments[...], in: "/")
  }

  private static func match(_ segments: ArraySlice<String>, in folder: String) -> [String] {
    guard let segment = segments.first else { return [] }
    let rest = segments.dropFirst()
    let join = { (name: String) in folder == "/" ? "/" + name : folder + "/" + name }
    if segment == "**" {
      var found = match(rest, in: folder)
      for name in entries(folder) where !name.hasPrefix(".") && isRealFolder(join(name)) {
        found += match(segments, in: join(name))
      }
      return found
    }
    if !segment.contains("*"), !segment.contains("?") {
      let path = join(segment)
      if rest.isEmpty { return FileManager.default.fileExists(atPath: path) ? [path] : [] }
      return match(rest, in: path)
    }
    var found: [String] = []
    for name in entries(folder)
    where (segment.hasPrefix(".") || !name.hasPrefix("."))
      && MigrationFileExclusion.matches(segment, name)
    {
      found += rest.isEmpty ? [join(name)] : match(rest, in: join(name))
    }
    return found
  }

  private static func entries(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  /// A folder that is not a symbolic link: `**` never follows links (no cycles).
  private static func isRealFolder(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
