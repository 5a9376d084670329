import Foundation
import StrataCLI

/// `--databases`' promises, checked on any folder of databases and the files beside them, and
/// any patterns and `@FILE` list (the CLI's own resolution, `DatabaseList.resolve`, in process):
/// - no file that belongs to another database is ever chosen as a database: SQLite's
///   `-journal`, `-wal` and `-shm`, strata's backups, damaged copies and work files, nor a
///   link to one (the check names them by the formats written here, not by strata's code);
/// - a file a pattern matched is either chosen or left out, never both, and each is chosen once;
/// - resolving changes nothing in the folder, and gives the same answer twice.
///
/// The input is lines. `d NAME` makes a file (a database, as far as the check knows);
/// `j`, `w`, `s`, `b`, `x`, `t`, `l` `NAME` make NAME's journal, WAL, shared memory, backup,
/// damaged copy, work file and build lock; `k NAME>N` a symbolic link NAME to the Nth entry
/// made; `f NAME` a folder; `> PATTERN` is one `--databases` argument, `= PATH` a line of a list
/// file (given as `@list.txt` where its first line comes). Names and patterns are relative to
/// the folder, and `..` never leaves it.
enum FleetListProperties {
  static let maximumEntries = 40
  static let maximumArguments = 8

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    guard let folder = try? Folder(input) else { return }
    defer { folder.remove() }
    let before = folder.listing()
    let first = resolve(folder)
    try require(folder.listing() == before, "resolving changed the folder")
    let second = resolve(folder)
    try require(first == second, "resolving twice gave \(first), then \(second)")
    guard case .success(let resolution) = first else { return }
    let sidecars = folder.sidecarIdentities()
    var chosen = Set<String>()
    for database in resolution.databases {
      let path = database.path
      try require(
        !folder.sidecarPaths.contains(path),
        "\(path), a file that belongs to another database, was chosen as a database"
      )
      if let identity = Folder.identity(path) {
        try require(
          !sidecars.contains(identity),
          "\(path) leads to a file that belongs to another database, and was chosen"
        )
        try require(chosen.insert(identity).inserted, "\(path) was chosen twice")
      }
    }
    let chosenPaths = Set(resolution.databases.map(\.path))
    for left in resolution.leftOut {
      try require(!chosenPaths.contains(left.path), "\(left.path) was chosen and left out")
      try require(!left.reason.isEmpty, "\(left.path) was left out without a reason")
    }
  }

  /// The resolution, or the error's message.
  static func resolve(_ folder: Folder) -> Result<Resolved, Failure> {
    do {
      let resolution = try DatabaseList.resolve(folder.arguments, currentDirectory: folder.root)
      return .success(Resolved(databases: resolution.databases, leftOut: resolution.leftOut))
    } catch {
      return .failure(Failure(message: error.message))
    }
  }

  struct Resolved: Equatable {
    let databases: [URL]
    let leftOut: [DatabaseList.LeftOut]
  }

  struct Failure: Error, Equatable {
    let message: String
  }
}

extension FleetListProperties {
  /// The folder an input describes, made in a temporary folder of its own.
  struct Folder {
    let root: String
    var arguments: [String] = []
    /// The files made as another database's, and the links to them, as the folder's path and
    /// the names given make them (so as a pattern or a list line reaches them).
    var sidecarPaths = Set<String>()
    private var entries: [String] = []

    /// `backup`'s and `damaged`'s time stamp, as strata writes them.
    static let stamp = "20261201T053012.345Z"

    init(_ input: [UInt8]) throws {
      root =
        FileManager.default.temporaryDirectory
        .appendingPathComponent("strata-fuzz-fleet-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
      var list: [String] = []
      for range in physicalLines(input) {
        let line = String(decoding: input[range], as: UTF8.self)
        guard let kind = line.first else { continue }
        let text = Self.clean(String(line.dropFirst()))
        switch kind {
        case ">":
          if arguments.count < maximumArguments, !text.isEmpty { arguments.append(text) }
        case "=":
          if list.isEmpty, arguments.count < maximumArguments { arguments.append("@list.txt") }
          if !text.isEmpty { list.append(text) }
        default:
          if entries.count < maximumEntries { make(kind, text) }
        }
      }
      if !list.isEmpty {
        _ = FileManager.default.createFile(
          atPath: root + "/list.txt",
          contents: Data(list.joined(separator: "\n").utf8)
        )
      }
    }

    /// A relative path inside the folder: no leading `/`, no `..`, no empty part, no NUL.
    static func clean(_ text: String) -> String {
      text.trimmingCharacters(in: .whitespaces).split(separator: "/")
        .filter { $0 != ".." && $0 != "." && !$0.utf8.contains(0) && !$0.utf8.contains(0x5C) }
        .prefix(4).map { String($0.prefix(60)) }.joined(separator: "/")
    }

    private mutating func make(_ kind: Character, _ text: String) {
      if kind == "k" {
        let parts = text.split(separator: ">", maxSplits: 1).map(String.init)
        guard parts.count == 2, let index = Int(parts[1]), entries.indices.contains(index),
          !parts[0].isEmpty
        else { return }
        let path = root + "/" + Self.clean(parts[0])
        let target = entries[index]
        guard makeParent(path),
          (try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target))
            != nil
        else { return }
        entries.append(path)
        if sidecarPaths.contains(target) { sidecarPaths.insert(path) }
        return
      }
      // Not NSString's path calls: Foundation on Linux traps on `deletingLastPathComponent` of
      // a name without a slash.
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      let name = parts.last.map(String.init) ?? ""
      let folder = parts.dropLast().joined(separator: "/")
      let sidecar: String? =
        switch kind {
        case "j": name + "-journal"
        case "w": name + "-wal"
        case "s": name + "-shm"
        case "b": name + ".backup-\(Self.stamp)-v\(entries.count + 1).backup"
        case "x": name + ".damaged-\(Self.stamp)"
        case "t": ".\(name).strata-0A1B2C3D-\(entries.count).tmp"
        case "l": ".\(name).strata-lock"
        default: nil
        }
      if let sidecar {
        // Only beside a name a database could have.
        guard !name.isEmpty else { return }
        let path = root + "/" + (folder.isEmpty ? "" : folder + "/") + sidecar
        guard makeParent(path), FileManager.default.createFile(atPath: path, contents: nil)
        else { return }
        entries.append(path)
        sidecarPaths.insert(path)
      } else if kind == "d" || kind == "f", !text.isEmpty {
        let path = root + "/" + text
        guard makeParent(path) else { return }
        let made =
          kind == "d"
          ? FileManager.default.createFile(atPath: path, contents: nil)
          : (try? FileManager.default.createDirectory(
            atPath: path,
            withIntermediateDirectories: true
          )) != nil
        if made { entries.append(path) }
      }
    }

    private func makeParent(_ path: String) -> Bool {
      let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      return
        (try? FileManager.default.createDirectory(
          atPath: parent,
          withIntermediateDirectories: true
        )) != nil
    }

    /// The device and inode of each file made as another database's (links followed).
    func sidecarIdentities() -> Set<String> {
      Set(sidecarPaths.compactMap(Self.identity))
    }

    static func identity(_ path: String) -> String? {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      return "\(info.st_dev):\(info.st_ino)"
    }

    /// Every path under the folder with its inode, type and size.
    func listing() -> [String] {
      let walker = FileManager.default.enumerator(atPath: root)
      var found: [String] = []
      while let relative = walker?.nextObject() as? String {
        var info = stat()
        guard lstat(root + "/" + relative, &info) == 0 else { continue }
        found.append("\(relative) \(info.st_ino) \(info.st_mode) \(info.st_size)")
      }
      return found.sorted()
    }

    func remove() {
      try? FileManager.default.removeItem(atPath: root)
    }
  }
}
