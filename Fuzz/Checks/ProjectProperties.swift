import Foundation

/// The real `strata` binary's promises on a whole project made from the input: a migrations
/// folder and a seeds folder, with special names, symbolic links and FIFOs, run through
/// `validate`, `migrate`, `seed` and `validate` again in a temporary folder.
///
/// - no command hangs (each is killed after `ProjectRun.timeLimit`) or dies of a signal;
/// - every exit code is 0, 1 or 64;
/// - no command writes a file other than the database and its journal, WAL and shared memory;
/// - no output holds a control character other than a line break or a tab, nor a byte of the
///   secret file kept beside the project (reachable only through a symbolic link);
/// - `validate` that exits 0 and reports nothing as not checked means `migrate` succeeds.
///
/// The input is a list of files separated by two NUL bytes; in each, the first line is the
/// path (`m/NAME` in migrations, `s/NAME` in seeds, `\n` and `\e` standing for a line break and
/// ESC in the name), the rest its content. A path ending in ` -> TARGET` is a symbolic link to
/// TARGET, and one ending in `|fifo` a FIFO.
enum ProjectProperties {
  /// What the secret file holds; no output may show it.
  static let secret = "FUZZ-SECRET-7f3a9c"

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    let entries = decode(input)
    guard !entries.isEmpty else { return }
    let run: ProjectRun
    do {
      run = try ProjectRun(entries: entries)
    } catch {
      // The file system refused a name (too long, say): not a property of strata.
      return
    }
    defer { run.remove() }
    try run.check()
  }

  /// One entry of the project: where it goes and what it is.
  struct Entry {
    enum Kind: Equatable {
      case file([UInt8])
      case link(String)
      case fifo
    }
    let folder: String
    let name: String
    let kind: Kind
  }

  /// At most eight entries; names that are empty, hold a `/` or come twice are dropped.
  static func decode(_ input: [UInt8]) -> [Entry] {
    var parts: [ArraySlice<UInt8>] = []
    var start = input.startIndex
    while parts.count < 8, let separator = input[start...].firstRange(of: [0, 0]) {
      parts.append(input[start..<separator.lowerBound])
      start = separator.upperBound
    }
    if parts.count < 8 { parts.append(input[start...]) }
    var entries: [Entry] = []
    for part in parts {
      let newline = part.firstIndex(of: 0x0A) ?? part.endIndex
      let path = String(decoding: part[part.startIndex..<newline], as: UTF8.self)
      let content = Array(part[min(newline + 1, part.endIndex)...])
      let folder: String
      if path.hasPrefix("m/") {
        folder = "migrations"
      } else if path.hasPrefix("s/") {
        folder = "seeds"
      } else {
        continue
      }
      var name = String(path.dropFirst(2))
      var kind = Entry.Kind.file(content)
      if let arrow = name.range(of: " -> ") {
        kind = .link(String(name[arrow.upperBound...]))
        name = String(name[..<arrow.lowerBound])
      } else if name.hasSuffix("|fifo") {
        kind = .fifo
        name = String(name.dropLast(5))
      }
      name = name.replacingOccurrences(of: "\\n", with: "\n")
        .replacingOccurrences(of: "\\e", with: "\u{1B}")
      guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0"),
        !entries.contains(where: { $0.folder == folder && $0.name == name })
      else { continue }
      entries.append(Entry(folder: folder, name: name, kind: kind))
    }
    return entries
  }
}
