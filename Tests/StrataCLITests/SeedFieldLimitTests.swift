import Foundation
import Strata
import StrataTestSupport
import Testing

/// The CSV size limit end to end (issue 10, item 8): a missing closing quote in a large file
/// fails where the field opened, in bounded memory, and `--max-field-bytes` sets the limit for
/// `seed` and `init`.
@Suite struct SeedFieldLimitTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A folder with the sample project's migrations, migrated into app.sqlite3.
  func migratedProject() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      at: Self.repository.appendingPathComponent("migrations"),
      to: folder.path("migrations")
    )
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

  /// The memory bound is a property of strata's own build: under a sanitizer (`.ci/sanitize`
  /// sets STRATA_SANITIZER) the binary carries the sanitizer's shadow memory too.
  static let memoryBoundApplies = ProcessInfo.processInfo.environment["STRATA_SANITIZER"] == nil

  /// This test process's peak resident set size, in bytes.
  static func ownPeakMemoryBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
  }

  func people(_ folder: TemporaryDirectory) throws -> Int64? {
    try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM person_info")
  }

  @Test func anUnterminatedQuoteInA48MBFileFailsAtTheLimitInBoundedMemory() throws {
    let folder = try migratedProject()
    let file = folder.path("people.csv")
    let handle = try FileHandle(forWritingTo: try folder.write("people.csv", ""))
    try handle.write(contentsOf: Data("name,age\nAda,36\nBob,\"37\n".utf8))
    let block = Data(String(repeating: "Person with a longer name,20\n", count: 40_000).utf8)
    for _ in 0..<(48_000_000 / block.count) { try handle.write(contentsOf: block) }
    try handle.close()
    #expect(
      try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0 > 47_000_000
    )

    let arguments = ["seed", "people.csv", "--table", "person_info", "--database", "app.sqlite3"]
    let measured = try SpawnedProcess.measuringPeakMemory(
      StrataProcess.executable.path,
      arguments,
      in: folder.url,
      timeout: .seconds(120)
    )
    // Without /usr/bin/time, wait4's figure, which includes this test process's own peak.
    let run =
      try measured
      ?? SpawnedProcess.run(
        StrataProcess.executable.path,
        arguments,
        in: folder.url,
        timeout: .seconds(120)
      )
    #expect(run.finished)
    #expect(run.exitCode == 1, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "people.csv:3:5: the quoted field opened here does not close within 16 MiB"
      ),
      "\(run.standardError)"
    )
    #expect(run.standardError.contains("--max-field-bytes"))
    #expect(run.peakMemoryBytes > 0)
    if Self.memoryBoundApplies, measured != nil || Self.ownPeakMemoryBytes() < 96 << 20 {
      #expect(run.peakMemoryBytes < 96 << 20, "peak RSS \(run.peakMemoryBytes >> 20) MiB")
    }
    #expect(try people(folder) == 0)
  }

  @Test func aSmallLimitMakesA200ByteFieldFailAndALargerOneLetsItThrough() throws {
    let folder = try migratedProject()
    let long = String(repeating: "n", count: 200)
    try folder.write("people.csv", "name,age\nAda,36\n\(long),37\n")
    let arguments = ["seed", "people.csv", "--table", "person_info", "--database", "app.sqlite3"]

    let refused = try StrataProcess.run(arguments + ["--max-field-bytes", "100"], in: folder.url)
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError.contains(
        "people.csv:3:1: the field starting here is larger than 100 bytes"
      ),
      "\(refused.standardError)"
    )
    #expect(try people(folder) == 0)

    let accepted = try StrataProcess.run(arguments + ["--max-field-bytes", "300"], in: folder.url)
    #expect(accepted.exitCode == 0, "\(accepted.standardError)")
    #expect(try people(folder) == 2)

    let zero = try StrataProcess.run(arguments + ["--max-field-bytes", "0"], in: folder.url)
    #expect(zero.exitCode == 64)
    #expect(zero.standardError.contains("--max-field-bytes"))
  }

  @Test func initTakesTheLimitForTheSeedsItLoads() throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      at: Self.repository.appendingPathComponent("migrations"),
      to: folder.path("migrations")
    )
    let long = String(repeating: "n", count: 200)
    try folder.write("seeds/person_info.csv", "name,age\n\"\(long)\",37\n")

    let refused = try StrataProcess.run(
      ["init", "--database", "app.sqlite3", "--max-field-bytes", "100"],
      in: folder.url
    )
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError.contains(
        "seeds/person_info.csv:2:1: the quoted field opened here does not close within 100 bytes"
      ),
      "\(refused.standardError)"
    )

    let accepted = try StrataProcess.run(["init", "--database", "app.sqlite3"], in: folder.url)
    #expect(accepted.exitCode == 0, "\(accepted.standardError)")
    #expect(try people(folder) == 1)
  }
}
