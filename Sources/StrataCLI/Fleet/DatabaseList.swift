import Foundation
import Strata
import StrataArguments

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
enum DatabaseList {
  /// The files `arguments` name, in the order given, duplicates removed.
  ///
  /// - Throws: `DatabaseListError` when a glob matches nothing or a list file cannot be read.
  static func expand(_ arguments: [String], currentDirectory: String) throws -> [URL] {
    var seen = Set<String>()
    var urls: [URL] = []
    for argument in arguments {
      let paths: [String]
      if argument.hasPrefix("@") {
        paths = try listed(String(argument.dropFirst()), currentDirectory: currentDirectory)
      } else {
        let absolute = Self.absolute(argument, currentDirectory)
        paths = glob(absolute)
        if paths.isEmpty { throw DatabaseListError.noMatch(pattern: argument) }
      }
      for path in paths where seen.insert(identity(path)).inserted {
        urls.append(URL(fileURLWithPath: path))
      }
    }
    return urls
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

  private static func listed(_ file: String, currentDirectory: String) throws -> [String] {
    let path = absolute(file, currentDirectory)
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw DatabaseListError.unreadableList(path: file)
    }
    return text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
      .map { absolute($0, currentDirectory) }
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
      && MigrationFileExclusion.matches(Array(segment), Array(name))
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

/// What is wrong with `--databases`: nothing is opened or changed.
enum DatabaseListError: StrataError {
  case noMatch(pattern: String)
  case unreadableList(path: String)

  var message: String {
    switch self {
    case .noMatch(let pattern):
      "no file matches --databases \(quotedArgument(pattern)); nothing was opened"
    case .unreadableList(let path):
      "cannot read the database list \(quotedArgument(path)); nothing was opened"
    }
  }

  var help: String {
    switch self {
    case .noMatch:
      "Quote the pattern so that strata expands it: * and ? match within a folder name, ** "
        + "any number of folders, and hidden names only a pattern part starting with a dot."
    case .unreadableList:
      "Give @FILE as a readable text file with one database path per line."
    }
  }
}
