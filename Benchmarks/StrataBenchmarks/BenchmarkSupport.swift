import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timing, processes and scratch folders shared by the workloads.
enum Bench {
  /// The `strata` binary built beside this benchmark (`swift build -c release`).
  static var strata: String {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return here.deletingLastPathComponent().appendingPathComponent("strata").path
  }

  /// A fresh scratch folder under the system's temporary directory.
  static func scratch(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-bench-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Runs a program to completion and returns its wall time in seconds; fails on a non-zero
  /// exit. `input` is connected to its standard input.
  ///
  /// Spawned with `posix_spawn` directly: Foundation's `Process` closes every possible file
  /// descriptor before `exec`, which adds tens of milliseconds to each run and would hide
  /// what the programs themselves take.
  @discardableResult
  static func run(
    _ executable: String,
    _ arguments: [String],
    in directory: URL? = nil,
    input: URL? = nil
  ) throws -> Double {
    let errorLog = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-bench-stderr-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: errorLog) }
    // An opaque pointer on Apple platforms, a struct on glibc: both start empty.
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input?.path ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions,
      2,
      errorLog.path,
      O_WRONLY | O_CREAT | O_TRUNC,
      0o600
    )
    // Run from the folder by changing ours around the spawn (no portable chdir action).
    let previous = FileManager.default.currentDirectoryPath
    if let directory, !FileManager.default.changeCurrentDirectoryPath(directory.path) {
      throw BenchError("cannot enter \(directory.path)")
    }
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, processEnvironment)
    guard spawned == 0 else {
      throw BenchError("cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let exited = status & 0x7f == 0
    let code = (status >> 8) & 0xff
    guard exited, code == 0 else {
      let message = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
      throw BenchError(
        "\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(message)"
      )
    }
    return seconds
  }

  /// The median of `runs` timings of `body`, each given a fresh run number.
  static func median(runs: Int, _ body: (Int) throws -> Double) rethrows -> Double {
    var times: [Double] = []
    for run in 0..<runs { times.append(try body(run)) }
    times.sort()
    return times[times.count / 2]
  }

  /// Medians of two workloads timed in turns, run by run.
  static func pairedMedians(
    runs: Int,
    _ body: (Int) throws -> (Double, Double)
  ) rethrows -> (Double, Double) {
    var first: [Double] = []
    var second: [Double] = []
    for run in 0..<runs {
      let (a, b) = try body(run)
      first.append(a)
      second.append(b)
    }
    first.sort()
    second.sort()
    return (first[runs / 2], second[runs / 2])
  }

  /// Seconds since `start`.
  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  static func format(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
  }

  /// Writes `count` small migrations (CREATE TABLE, ALTER TABLE ADD COLUMN, CREATE INDEX) and
  /// returns each file's up SQL, for the sqlite3 floor.
  static func writeMigrations(count: Int, to folder: URL) throws -> [String] {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var bodies: [String] = []
    for version in 1...count {
      let sql: String
      switch version % 3 {
      case 1:
        sql = "CREATE TABLE t\(version) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value REAL);"
      case 2:
        sql = "ALTER TABLE t\(version - 1) ADD COLUMN extra\(version) TEXT DEFAULT 'x';"
      default:
        sql = "CREATE INDEX i\(version) ON t\(version - 2) (name, value);"
      }
      bodies.append(sql)
      let name = String(format: "%04d_step_%d.sql", version, version)
      let text = "-- migrate:up\n\(sql)\n\n-- migrate:down\nSELECT 1;\n"
      try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }
    return bodies
  }
}

struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// This process's environment for `posix_spawn`: `environ` on glibc; Apple platforms hand it
/// out through `_NSGetEnviron()` instead.
var processEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
  #if canImport(Darwin)
  _NSGetEnviron().pointee
  #else
  environ
  #endif
}
