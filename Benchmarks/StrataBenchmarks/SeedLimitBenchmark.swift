import Foundation
import Strata

/// Peak memory of `strata seed` on a file whose third line opens a quote that never closes
/// (by default 283 MB, the file of issue 10 item 8), with the default 16 MiB field limit: the
/// run must fail at that line in bounded memory (`/usr/bin/time -f %M`). Then the same with
/// `--max-field-bytes` at 256 MiB, to show what the limit saves.
///
/// `STRATA_BENCH_SEED_LIMIT_MB` changes the file's size.
enum SeedLimitBenchmark {
  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let megabytes = environment["STRATA_BENCH_SEED_LIMIT_MB"].flatMap { Int($0) } ?? 283
    guard FileManager.default.isExecutableFile(atPath: Bench.strata) else {
      throw BenchError("no strata binary at \(Bench.strata); run 'swift build -c release' first")
    }
    let folder = try Bench.scratch("seed-limit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = folder.appendingPathComponent("people.csv")
    let bytes = try writeUnterminated(megabytes: megabytes, to: csv)
    print(
      "seed-limit: a \(bytes / 1_000_000) MB CSV whose line 3 opens a quote that never closes"
    )
    for limit in [nil, "268435456"] {
      let database = try SeedBenchmark.freshDatabase("limit.sqlite3", in: folder)
      var arguments = [
        "seed", "people.csv", "--table", "person_info", "--mode", "append", "--database", database,
      ]
      if let limit { arguments += ["--max-field-bytes", limit] }
      let (seconds, peakKiB, message) = try failingRun(Bench.strata, arguments, in: folder)
      let label = limit.map { "--max-field-bytes \($0)" } ?? "default limit (16 MiB)"
      print(
        "  \(label): exit 1 in \(Bench.format(seconds)), peak "
          + String(format: "%.1f MiB", Double(peakKiB) / 1024) + " RSS"
      )
      print("    \(message.prefix(110))…")
    }
  }

  /// `id,name,age`, two rows, then a row whose name opens a quote, then plain rows up to
  /// `megabytes`.
  static func writeUnterminated(megabytes: Int, to url: URL) throws -> Int {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var total = 0
    let head = Data("id,name,age\n1,Ada,36\n2,\"Bob,37\n".utf8)
    try handle.write(contentsOf: head)
    total += head.count
    var id = 3
    while total < megabytes * 1_000_000 {
      var chunk = ""
      while chunk.utf8.count < 1 << 20 {
        chunk += "\(id),Person \(id),\(id % 100)\n"
        id += 1
      }
      try handle.write(contentsOf: Data(chunk.utf8))
      total += chunk.utf8.count
    }
    return total
  }

  /// Wall time, peak RSS (KiB) and the `Error:` line of a run expected to exit 1.
  static func failingRun(
    _ executable: String,
    _ arguments: [String],
    in directory: URL
  ) throws -> (Double, Int, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%M"] + [executable] + arguments
    process.currentDirectoryURL = directory
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let lines = output.split(separator: "\n")
    guard process.terminationStatus == 1, let kib = lines.last.flatMap({ Int($0) }),
      let message = lines.first(where: { $0.hasPrefix("Error:") })
    else {
      throw BenchError("expected exit 1 with an error from \(executable), got: \(output)")
    }
    return (seconds, kib, String(message))
  }
}
