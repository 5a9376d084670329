import Foundation

/// Whether `path` names an existing directory.
func isDirectory(atPath path: String) -> Bool {
  var isDirectory: ObjCBool = false
  return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    && isDirectory.boolValue
}

/// Removes leftovers of interrupted writes: files in `folder` named `prefix…suffix` and not
/// modified for `age` seconds (a write in progress is younger). A `kill -9` between copying and
/// linking a template, for instance, leaves a template-sized file behind.
func removeStaleFiles(in folder: URL, prefix: String, suffixes: [String], olderThan age: Double) {
  guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
    return
  }
  let now = Date()
  for name in names where name.hasPrefix(prefix) && suffixes.contains(where: name.hasSuffix) {
    let path = folder.appendingPathComponent(name).path
    guard let modified = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate],
      let date = modified as? Date, now.timeIntervalSince(date) > age
    else { continue }
    try? FileManager.default.removeItem(atPath: path)
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, found with `stat` alone: opening a named pipe blocks until a writer
/// comes, so nothing strata reads is opened before its type is known.
package enum PathStatus: Equatable, Sendable {
  /// A regular file (or a symbolic link to one).
  case regular
  /// A directory (or a link to one).
  case directory
  /// Nothing there, and no dangling symbolic link either.
  case missing
  /// Something that is not a file: `kind` says what ("a named pipe (FIFO)", …).
  case special(kind: String)
  /// The path cannot be followed: a symbolic link loop, a dangling link, a folder without
  /// search permission, a file where a folder should be. `reason` names the real problem.
  case unreachable(reason: String)
}

/// What is at `path`, without opening it.
package func pathStatus(atPath path: String) -> PathStatus {
  guard !path.isEmpty else { return .unreachable(reason: "the path is empty") }
  var info = stat()
  guard stat(path, &info) == 0 else { return statFailure(path: path, code: errno) }
  switch info.st_mode & S_IFMT {
  case S_IFREG: return .regular
  case S_IFDIR: return .directory
  case S_IFIFO: return .special(kind: "a named pipe (FIFO)")
  case S_IFCHR: return .special(kind: "a character device")
  case S_IFBLK: return .special(kind: "a block device")
  case S_IFSOCK: return .special(kind: "a socket")
  default: return .special(kind: "not a regular file")
  }
}

/// Why `stat` failed, in words that name the path's real problem.
private func statFailure(path: String, code: Int32) -> PathStatus {
  switch code {
  case ENOENT:
    var link = stat()
    if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
      return .unreachable(reason: "it is a symbolic link to \(target), which does not exist")
    }
    return .missing
  case ELOOP:
    return .unreachable(
      reason: "it is a symbolic link loop (a link that leads back to itself)"
    )
  case EACCES:
    let folder = firstAncestor(of: path) { access($0, X_OK) != 0 }
    return .unreachable(
      reason: "permission denied: "
        + (folder.map { "the folder \($0) cannot be searched (it lacks x permission)" }
          ?? "a folder on the path cannot be searched")
    )
  case ENOTDIR:
    let file = firstAncestor(of: path) { !isDirectory(atPath: $0) }
    return .unreachable(
      reason: (file.map { "\($0) is a file" } ?? "a part of the path is a file")
        + ", not a folder"
    )
  case ENAMETOOLONG:
    return .unreachable(reason: "the path is too long")
  default:
    return .unreachable(reason: String(cString: strerror(code)))
  }
}

/// The first existing folder above `path` (from the root down) for which `test` holds.
private func firstAncestor(of path: String, where test: (String) -> Bool) -> String? {
  let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
  var current = path.hasPrefix("/") ? "" : "."
  for part in parts {
    current += "/" + part
    var info = stat()
    guard stat(current, &info) == 0 else { return nil }
    if test(current) { return current }
  }
  return nil
}

/// Why `path` cannot be read as an ordinary file, or nil when it can: the one rule for the
/// database, templates, and the files of the migrations and seeds folders.
///
/// - Parameter allowsStreams: a seed file named on the command line may be standard input
///   (`/dev/stdin`) or a pipe, which is read once; nothing else may.
package func regularFileProblem(atPath path: String, allowsStreams: Bool = false) -> String? {
  switch pathStatus(atPath: path) {
  case .regular: return unreadableFileProblem(atPath: path)
  case .directory: return "it is a directory, not a file"
  case .missing: return "it does not exist"
  case .special(let kind):
    if allowsStreams, kind == "a named pipe (FIFO)" || kind == "a character device" {
      return nil
    }
    return "it is \(kind), not a regular file"
  case .unreachable(let reason): return reason
  }
}

/// Why the regular file at `path` cannot be read by this process, or nil when it can: asked of
/// the kernel with `faccessat` (effective IDs), which opens nothing, so no lock this process
/// holds on a database is dropped (closing any descriptor of a file would drop them all).
package func unreadableFileProblem(atPath path: String) -> String? {
  guard faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) != 0 else { return nil }
  let code = errno
  return code == EACCES
    ? "it cannot be read: permission denied (its permissions do not let this user read it)"
    : "it cannot be read: \(String(cString: strerror(code)))"
}

/// What `checkFolder` found at a folder strata lists (migrations, seeds).
package enum FolderCheck: Equatable, Sendable {
  /// A folder this process can list.
  case listable
  /// Nothing there.
  case missing
  /// Something else, or a folder that cannot be listed: `reason` names the real problem.
  case unusable(reason: String)
}

/// Whether `path` is a folder this process can list, and if not, why: a file or a device
/// where a folder should be, a path that cannot be followed, or a folder without read (or
/// search) permission. Opens only the folder, never a file in it.
package func checkFolder(atPath path: String) -> FolderCheck {
  switch pathStatus(atPath: path) {
  case .missing: return .missing
  case .regular: return .unusable(reason: "it is a file, not a folder")
  case .special(let kind): return .unusable(reason: "it is \(kind), not a folder")
  case .unreachable(let reason): return .unusable(reason: reason)
  case .directory:
    guard let folder = opendir(path) else {
      let code = errno
      return .unusable(
        reason: code == EACCES
          ? "the folder cannot be listed: permission denied (this user needs read and search "
            + "permission on it, r and x)"
          : "the folder cannot be listed: \(String(cString: strerror(code)))"
      )
    }
    closedir(folder)
    return .listable
  }
}

/// Why the entry `name` of `folder` may not be read as one of its files, or nil: it must be a
/// regular file, and unless `followSymlinks`, a symbolic link must lead to a file inside the
/// folder (a link to `../.env` would print a secret in an error or a dry run).
package func folderFileProblem(
  folder: String,
  name: String,
  followSymlinks: Bool
) -> String? {
  let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
  if let problem = regularFileProblem(atPath: path) { return problem }
  guard !followSymlinks else { return nil }
  var link = stat()
  guard lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK else { return nil }
  guard let realFolder = realPath(folder), let realFile = realPath(path),
    realFile.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/")
  else {
    let target = realPath(path) ?? "?"
    return "it is a symbolic link to \(target), outside the folder; \(linkOutsideFolder)"
  }
  return nil
}

/// The end of the reason `folderFileProblem` gives for a link out of its folder: the errors
/// that carry it offer to follow links (`Remedy.followSymlinks`).
let linkOutsideFolder = "strata does not follow links out of its folders unless told to"

/// `path` with every symbolic link resolved, or nil.
func realPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// Whether two paths name the same file (following symbolic links): the same device and
/// inode, so that a hard link, a symbolic link or another spelling of the path is seen too.
func isSameFile(_ first: String, _ second: String) -> Bool {
  var one = stat()
  var other = stat()
  guard stat(first, &one) == 0, stat(second, &other) == 0 else { return false }
  return one.st_dev == other.st_dev && one.st_ino == other.st_ino
}

/// `url` with its symbolic links resolved, when it exists.
func resolvingSymlinks(_ url: URL) -> URL {
  realPath(url.path).map { URL(fileURLWithPath: $0) } ?? url
}
