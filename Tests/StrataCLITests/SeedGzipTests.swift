import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 16's compressed files, through the real binary: a `.csv.gz` (or `.tsv.gz`) is read as
/// it is, by gzip's magic bytes, into the table of its stem, with the ledger's checksum of the
/// compressed bytes; a truncated or corrupt one fails with its place and nothing seeded. The
/// fixtures are made by the system `gzip`.
@Suite struct SeedGzipTests {
  /// Runs `script` in `folder` and expects it to succeed.
  static func shell(_ script: String, in folder: TemporaryDirectory) throws {
    let run = try SpawnedProcess.shell(script, in: folder.url)
    #expect(run.exitCode == 0, "\(script): \(run.standardError)")
  }

  static func seed(_ folder: TemporaryDirectory, _ arguments: [String]) throws -> ProcessResult {
    try StrataProcess.run(["seed", "--database", "app.sqlite3"] + arguments, in: folder.url)
  }

  static func count(_ folder: TemporaryDirectory, _ table: String) throws -> Int64? {
    try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM \(table)")
  }

  @Test func aGzippedCSVLoadsTheTableOfItsStemAndTheLedgerHasTheCompressedChecksum() throws {
    let folder = try SampleProject.migrated()
    try folder.write("seeds/person_info.csv", "name,age\nAnn,30\n\"Bo\nLee\",\n")
    try folder.write("seeds/student.tsv", "stuID\tstuName\nS1\tAnn\n")
    try Self.shell("gzip seeds/person_info.csv seeds/student.tsv", in: folder)
    let run = try Self.seed(folder, ["--seeds", "seeds"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT name, age FROM person_info")
        == [[.text("Ann"), .integer(30)], [.text("Bo\nLee"), .null]]
    )
    #expect(try Self.count(folder, "student") == 1)
    let checksum = try Seeder.checksum(of: folder.path("seeds/person_info.csv.gz"))
    #expect(
      try DatabaseProbe.rows(
        folder.path("app.sqlite3"),
        "SELECT file, checksum FROM strata_seeds WHERE table_name = 'person_info'"
      ) == [[.text("person_info.csv.gz"), .text(checksum)]]
    )
    // Loaded once: a second run with only unrecorded files skips it by that checksum.
    let again = try StrataProcess.run(
      ["init", "--database", "app.sqlite3", "--seeds", "seeds"],
      in: folder.url
    )
    #expect(again.exitCode == 0, "\(again.standardError)")
    #expect(try Self.count(folder, "person_info") == 2)
  }

  @Test func gzipBytesInAFileNamedCSVAndFromStandardInputAreReadToo() throws {
    let folder = try SampleProject.migrated()
    try folder.write("people.csv", "name,age\nAnn,30\n")
    try Self.shell("gzip -c people.csv > packed.csv", in: folder)
    let named = try Self.seed(folder, ["packed.csv", "--table", "person_info"])
    #expect(named.exitCode == 0, "\(named.standardError)")
    try folder.write("more.csv", "name,age\nBo,31\n")
    let piped = try SpawnedProcess.shell(
      "gzip -c more.csv | \"$STRATA\" seed - --table person_info --database app.sqlite3",
      in: folder.url
    )
    #expect(piped.exitCode == 0, "\(piped.standardError)")
    #expect(
      try DatabaseProbe.rows(
        folder.path("app.sqlite3"),
        "SELECT name FROM person_info ORDER BY name"
      )
        == [[.text("Ann")], [.text("Bo")]]
    )
  }

  @Test func twoGzipMembersOneAfterTheOtherReadAsOneFile() throws {
    let folder = try SampleProject.migrated()
    try folder.write("a.csv", "name,age\nAnn,30\n")
    try folder.write("b.csv", "Bo,31\n")
    try Self.shell(
      "gzip -c a.csv > person_info.csv.gz && gzip -c b.csv >> person_info.csv.gz",
      in: folder
    )
    let run = try Self.seed(folder, ["person_info.csv.gz"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(try Self.count(folder, "person_info") == 2)
  }

  @Test func aGzippedWindows1252FileWithSemicolonsNeedsBothOptions() throws {
    let folder = try SampleProject.migrated()
    try Data(Array("name;age\nJos".utf8) + [0xE9] + Array(";4\n".utf8)).write(
      to: folder.path("person_info.csv")
    )
    try Self.shell("gzip person_info.csv", in: folder)
    let run = try Self.seed(
      folder,
      ["person_info.csv.gz", "--delimiter", ";", "--encoding", "windows-1252"]
    )
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT name FROM person_info") == [
        [.text("José")]
      ]
    )
  }

  /// A gzipped people file of `rows` rows, and its size.
  static func gzipped(_ folder: TemporaryDirectory, rows: Int) throws -> Int {
    var text = "name,age\n"
    for row in 1...rows { text += "Person \(row),\(row % 90)\n" }
    try folder.write("person_info.csv", text)
    try shell("gzip -n person_info.csv", in: folder)
    return try FileManager.default.attributesOfItem(atPath: folder.path("person_info.csv.gz").path)[
      .size
    ] as? Int ?? 0
  }

  @Test func aTruncatedGzipFileIsAnErrorAndNothingIsSeeded() throws {
    let folder = try SampleProject.migrated()
    let size = try Self.gzipped(folder, rows: 50_000)
    try Self.shell(
      "head -c \(size / 2) person_info.csv.gz > cut && mv cut person_info.csv.gz",
      in: folder
    )
    let run = try Self.seed(folder, ["person_info.csv.gz"])
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains("person_info.csv.gz:"), "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "the gzip data cannot be read: the file ends before its gzip stream does (it is "
          + "truncated), at compressed byte offset \(size / 2); nothing was seeded"
      ),
      "\(run.standardError)"
    )
    #expect(run.standardError.contains("Help: Compress the file again"))
    #expect(try Self.count(folder, "person_info") == 0)
  }

  @Test func aCorruptGzipFileIsAnErrorAtItsCompressedByteAndNothingIsSeeded() throws {
    let folder = try SampleProject.migrated()
    let size = try Self.gzipped(folder, rows: 50_000)
    var bytes = try [UInt8](Data(contentsOf: folder.path("person_info.csv.gz")))
    #expect(size > 14)
    // The first deflate block's header, right after gzip's 10-byte header: all ones is block
    // type 3, which does not exist. (Damage further in may first inflate into garbled text,
    // which then fails as CSV; nothing is seeded either way.)
    for index in 10..<14 { bytes[index] = 0xFF }
    try Data(bytes).write(to: folder.path("person_info.csv.gz"))
    let run = try Self.seed(folder, ["person_info.csv.gz"])
    #expect(run.exitCode == 1)
    #expect(
      run.standardError.contains(
        "person_info.csv.gz:1:1: the gzip data cannot be read: invalid block type, at "
          + "compressed byte offset 11; nothing was seeded"
      ),
      "\(run.standardError)"
    )
    #expect(try Self.count(folder, "person_info") == 0)
  }

  @Test func aDamagedTrailerChecksumIsAnErrorToo() throws {
    let folder = try SampleProject.migrated()
    let size = try Self.gzipped(folder, rows: 100)
    var bytes = try [UInt8](Data(contentsOf: folder.path("person_info.csv.gz")))
    bytes[size - 6] ^= 0xFF  // the CRC-32 of the text
    try Data(bytes).write(to: folder.path("person_info.csv.gz"))
    let run = try Self.seed(folder, ["person_info.csv.gz"])
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains("incorrect data check"), "\(run.standardError)")
    #expect(try Self.count(folder, "person_info") == 0)
  }

  @Test func aGzNameOnAFileThatIsNotGzipIsAnError() throws {
    let folder = try SampleProject.migrated()
    try folder.write("person_info.csv.gz", "name,age\nAnn,30\n")
    let run = try Self.seed(folder, ["person_info.csv.gz"])
    #expect(run.exitCode == 1)
    #expect(
      run.standardError.contains(
        "person_info.csv.gz:1:1: the gzip data cannot be read: the file's name ends in .gz, but "
          + "it does not start with gzip's magic bytes (1F 8B)"
      ),
      "\(run.standardError)"
    )
    #expect(try Self.count(folder, "person_info") == 0)
  }

  // Its point is the peak memory of strata's own build; under a sanitizer the 1.5 million rows
  // take longer than the run's timeout and the bound does not hold anyway.
  @Test(.notUnderSanitizer) func aLargeGzippedFileLoadsInBoundedMemory() throws {
    let folder = try SampleProject.migrated()
    _ = try Self.gzipped(folder, rows: 1_500_000)
    let measured = try PeakMemoryRun.strata(
      ["seed", "person_info.csv.gz", "--database", "app.sqlite3"],
      in: folder.url
    )
    #expect(measured.process.exitCode == 0, "\(measured.process.standardError)")
    measured.expectPeak(below: 64 << 20)
    #expect(try Self.count(folder, "person_info") == 1_500_000)
  }
}
