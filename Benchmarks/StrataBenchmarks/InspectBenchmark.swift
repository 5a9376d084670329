import Foundation
import Strata

/// `strata-bench inspect`: a database of 1,000 tables × 10 columns with 1,000 indexes;
/// times reading the schema and writing it as text and as JSON (each must stay under a
/// second), beside `sqlite3 db .schema` in the same run.
enum InspectBenchmark {
  static let tableCount = 1_000
  static let columnCount = 10
  static let runs = 5

  static func run() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-bench-inspect-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("wide.sqlite3")
    try build(url)

    print("inspect: \(tableCount) tables × \(columnCount) columns, \(tableCount) indexes")
    print("SQLite \(Connection.libraryVersion); best and median of \(runs) runs")
    var rows: [(String, [Double])] = []
    rows.append(
      (
        "inspect, text",
        try time {
          let connection = try Connection(path: url.path, mode: .readOnly)
          return try SchemaInspector(connection).inspect().rendered(as: .text).utf8.count
        }
      )
    )
    rows.append(
      (
        "inspect, JSON",
        try time {
          let connection = try Connection(path: url.path, mode: .readOnly)
          return try SchemaInspector(connection).inspect().rendered(as: .json).utf8.count
        }
      )
    )
    rows.append(
      (
        "inspect, read only (no rendering)",
        try time {
          let connection = try Connection(path: url.path, mode: .readOnly)
          return try SchemaInspector(connection).inspect().tables.count
        }
      )
    )
    if let shell = sqlite3Path() {
      rows.append(
        ("sqlite3 db .schema", try time { try runProcess(shell, [url.path, ".schema"]) })
      )
    } else {
      print("(sqlite3 not found: no comparison)")
    }
    // The built CLI, when it sits beside this benchmark (after `swift build -c release`).
    let cli = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("strata")
    if FileManager.default.isExecutableFile(atPath: cli.path) {
      rows.append(
        (
          "strata inspect (process), text",
          try time { try runProcess(cli.path, ["inspect", "--database", url.path]) }
        )
      )
      rows.append(
        (
          "strata inspect (process), JSON",
          try time {
            try runProcess(cli.path, ["inspect", "--database", url.path, "--format", "json"])
          }
        )
      )
    }
    let width = rows.map(\.0.count).max() ?? 0
    print("")
    print("WORKLOAD".padding(toLength: width, withPad: " ", startingAt: 0) + "    BEST  MEDIAN")
    for (name, times) in rows {
      let sorted = times.sorted()
      print(
        name.padding(toLength: width, withPad: " ", startingAt: 0)
          + String(format: "  %5.0f ms %5.0f ms", sorted[0] * 1000, sorted[sorted.count / 2] * 1000)
      )
    }
    let slow = rows.filter { $0.0.hasPrefix("inspect,") && $0.1.sorted()[runs / 2] >= 1 }
    if !slow.isEmpty {
      print("FAIL: over a second: \(slow.map(\.0).joined(separator: ", "))")
      exit(1)
    }
  }

  /// 1,000 tables of 10 columns (an INTEGER PRIMARY KEY, a foreign key to the previous table,
  /// a CHECK, a default, typed columns), each with one index.
  static func build(_ url: URL) throws {
    let connection = try Connection(path: url.path)
    try connection.transaction {
      for table in 0..<tableCount {
        var columns = ["id INTEGER PRIMARY KEY"]
        columns.append(
          table == 0
            ? "parent_id INTEGER"
            : "parent_id INTEGER REFERENCES t\(table - 1) (id) ON DELETE CASCADE"
        )
        columns.append("name TEXT NOT NULL DEFAULT ''")
        columns.append("amount REAL CHECK (amount >= 0)")
        for extra in 4..<columnCount {
          columns.append("c\(extra) \(["INTEGER", "TEXT", "BLOB", "NUMERIC"][extra % 4])")
        }
        try connection.execute(
          "CREATE TABLE t\(table) (\(columns.joined(separator: ", ")));"
            + "CREATE INDEX t\(table)_name ON t\(table) (name, amount);"
        )
      }
    }
  }

  /// Runs `body` `runs` times after one warm-up; the wall time of each run, in seconds.
  private static func time(_ body: () throws -> Int) throws -> [Double] {
    _ = try body()
    var times: [Double] = []
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = try body()
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return times
  }

  private static func sqlite3Path() -> String? {
    ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Runs a process to the end, reading its output; returns the bytes read.
  private static func runProcess(_ path: String, _ arguments: [String]) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchmarkFailure(message: "\(path) \(arguments.joined(separator: " ")) failed")
    }
    return data.count
  }

  struct BenchmarkFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }
}
