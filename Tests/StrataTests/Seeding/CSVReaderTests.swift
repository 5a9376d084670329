import Foundation
import Strata
import StrataTestSupport
import Testing

/// The reader against the edge cases of the CSV reference (§2), each read with chunk sizes that
/// put a refill at every possible byte, so no case depends on where a chunk ends.
@Suite struct CSVReaderTests {
  static let chunkSizes = [1, 2, 3, 5, 64, 1 << 20]

  func read(_ bytes: [UInt8], chunkSize: Int) throws -> [CSVRecord] {
    try ChunkedCSV.read(bytes, chunkSize: chunkSize)
  }

  func read(_ text: String, chunkSize: Int) throws -> [[String]] {
    try read(Array(text.utf8), chunkSize: chunkSize).map { $0.fields.map(\.text) }
  }

  func error(_ bytes: [UInt8], chunkSize: Int) -> CSVError? {
    ChunkedCSV.failure(bytes, chunkSize: chunkSize)
  }

  @Test(arguments: chunkSizes)
  func lineEndingsLFCRLFAndLoneCRGiveTheSameRecords(chunkSize: Int) throws {
    let expected = [["a", "b"], ["1", "2"]]
    #expect(try read("a,b\n1,2\n", chunkSize: chunkSize) == expected)
    #expect(try read("a,b\r\n1,2\r\n", chunkSize: chunkSize) == expected)
    #expect(try read("a,b\r1,2\r", chunkSize: chunkSize) == expected)
    #expect(try read("a,b\n1,2", chunkSize: chunkSize) == expected)
    #expect(try read("a,b\r\n1,2\n3,4\r", chunkSize: chunkSize) == expected + [["3", "4"]])
  }

  @Test(arguments: chunkSizes)
  func trailingBlankLinesAreIgnored(chunkSize: Int) throws {
    #expect(try read("a,b\n1,2\n\n\n", chunkSize: chunkSize) == [["a", "b"], ["1", "2"]])
    #expect(try read("a,b\r\n1,2\r\n\r\n\r\n", chunkSize: chunkSize) == [["a", "b"], ["1", "2"]])
  }

  @Test(arguments: chunkSizes)
  func aBlankLineInsideTheFileIsARecordOfOneEmptyField(chunkSize: Int) throws {
    let records = try read(Array("a,b\n1,2\n\n\n3,4\n".utf8), chunkSize: chunkSize)
    #expect(records.map(\.line) == [1, 2, 3, 4, 5])
    #expect(records[2].fields == [CSVField(bytes: [], isQuoted: false)])
    #expect(records[4].fields.map(\.text) == ["3", "4"])
  }

  @Test(arguments: chunkSizes)
  func aByteOrderMarkIsStripped(chunkSize: Int) throws {
    #expect(
      try read([0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8), chunkSize: chunkSize)[0]
        .fields.map(\.text) == ["a", "b"]
    )
    #expect(
      try read([0xEF, 0xBB, 0xBF] + Array("\"a\",\"b\"\n1,2\n".utf8), chunkSize: chunkSize)[0]
        .fields.map(\.text) == ["a", "b"]
    )
  }

  @Test(arguments: chunkSizes)
  func quotedFieldsKeepCommasQuotesAndLineBreaksByteForByte(chunkSize: Int) throws {
    #expect(try read("a,b\n1,\"x,y\"\n", chunkSize: chunkSize)[1] == ["1", "x,y"])
    #expect(
      try read("a,b\n1,\"say \"\"hi\"\"\"\n", chunkSize: chunkSize)[1] == ["1", "say \"hi\""]
    )
    #expect(try read("a,b\n1,\"x\ny\"\n", chunkSize: chunkSize)[1] == ["1", "x\ny"])
    let crlf = try read(Array("a,b\r\n1,\"x\r\ny\"\r\n".utf8), chunkSize: chunkSize)
    #expect(crlf[1].fields[1].bytes == Array("x\r\ny".utf8))
    let loneCR = try read(Array("a\n\"x\ry\"\n".utf8), chunkSize: chunkSize)
    #expect(loneCR[1].fields[0].bytes == Array("x\ry".utf8))
    #expect(try read("a\n\"\"\"\"\"\"\n", chunkSize: chunkSize)[1] == ["\"\""])
  }

  @Test(arguments: chunkSizes)
  func anUnquotedEmptyFieldDiffersFromAQuotedEmptyOne(chunkSize: Int) throws {
    let record = try read(Array("a,b,c\n1,,\"\"\n".utf8), chunkSize: chunkSize)[1]
    #expect(record.fields[1] == CSVField(bytes: [], isQuoted: false))
    #expect(record.fields[2] == CSVField(bytes: [], isQuoted: true))
  }

  @Test(arguments: chunkSizes)
  func spacesAreDataAndATrailingCommaIsAnEmptyField(chunkSize: Int) throws {
    #expect(try read("a,b\n 1 , x \n", chunkSize: chunkSize)[1] == [" 1 ", " x "])
    #expect(try read("a,b\n1,2,\n", chunkSize: chunkSize)[1] == ["1", "2", ""])
  }

  @Test(arguments: chunkSizes)
  func recordsKnowTheirPhysicalLine(chunkSize: Int) throws {
    let records = try read(Array("a\n\"x\ny\"\nz\n\"p\r\nq\r\nr\"\ns\n".utf8), chunkSize: chunkSize)
    #expect(records.map(\.line) == [1, 2, 4, 5, 8])
  }

  @Test(arguments: chunkSizes)
  func aTwoHundredKilobyteFieldIsOneField(chunkSize: Int) throws {
    let big = String(repeating: "x", count: 200_000)
    let records = try read("a,b\n1,\(big)\n2,\"\(big)\"\n", chunkSize: chunkSize)
    #expect(records[1][1].utf8.count == 200_000)
    #expect(records[2][1] == big)
  }

  @Test func emptyInputHasNoRecordsAndAHeaderOnlyFileHasOne() throws {
    #expect(try read([], chunkSize: 4).isEmpty)
    #expect(try read([0xEF, 0xBB, 0xBF], chunkSize: 4).isEmpty)
    #expect(try read("\n\n", chunkSize: 4).isEmpty)
    #expect(try read("a,b\n", chunkSize: 4) == [["a", "b"]])
  }

  // MARK: - Strict errors, with line and column

  @Test(arguments: chunkSizes)
  func anUnterminatedQuoteIsReportedWhereItOpens(chunkSize: Int) {
    #expect(
      error(Array("a,b\n1,\"x\n2,3\n".utf8), chunkSize: chunkSize)
        == CSVError(.unterminatedQuote, line: 2, column: 3)
    )
  }

  @Test(arguments: chunkSizes)
  func textAfterAClosingQuoteIsAnError(chunkSize: Int) {
    #expect(
      error(Array("a,b\n1,\"x\"y\n".utf8), chunkSize: chunkSize)
        == CSVError(.textAfterClosingQuote, line: 2, column: 6)
    )
  }

  @Test(arguments: chunkSizes)
  func aQuoteInsideAnUnquotedFieldIsAnError(chunkSize: Int) {
    #expect(
      error(Array("a,b\n1,x\"y\n".utf8), chunkSize: chunkSize)
        == CSVError(.quoteInUnquotedField, line: 2, column: 4)
    )
  }

  @Test func aSpaceBeforeAnOpeningQuoteMakesTheQuoteBare() {
    #expect(
      error(Array("a,b\n1, \"x\"\n".utf8), chunkSize: 2)
        == CSVError(.quoteInUnquotedField, line: 2, column: 4)
    )
  }

  @Test(arguments: chunkSizes)
  func aNulByteIsAnError(chunkSize: Int) {
    #expect(
      error(Array("a,b\n1,x".utf8) + [0] + Array("y\n".utf8), chunkSize: chunkSize)
        == CSVError(.nulByte, line: 2, column: 4)
    )
  }

  @Test(arguments: chunkSizes)
  func invalidUTF8IsReportedAtTheBadByte(chunkSize: Int) {
    #expect(
      error(Array("a,b\n1,caf".utf8) + [0xE9] + Array("\n".utf8), chunkSize: chunkSize)
        == CSVError(.invalidUTF8, line: 2, column: 6)
    )
    // Columns count characters: "é" is one.
    #expect(
      error(Array("a,b\né,x\"".utf8), chunkSize: chunkSize)
        == CSVError(.quoteInUnquotedField, line: 2, column: 4)
    )
    // An overlong encoding and a surrogate are not UTF-8.
    #expect(error([0xC0, 0xAF], chunkSize: chunkSize)?.problem == .invalidUTF8)
    #expect(error([0xED, 0xA0, 0x80], chunkSize: chunkSize)?.problem == .invalidUTF8)
  }

  @Test func utf16IsRefusedWithItsOwnReason() {
    let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0x00, 0x2C, 0x00, 0x62, 0x00]
    #expect(error(bytes, chunkSize: 1 << 20) == CSVError(.utf16, line: 1, column: 1))
  }

  @Test func errorsInLaterLinesCountLinesInsideQuotedFields() {
    #expect(
      error(Array("a\n\"x\r\ny\"\n\"p\"q\n".utf8), chunkSize: 3)
        == CSVError(.textAfterClosingQuote, line: 4, column: 4)
    )
  }

  @Test func aFileIsReadInChunksAndChecksummed() throws {
    let folder = try TemporaryDirectory()
    let text = "name,age\n" + (1...5_000).map { "\"Person, \($0)\",\($0 % 90)\n" }.joined()
    let url = try folder.write("people.csv", text)
    let reader = try CSVReader(url: url, chunkSize: 4096, computeChecksum: true)
    let records = try reader.readAll()
    #expect(records.count == 5_001)
    #expect(records[5_000].fields.map(\.text) == ["Person, 5000", "50"])
    #expect(try reader.checksum() == SHA256.hex(Array(text.utf8)))
  }
}
