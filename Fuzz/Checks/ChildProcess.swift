import Foundation

/// Runs a program to its end or to a time limit, with a clean environment, and keeps what it
/// wrote.
enum ChildProcess {
  struct Result {
    /// The exit code, or the signal's number when `signalled`.
    let status: Int32
    let signalled: Bool
    /// Killed for running past the time limit.
    let timedOut: Bool
    let standardOutput: [UInt8]
    let standardError: [UInt8]
  }

  static func run(
    _ executable: URL,
    _ arguments: [String],
    in directory: URL,
    timeLimit: Double
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    // SWIFT_BACKTRACE: a crash shows as a signal at once, not after the backtracer's work.
    process.environment = [
      "PATH": "/usr/bin:/bin", "HOME": directory.path, "NO_COLOR": "1",
      "SWIFT_BACKTRACE": "enable=no",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData: [UInt8] = []
    let outDescriptor = out.fileHandleForReading.fileDescriptor
    DispatchQueue.global().async(group: group) {
      outData = readToEnd(outDescriptor)
    }
    let errData = readToEnd(err.fileHandleForReading.fileDescriptor)
    group.wait()
    process.waitUntilExit()
    watchdog.cancel()
    let signalled = process.terminationReason == .uncaughtSignal
    return Result(
      status: process.terminationStatus,
      signalled: signalled,
      timedOut: signalled && process.terminationStatus == SIGKILL
        && Date().timeIntervalSince(start) >= timeLimit,
      standardOutput: outData,
      standardError: errData
    )
  }

  /// Everything up to the end of `descriptor`. Foundation's `readDataToEndOfFile` traps when a
  /// signal interrupts its read (libFuzzer's own signals do); this retries instead.
  private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += buffer[0..<count]
      } else if count == 0 || errno != EINTR {
        return bytes
      }
    }
  }
}

/// What a folder holds, read without following links or opening anything but regular files:
/// each path below it with its type, size, permissions, modification time and content (a
/// folder: its type and permissions).
struct FolderSnapshot {
  private var entries: [String: String] = [:]

  init(_ root: URL) {
    walk(root.path, relative: "")
  }

  private mutating func walk(_ path: String, relative: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    var description =
      "\(info.st_mode) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      // A folder's time changes whenever a journal comes and goes: what is in it is compared.
      description = "folder \(info.st_mode)"
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      for name in names.sorted() {
        walk(path + "/" + name, relative: relative.isEmpty ? name : relative + "/" + name)
      }
    case S_IFREG:
      if let data = FileManager.default.contents(atPath: path) {
        description += " \(data.hashValue)"
      }
    case S_IFLNK:
      description +=
        " -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
    default:
      break
    }
    if !relative.isEmpty { entries[relative] = description }
  }

  /// The paths added, removed or changed since `earlier`, sorted.
  func changes(since earlier: FolderSnapshot) -> [String] {
    Set(entries.keys).union(earlier.entries.keys)
      .filter { entries[$0] != earlier.entries[$0] }
      .sorted()
  }
}
