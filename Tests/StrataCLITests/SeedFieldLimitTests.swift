import Foundation
import Strata
import StrataTestSupport
import Testing

/// The CSV size limit end to end (issue 10, item 8): a missing closing quote in a large file
/// fails where the field opened, in bounded memory, and `--max-field-bytes` sets the limit for
/// `seed` and `init`.
@Suite struct SeedFieldLimitTests {
  func people(_ folder: TemporaryDirectory) throws -> Int64? {
    try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM person_info")
  }

  @Test func anUnterminatedQuoteInA48MBFileFailsAtTheLimitInBoundedMemory() throws {
    let folder = try SampleProject.migrated()
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
    let measured = try PeakMemoryRun.strata(arguments, in: folder.url)
    let run = measured.process
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
    measured.expectPeak(below: 96 << 20)
    #expect(try people(folder) == 0)
  }

  @Test func aSmallLimitMakesA200ByteFieldFailAndALargerOneLetsItThrough() throws {
    let folder = try SampleProject.migrated()
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
    let folder = try SampleProject.copied()
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
