import Foundation
import Strata
import StrataTestSupport
import Testing

/// The CSV memory bound whatever a record holds (issue 10, item 8): a record of millions of
/// empty, one-byte or quoted empty fields stays under the 16 MiB byte limit, yet each field
/// costs memory; it fails at its first field past the header (or past SQLite's 32767 columns)
/// with file:line:column, under 96 MiB, and the database is unchanged.
@Suite struct SeedFieldCountLimitTests {
  /// Writes `head`, then `body` `count` times, then a line break, to `name` in `folder`.
  func write(
    _ name: String,
    in folder: TemporaryDirectory,
    head: String,
    body: String,
    count: Int
  )
    throws
  {
    let handle = try FileHandle(forWritingTo: try folder.write(name, ""))
    try handle.write(contentsOf: Data(head.utf8))
    let block = Data(String(repeating: body, count: 100_000).utf8)
    for _ in 0..<(count / 100_000) { try handle.write(contentsOf: block) }
    try handle.write(contentsOf: Data("\n".utf8))
    try handle.close()
  }

  /// Seeds `name` into person_info; checks it fails with `message` (and `help`) under 96 MiB,
  /// seeding nothing.
  func expectRefused(
    _ name: String,
    in folder: TemporaryDirectory,
    message: String,
    help: String
  )
    throws
  {
    let arguments = ["seed", name, "--table", "person_info", "--database", "app.sqlite3"]
    let measured = try PeakMemoryRun.strata(arguments, in: folder.url)
    let run = measured.process
    #expect(run.finished)
    #expect(run.exitCode == 1, "\(run.standardError)")
    #expect(run.standardError.contains("Error: \(name):\(message)"), "\(run.standardError)")
    #expect(run.standardError.contains(help), "\(run.standardError)")
    #expect(run.standardError.contains("the database is unchanged"), "\(run.standardError)")
    #expect(run.peakMemoryBytes > 0)
    measured.expectPeak(below: 96 << 20, "\(name): ")
    let people = try DatabaseProbe.integer(
      folder.path("app.sqlite3"),
      "SELECT count(*) FROM person_info"
    )
    #expect(people == 0)
  }

  @Test func aLineOfTenMillionEmptyFieldsFailsAtItsThirdFieldInBoundedMemory() throws {
    let folder = try SampleProject.migrated()
    try write("commas.csv", in: folder, head: "name,age\nAda,36\n", body: ",", count: 10_000_000)
    try expectRefused(
      "commas.csv",
      in: folder,
      message: "3:3: too many fields: field 3 starts here, but the header has 2",
      help: "Give every row as many fields as the header"
    )
  }

  @Test func aLineOfTwentyMillionOneByteFieldsFailsInBoundedMemory() throws {
    let folder = try SampleProject.migrated()
    try write("bytes.csv", in: folder, head: "name,age\n", body: "y,", count: 20_000_000)
    try expectRefused(
      "bytes.csv",
      in: folder,
      message: "2:5: too many fields: field 3 starts here, but the header has 2",
      help: "Give every row as many fields as the header"
    )
  }

  @Test func aLineOfTenMillionQuotedEmptyFieldsFailsInBoundedMemory() throws {
    let folder = try SampleProject.migrated()
    try write("quoted.csv", in: folder, head: "name,age\n", body: "\"\",", count: 10_000_000)
    try expectRefused(
      "quoted.csv",
      in: folder,
      message: "2:7: too many fields: field 3 starts here, but the header has 2",
      help: "Give every row as many fields as the header"
    )
  }

  @Test func aHeaderOfFortyThousandColumnsFailsAtColumn32768() throws {
    let folder = try SampleProject.migrated()
    let header = (1...40_000).map { "c\($0)" }.joined(separator: ",")
    try folder.write("wide.csv", header + "\n1\n")
    // Field 32768 starts after 32767 names ("c1," … "c32767,").
    let column = (1...32_767).reduce(1) { $0 + "c\($1),".count }
    try expectRefused(
      "wide.csv",
      in: folder,
      message: "1:\(column): too many fields: field 32768 starts here, but a record may have at "
        + "most 32767 (SQLite's largest number of columns)",
      help: "the limit cannot be raised"
    )
  }

  @Test func aHeaderOfTenMillionEmptyNamesFailsInBoundedMemory() throws {
    let folder = try SampleProject.migrated()
    try write("names.csv", in: folder, head: "", body: ",", count: 10_000_000)
    try expectRefused(
      "names.csv",
      in: folder,
      message: "1:32768: too many fields: field 32768 starts here",
      help: "the limit cannot be raised"
    )
  }
}
