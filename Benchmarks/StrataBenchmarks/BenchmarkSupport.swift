import Foundation

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
  /// exit. `input` is written to its standard input.
  @discardableResult
  static func run(
    _ executable: String,
    _ arguments: [String],
    in directory: URL? = nil,
    input: URL? = nil
  ) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard process.terminationStatus == 0 else {
      throw BenchError(
        "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
          + String(decoding: message, as: UTF8.self)
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
