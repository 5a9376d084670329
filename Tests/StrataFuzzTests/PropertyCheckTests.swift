import StrataArguments
import Testing

@testable import Strata
@testable import StrataFuzzChecks

/// The fuzz checks must be able to fail: each is shown a broken result and must say so.
@Suite struct PropertyCheckTests {
  @Test func coverageCatchesOverlapsSkippedSQLAndWrongLines() throws {
    let bytes = Array("SELECT 1;\nSELECT 2;".utf8)
    func statement(_ range: Range<Int>, line: Int) -> ScriptStatement {
      ScriptStatement(
        sql: String(decoding: bytes[range], as: UTF8.self),
        line: line,
        byteRange: range
      )
    }
    let good = [statement(0..<9, line: 1), statement(10..<19, line: 2)]
    #expect(throws: Never.self) {
      try ScriptRunnerProperties.checkCoverage(good, of: bytes, complete: true)
    }
    let overlapping = [statement(0..<12, line: 1), statement(10..<19, line: 2)]
    #expect(throws: PropertyViolation.self) {
      try ScriptRunnerProperties.checkCoverage(overlapping, of: bytes, complete: true)
    }
    #expect(throws: PropertyViolation.self) {
      try ScriptRunnerProperties.checkCoverage([good[1]], of: bytes, complete: true)
    }
    #expect(throws: PropertyViolation.self) {
      try ScriptRunnerProperties.checkCoverage([good[0]], of: bytes, complete: true)
    }
    #expect(throws: PropertyViolation.self) {
      try ScriptRunnerProperties.checkCoverage(
        [good[0], statement(10..<19, line: 1)],
        of: bytes,
        complete: true
      )
    }
  }

  @Test(arguments: [
    ("", true), (" ;\t;\r\n", true), ("-- c\n/* d */", true), ("/* open", true),
    ("-- c\nX", false), ("/* */ -", false), ("\u{0}", false), ("\u{B}", false),
  ])
  func spaceAndCommentsScanner(text: String, expected: Bool) {
    #expect(ScriptRunnerProperties.isOnlySpaceAndComments(Array(text.utf8)[...]) == expected)
  }

  @Test func csvPositionCheckRejectsAnErrorThatPointsElsewhere() throws {
    let input = Array("a,b\nc,\u{0}".utf8)
    #expect(throws: Never.self) {
      try CSVReaderProperties.checkPosition(of: CSVError(.nulByte, line: 2, column: 3), in: input)
    }
    #expect(throws: PropertyViolation.self) {
      try CSVReaderProperties.checkPosition(of: CSVError(.nulByte, line: 2, column: 2), in: input)
    }
    #expect(throws: PropertyViolation.self) {
      try CSVReaderProperties.checkPosition(of: CSVError(.nulByte, line: 3, column: 1), in: input)
    }
  }

  @Test func csvEncodingReadsBackTheSameRecords() throws {
    let input = Array("\u{FEFF}\u{FEFF}x,\"a \"\"b\"\"\r\nc\",\n\n\"\",é\n".utf8)
    let records = try CSVReader(bytes: input).readAll()
    #expect(
      try CSVReader(bytes: CSVReaderProperties.encode(records)).readAll().map(\.fields)
        == records.map(\.fields)
    )
    #expect(throws: Never.self) { try CSVReaderProperties.check(input) }
  }

  @Test func migrationFoldersDecodeFromNulSeparatedFiles() {
    let files = MigrationFileProperties.decodeFolder(
      Array("0001_a.sql\nSELECT 1;\u{0}\u{0}0002_b.sql\nSELECT\u{0}2;\u{0}\u{0}0001_a.sql\nx".utf8)
    )
    #expect(files.map(\.name) == ["0001_a.sql", "0002_b.sql"])
    #expect(
      files.map { String(decoding: $0.bytes, as: UTF8.self) } == ["SELECT 1;", "SELECT\u{0}2;"]
    )
    #expect(
      MigrationFileProperties.withCRLFAndBOM(Array("a\nb\r\n".utf8))
        == [0xEF, 0xBB, 0xBF] + Array("a\r\nb\r\n".utf8)
    )
  }

  @Test func migrationChecksCatchAPartOutOfPlaceAndAnErrorNamingNoFile() throws {
    let files = [(name: "0001_a.sql", bytes: Array("-- c\nSELECT 1;\n".utf8))]
    let good = try MigrationSet(files: files, directory: MigrationFileProperties.folder).migrations
    #expect(throws: Never.self) { try MigrationFileProperties.checkMigrations(good, of: files) }
    let up = good[0].up
    let moved = Migration(
      version: 1,
      name: "a",
      up: MigrationScript(sql: up.sql, file: up.file, firstLine: 2, isTransactional: true),
      down: nil,
      checksum: good[0].checksum
    )
    #expect(throws: PropertyViolation.self) {
      try MigrationFileProperties.checkMigrations([moved], of: files)
    }
    #expect(throws: PropertyViolation.self) {
      try MigrationFileProperties.checkMigrations([], of: files)
    }
    #expect(throws: PropertyViolation.self) {
      try MigrationFileProperties.checkError(
        .emptyMigration(file: "migrations/0002_b.sql"),
        of: files
      )
    }
    #expect(throws: PropertyViolation.self) {
      try MigrationFileProperties.checkError(
        .invalidMarker(file: "migrations/0001_a.sql", line: 4, reason: "x"),
        of: files
      )
    }
  }

  @Test func argumentChecksCatchWhatTheCommandDoesNotTake() throws {
    let seed = ArgumentParserProperties.specs[3]
    let parsed = try ParsedArguments(["a.csv", "b.csv", "-q"], spec: seed, toolName: "strata")
    #expect(throws: Never.self) {
      try ArgumentParserProperties.checkParsed(
        parsed,
        spec: seed,
        arguments: ["a.csv", "b.csv", "-q"]
      )
    }
    #expect(throws: PropertyViolation.self) {
      try ArgumentParserProperties.checkParsed(
        parsed,
        spec: ArgumentParserProperties.specs[0],
        arguments: ["a.csv", "b.csv", "-q"]
      )
    }
  }

  @Test func usageMessagesMustBeOnePrintableLine() {
    #expect(ArgumentParserProperties.isPrintableLine("unknown option '--x'"))
    #expect(!ArgumentParserProperties.isPrintableLine("unknown option '--x\ny'"))
    #expect(!ArgumentParserProperties.isPrintableLine("got '\u{1B}[2J'"))
    #expect(!ArgumentParserProperties.isPrintableLine("\u{85}"))
  }
}
