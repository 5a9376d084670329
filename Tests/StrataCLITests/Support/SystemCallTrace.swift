import Foundation

/// The file system calls a run of the real binary makes, seen under `strace`: what the
/// durability tests read to check that a new name is synced before strata says it is done.
/// Tests that use it carry `.straceInstalled` and `.notUnderSanitizer` (a sanitizer's runtime
/// refuses to run traced).
struct SystemCallTrace {
  static let strace = "/usr/bin/strace"
  /// The calls traced: opening, syncing, renaming, linking and closing.
  static let calls = "trace=openat,fsync,fdatasync,rename,renameat,renameat2,link,linkat,close"

  /// Where strace writes the trace.
  let file: URL

  /// Runs `strata arguments…` in `directory` under strace, following its threads and children.
  func run(_ arguments: [String], in directory: URL) throws -> ProcessResult {
    try StrataProcess.run(
      arguments,
      in: directory,
      launcher: [Self.strace, "-f", "-qq", "-o", file.path, "-e", Self.calls]
    )
  }

  /// The traced calls, one a line, without the process id strace puts first.
  func lines() throws -> [String] {
    try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
      String($0.drop { $0.isNumber || $0 == " " })
    }
  }

  /// Whether `lines` open `folder` and then fsync one of the descriptors so opened.
  static func syncsFolder(_ folder: String, in lines: ArraySlice<String>) -> Bool {
    var folderDescriptors: Set<String> = []
    for line in lines {
      if line.hasPrefix("openat("), line.contains("\"\(folder)\""),
        let descriptor = line.split(separator: "=").last?.trimmingCharacters(in: .whitespaces)
      {
        folderDescriptors.insert(descriptor)
      }
      if line.hasPrefix("fsync("),
        let descriptor = line.dropFirst("fsync(".count).split(separator: ")").first,
        folderDescriptors.contains(String(descriptor))
      {
        return true
      }
    }
    return false
  }
}
