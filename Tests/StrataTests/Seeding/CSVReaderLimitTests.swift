import Foundation
import Strata
import StrataTestSupport
import Testing

/// The reader's size limit (issue 10, item 8): a field or a record larger than
/// `maximumFieldBytes` fails where it starts, wherever the chunks end, and long runs of input
/// that hold no record (blank lines) are read without holding them.
@Suite struct CSVReaderLimitTests {
  static let chunkSizes = [1, 3, 64, 1 << 20]

  func failure(_ text: String, limit: Int, chunkSize: Int) -> CSVError? {
    ChunkedCSV.failure(text, chunkSize: chunkSize, maximumFieldBytes: limit)
  }

  @Test(arguments: chunkSizes)
  func aFieldOverTheLimitFailsWhereItStarts(chunkSize: Int) throws {
    let long = String(repeating: "x", count: 200)
    let error = try #require(
      failure("name,age\nAda,36\nBé,\(long)\n", limit: 100, chunkSize: chunkSize)
    )
    #expect(error.problem == .fieldTooLarge)
    #expect((error.line, error.column) == (3, 4))
    #expect(error.limit == 100)
    #expect(error.reason.contains("larger than 100 bytes"))

    let quoted = try #require(
      failure("name,age\n\"\(long)\",1\n", limit: 100, chunkSize: chunkSize)
    )
    #expect(quoted.problem == .quotedFieldTooLarge)
    #expect((quoted.line, quoted.column) == (2, 1))
    // At the limit is still fine.
    let exact = String(repeating: "y", count: 100)
    let quotedFits = String(repeating: "q", count: 98)
    #expect(failure("a\n\(exact)\n\"\(quotedFits)\"\n", limit: 100, chunkSize: chunkSize) == nil)
  }

  @Test(arguments: chunkSizes)
  func anUnterminatedQuoteFailsAtTheLimitNamingTheOpeningQuote(chunkSize: Int) throws {
    let rows = String(repeating: "Person,20\n", count: 2_000)
    let error = try #require(
      failure("name,age\nAda,36\nBob,\"37\n" + rows, limit: 1_000, chunkSize: chunkSize)
    )
    #expect(error.problem == .quotedFieldTooLarge)
    #expect((error.line, error.column) == (3, 5))
    #expect(error.reason.contains("does not close within 1000 bytes"))
    // Within the limit, the end of the input reports the unterminated quote as before.
    let short = try #require(
      failure("name,age\nBob,\"37\n" + rows, limit: 1 << 20, chunkSize: chunkSize)
    )
    #expect(short.problem == .unterminatedQuote)
    #expect((short.line, short.column) == (2, 5))
  }

  @Test(arguments: chunkSizes)
  func aRecordOverTheLimitFailsAtItsStartThoughEachFieldFits(chunkSize: Int) throws {
    let field = String(repeating: "z", count: 60)
    let error = try #require(
      failure("a,b,c\n1,2,3\n\(field),\(field),\(field)\n", limit: 100, chunkSize: chunkSize)
    )
    #expect(error.problem == .recordTooLarge)
    #expect((error.line, error.column) == (3, 1))
  }

  @Test(arguments: chunkSizes)
  func longRunsOfBlankLinesGiveTheSameRecordsAcrossRefills(chunkSize: Int) throws {
    let text =
      "a,b\n1,2\n" + String(repeating: "\n", count: 500) + "3,4\r\n"
      + String(repeating: "\r\n", count: 300) + "5,6\r" + String(repeating: "\r", count: 40)
      + "7,8\n" + String(repeating: "\n", count: 700)
    let expected = try ChunkedCSV.read(Array(text.utf8), chunkSize: 1 << 20)
    let records = try ChunkedCSV.read(Array(text.utf8), chunkSize: chunkSize)
    #expect(records == expected)
    #expect(records.count == 1 + 1 + 500 + 1 + 300 + 1 + 40 + 1)
    #expect(records.last?.line == 1 + 1 + 500 + 1 + 300 + 1 + 40 + 1)
    let batched = try CSVReader(bytes: Array(text.utf8), chunkSize: chunkSize)
      .readAllInBatches(recordsPerBatch: 7)
    #expect(batched == expected)
  }
}
