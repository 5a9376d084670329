import Foundation
import Strata
import StrataTestSupport
import Testing

/// Issue 16's delimiters and encodings, through the real binary: `.tsv` files, `--delimiter`,
/// `--encoding`, and each bad input (a header without the delimiter, bytes that do not fit the
/// encoding) failing with its place and nothing seeded.
@Suite struct SeedDelimiterEncodingTests {
  static func project() throws -> TemporaryDirectory { try SampleProject.migrated() }

  static func write(_ folder: TemporaryDirectory, _ name: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: folder.path(name))
  }

  static func seed(_ folder: TemporaryDirectory, _ arguments: [String]) throws -> ProcessResult {
    try StrataProcess.run(["seed", "--database", "app.sqlite3"] + arguments, in: folder.url)
  }

  static func students(_ folder: TemporaryDirectory) throws -> [[SQLValue]] {
    try DatabaseProbe.rows(
      folder.path("app.sqlite3"),
      "SELECT stuID, stuName, stuAge, stuClass FROM student ORDER BY stuID"
    )
  }

  @Test func aTSVFileIsTabSeparatedAndLoadsTheTableOfItsStem() throws {
    let folder = try Self.project()
    try folder.write(
      "student.tsv",
      "stuID\tstuName\tstuAge\tstuClass\nS1\t\"Ann\tLee\"\t20\t3A\nS2\tBo, Jr\t\t\n"
    )
    let run = try Self.seed(folder, ["student.tsv"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try Self.students(folder) == [
        [.text("S1"), .text("Ann\tLee"), .integer(20), .text("3A")],
        [.text("S2"), .text("Bo, Jr"), .null, .null],
      ]
    )
  }

  @Test func aSeedsFolderLoadsTSVFilesBesideCSVFiles() throws {
    let folder = try Self.project()
    try folder.write("seeds/student.tsv", "stuID\tstuName\nS1\tAnn\n")
    try folder.write("seeds/person_info.csv", "name,age\nAnn,30\n")
    let run = try Self.seed(folder, ["--seeds", "seeds"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM student") == 1
    )
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM person_info") == 1
    )
  }

  @Test(arguments: [";", "|", "tab", "\\t"])
  func delimiterReadsFieldsAndQuotesAlike(delimiter: String) throws {
    let folder = try Self.project()
    let d = delimiter == "tab" || delimiter == "\\t" ? "\t" : delimiter
    try folder.write(
      "students.txt",
      "stuID\(d)stuName\(d)stuAge\nS1\(d)\"Lee\(d) \"\"Ann\"\"\"\(d)20\nS2\(d)Bo,Jr\(d)\n"
    )
    let run = try Self.seed(
      folder,
      ["students.txt", "--table", "student", "--delimiter", delimiter]
    )
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try Self.students(folder) == [
        [.text("S1"), .text("Lee\(d) \"Ann\""), .integer(20), .null],
        [.text("S2"), .text("Bo,Jr"), .null, .null],
      ]
    )
  }

  @Test(arguments: ["\"", "ab", "", "é"])
  func aDelimiterThatIsNotOneASCIICharacterIsAUsageError(delimiter: String) throws {
    let folder = try Self.project()
    try folder.write("student.csv", "stuID,stuName\nS1,Ann\n")
    let run = try Self.seed(folder, ["student.csv", "--delimiter", delimiter])
    #expect(run.exitCode == 64)
    #expect(
      run.standardError.contains("--delimiter must be one ASCII character"),
      "\(run.standardError)"
    )
    #expect(try Self.students(folder).isEmpty)
  }

  @Test func aSemicolonHeaderReadWithCommasNamesTheDelimiterOption() throws {
    let folder = try Self.project()
    try folder.write("student.csv", "stuID;stuName;stuAge\nS1;Ann;20\n")
    let run = try Self.seed(folder, ["student.csv"])
    #expect(run.exitCode == 1)
    #expect(
      run.standardError.contains(
        "student.csv:1: the header is one column, \"stuID;stuName;stuAge\": it holds ';' but no "
          + "',', the file's delimiter; nothing was seeded"
      ),
      "\(run.standardError)"
    )
    #expect(run.standardError.contains("Help: Pass --delimiter ';'"), "\(run.standardError)")
    #expect(try Self.students(folder).isEmpty)
  }

  @Test func aTabHeaderInACSVNamesTabAndACommaHeaderInATSVNamesComma() throws {
    let folder = try Self.project()
    try folder.write("student.csv", "stuID\tstuName\nS1\tAnn\n")
    let tabs = try Self.seed(folder, ["student.csv"])
    #expect(tabs.exitCode == 1)
    #expect(tabs.standardError.contains("it holds a tab but no ','"), "\(tabs.standardError)")
    #expect(tabs.standardError.contains("Help: Pass --delimiter tab"), "\(tabs.standardError)")
    try folder.write("person_info.tsv", "name,age\nAnn,3\n")
    let commas = try Self.seed(folder, ["person_info.tsv"])
    #expect(commas.exitCode == 1)
    #expect(commas.standardError.contains("it holds ',' but no a tab"), "\(commas.standardError)")
    #expect(commas.standardError.contains("Help: Pass --delimiter ','"), "\(commas.standardError)")
  }

  @Test func aHeaderWithoutTheDelimiterFailsBeforeAnyRowWhenTheTableNeedsMoreColumns() throws {
    let folder = try Self.project()
    // One column that is the table's, but stuName (NOT NULL, no default) is missing: an error
    // about the header, before the rows (whose bad values are never reached).
    try folder.write("student.csv", "stuID stuName\nS1 Ann\n")
    let spaced = try Self.seed(folder, ["student.csv"])
    #expect(spaced.exitCode == 1)
    #expect(spaced.standardError.contains("student.csv:1:1: table student has no column named"))
    try folder.write("student.csv", "stuID\nnot a row\n")
    let single = try Self.seed(folder, ["student.csv"])
    #expect(single.exitCode == 1)
    #expect(
      single.standardError.contains(
        "the header lacks student's NOT NULL column without a default: stuName"
      ),
      "\(single.standardError)"
    )
    #expect(try Self.students(folder).isEmpty)
  }

  @Test func windows1252AndLatin1AreConvertedToUTF8() throws {
    let folder = try Self.project()
    // "Zoë", "€5" and curly quotes in Windows-1252; Latin-1 has no € (0x80 is a control).
    try Self.write(
      folder,
      "student.csv",
      Array("stuID,stuName,stuClass\nS1,Zo".utf8) + [0xEB] + Array(",".utf8) + [0x80, 0x35]
        + Array("\nS2,".utf8) + [0x93, 0x41, 0x94] + Array(",x\n".utf8)
    )
    let run = try Self.seed(folder, ["student.csv", "--encoding", "windows-1252"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try Self.students(folder) == [
        [.text("S1"), .text("Zoë"), .null, .text("€5")],
        [.text("S2"), .text("\u{201C}A\u{201D}"), .null, .text("x")],
      ]
    )
    try Self.write(
      folder,
      "person_info.csv",
      Array("name,age\nJos".utf8) + [0xE9] + Array(",4\n".utf8)
    )
    let latin = try Self.seed(folder, ["person_info.csv", "--encoding", "latin-1"])
    #expect(latin.exitCode == 0, "\(latin.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT name FROM person_info") == [
        [.text("José")]
      ]
    )
  }

  @Test func aNonUTF8FileNamesTheEncodingOption() throws {
    let folder = try Self.project()
    try Self.write(
      folder,
      "person_info.csv",
      Array("name,age\nJos".utf8) + [0xE9] + Array(",4\n".utf8)
    )
    let run = try Self.seed(folder, ["person_info.csv"])
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains("person_info.csv:2:4: the bytes here are not UTF-8"))
    #expect(run.standardError.contains("--encoding windows-1252"), "\(run.standardError)")
  }

  @Test func anUndefinedWindows1252ByteIsAnErrorAtItsLineAndNothingIsSeeded() throws {
    let folder = try Self.project()
    try Self.write(
      folder,
      "person_info.csv",
      Array("name,age\nAnn,1\n\"Multi\nline\",2\nB".utf8) + [0x81] + Array("o,3\n".utf8)
    )
    let run = try Self.seed(folder, ["person_info.csv", "--encoding", "windows-1252"])
    #expect(run.exitCode == 1)
    #expect(
      run.standardError.contains(
        "person_info.csv:5:2: the bytes here do not fit the file's encoding: byte 0x81 is not a "
          + "Windows-1252 character, at byte offset 31 of the windows-1252 text; nothing was seeded"
      ),
      "\(run.standardError)"
    )
    #expect(run.standardError.contains("Help: Check that --encoding names the encoding"))
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM person_info") == 0
    )
  }

  /// "name,age\nZoë,4\n𝄞,5\n" in UTF-16 (with a byte order mark when `mark` is set).
  static func utf16(bigEndian: Bool, mark: Bool) -> [UInt8] {
    let units = Array("name,age\nZoë,4\n𝄞,5\n".utf16)
    let all: [UInt16] = (mark ? [0xFEFF] : []) + units
    return all.flatMap { unit in
      let high = UInt8(unit >> 8)
      let low = UInt8(unit & 0xFF)
      return bigEndian ? [high, low] : [low, high]
    }
  }

  @Test(arguments: [
    ("utf-16", true, true), ("utf-16", false, true), ("utf-16le", false, false),
    ("utf-16be", true, false), ("utf-16le", false, true),
  ])
  func utf16IsConvertedInEitherByteOrder(encoding: String, bigEndian: Bool, mark: Bool) throws {
    let folder = try Self.project()
    try Self.write(folder, "person_info.csv", Self.utf16(bigEndian: bigEndian, mark: mark))
    let run = try Self.seed(folder, ["person_info.csv", "--encoding", encoding])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try DatabaseProbe.rows(
        folder.path("app.sqlite3"),
        "SELECT name, age FROM person_info ORDER BY age"
      )
        == [[.text("Zoë"), .integer(4)], [.text("𝄞"), .integer(5)]]
    )
  }

  @Test func aUTF16FileWithoutAnEncodingNamesTheOption() throws {
    let folder = try Self.project()
    try Self.write(folder, "person_info.csv", Self.utf16(bigEndian: false, mark: true))
    let run = try Self.seed(folder, ["person_info.csv"])
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains("Help: Pass --encoding utf-16"), "\(run.standardError)")
  }

  @Test(arguments: [
    // utf-16 needs a byte order mark.
    (
      "utf-16", [UInt8](Self.utf16(bigEndian: false, mark: false)), "1:1",
      "does not start with a UTF-16 byte order mark"
    ),
    // An odd number of bytes: the last character is cut in half.
    (
      "utf-16le", Self.utf16(bigEndian: false, mark: false) + [0x41], "4:1",
      "an odd number of bytes"
    ),
    // A lone high surrogate (D800) at the start of line 3.
    (
      "utf-16le",
      Array(Self.utf16(bigEndian: false, mark: false).prefix(30)) + [0x00, 0xD8, 0x35, 0x00], "3:1",
      "an unpaired UTF-16 surrogate"
    ),
  ])
  func utf16ThatDoesNotFitIsAnErrorWithItsPlace(
    encoding: String,
    bytes: [UInt8],
    place: String,
    words: String
  ) throws {
    let folder = try Self.project()
    try Self.write(folder, "person_info.csv", bytes)
    let run = try Self.seed(folder, ["person_info.csv", "--encoding", encoding])
    #expect(run.exitCode == 1)
    #expect(
      run.standardError.contains(
        "person_info.csv:\(place): the bytes here do not fit the file's encoding"
      ),
      "\(run.standardError)"
    )
    #expect(run.standardError.contains(words), "\(run.standardError)")
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM person_info") == 0
    )
  }

  @Test func anUnknownEncodingIsAUsageError() throws {
    let folder = try Self.project()
    try folder.write("person_info.csv", "name\nAnn\n")
    let run = try Self.seed(folder, ["person_info.csv", "--encoding", "ebcdic"])
    #expect(run.exitCode == 64)
    #expect(run.standardError.contains("utf-8, windows-1252, latin-1, utf-16, utf-16le, utf-16be"))
  }
}
