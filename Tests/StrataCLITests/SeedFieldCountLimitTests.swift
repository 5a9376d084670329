import Foundation
import Strata
import StrataTestSupport
import Testing

/// The CSV memory bound whatever a record holds (issue 10, item 8): a record of millions of
/// empty, one-byte or quoted empty fields stays under the 16 MiB byte limit, yet each field
/// costs memory; it fails at its first field past the header (or past SQLite's 32767 columns)
/// with file:line:column, under 96 MiB, and the database is unchanged.
@Suite struct SeedFieldCountLimitTests {
  /// The sample project's migrations, migrated into app.sqlite3 (person_info: name, age).
  func migratedProject() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      at: SeedFieldLimitTests.repository.appendingPathComponent("migrations"),
      to: folder.path("migrations")
    )
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

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
    #expect(run.standardError.contains("Error: \(name):\(message)"), "\(run.standardError)")
    #expect(run.standardError.contains(help), "\(run.standardError)")
    #expect(run.standardError.contains("the database is unchanged"), "\(run.standardError)")
    #expect(run.peakMemoryBytes > 0)
    if SeedFieldLimitTests.memoryBoundApplies,
      measured != nil || SeedFieldLimitTests.ownPeakMemoryBytes() < 96 << 20
    {
      #expect(run.peakMemoryBytes < 96 << 20, "\(name): peak RSS \(run.peakMemoryBytes >> 20) MiB")
    }
    let people = try DatabaseProbe.integer(
      folder.path("app.sqlite3"),
      "SELECT count(*) FROM person_info"
    )
    #expect(people == 0)
  }

  @Test func aLineOfTenMillionEmptyFieldsFailsAtItsThirdFieldInBoundedMemory() throws {
    let folder = try migratedProject()
    try write("commas.csv", in: folder, head: "name,age\nAda,36\n", body: ",", count: 10_000_000)
    try expectRefused(
      "commas.csv",
      in: folder,
      message: "3:3: too many fields: field 3 starts here, but the header has 2",
      help: "Give every row as many fields as the header"
    )
  }

  @Test func aLineOfTwentyMillionOneByteFieldsFailsInBoundedMemory() throws {
    let folder = try migratedProject()
    try write("bytes.csv", in: folder, head: "name,age\n", body: "y,", count: 20_000_000)
    try expectRefused(
      "bytes.csv",
      in: folder,
      message: "2:5: too many fields: field 3 starts here, but the header has 2",
      help: "Give every row as many fields as the header"
    )
  }

  @Test func aLineOfTenMillionQuotedEmptyFieldsFailsInBoundedMemory() throws {
    let folder = try migratedProject()
    try write("quoted.csv", in: folder, head: "name,age\n", body: "\"\",", count: 10_000_000)
    try expectRefused(
      "quoted.csv",
      in: folder,
      message: "2:7: too many fields: field 3 starts here, but the header has 2",
      help: "Give every row as many fields as the header"
    )
  }

  @Test func aHeaderOfFortyThousandColumnsFailsAtColumn32768() throws {
    let folder = try migratedProject()
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
    let folder = try migratedProject()
    try write("names.csv", in: folder, head: "", body: ",", count: 10_000_000)
    try expectRefused(
      "names.csv",
      in: folder,
      message: "1:32768: too many fields: field 32768 starts here",
      help: "the limit cannot be raised"
    )
  }
}
