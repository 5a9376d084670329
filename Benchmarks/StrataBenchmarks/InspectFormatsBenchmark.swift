import Foundation
import Strata
import StrataCLI

/// `strata-bench inspect-formats`: `inspect`'s schema of 1,000 tables (`InspectBenchmark`'s),
/// read once and rendered as `strata inspect` renders each format, names escaped for a
/// terminal as it shows them: text, Markdown, Mermaid and JSON in the same run, rounds
/// alternating between the formats. The goal: text and Markdown no slower than 1.2× JSON.
enum InspectFormatsBenchmark {
  static let runs = 9
  static let goal = 1.2

  static func run() throws {
    let folder = try Bench.scratch("inspect-formats")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("wide.sqlite3")
    try InspectBenchmark.build(url)
    let schema = try SchemaInspector(Connection(path: url.path, mode: .readOnly)).inspect()

    let formats: [SchemaFormat] = [.json, .text, .markdown, .mermaid]
    print(
      "inspect-formats: \(InspectBenchmark.tableCount) tables × \(InspectBenchmark.columnCount) "
        + "columns, rendering only"
    )
    print("best and median of \(runs) alternating rounds")
    for format in formats { _ = try rendered(schema, as: format) }
    var times = [SchemaFormat: [Double]]()
    for _ in 0..<runs {
      for format in formats {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try rendered(schema, as: format)
        times[format, default: []].append(
          Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        )
      }
    }
    func median(_ format: SchemaFormat) -> Double {
      let sorted = (times[format] ?? []).sorted()
      return sorted[sorted.count / 2]
    }
    let json = median(.json)
    print("")
    print("FORMAT       BEST  MEDIAN  × JSON")
    for format in formats {
      let sorted = (times[format] ?? []).sorted()
      print(
        format.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
          + String(
            format: "  %4.0f ms %4.0f ms  %5.2f×",
            sorted[0] * 1000,
            median(format) * 1000,
            median(format) / json
          )
      )
    }
    let slow = [SchemaFormat.text, .markdown].filter { median($0) / json > goal }
    if !slow.isEmpty {
      print(
        "FAIL: over \(goal)× JSON: \(slow.map(\.rawValue).joined(separator: ", "))"
      )
      exit(1)
    }
  }

  /// The schema as `strata inspect --format <format>` writes it; its length in bytes.
  private static func rendered(_ schema: Schema, as format: SchemaFormat) throws -> Int {
    switch format {
    case .json, .sql: try schema.rendered(as: format).utf8.count
    case .text, .markdown, .mermaid:
      try SchemaDisplay.rendered(schema, as: format, databaseName: "wide.sqlite3").utf8.count
    }
  }
}
