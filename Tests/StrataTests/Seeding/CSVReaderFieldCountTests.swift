import Foundation
import Strata
import Testing

/// The reader's field count limit (issue 10, item 8): each field costs memory however few bytes
/// it has, so a record with more fields than any row can have (or, once the header is read,
/// than the header) fails at its first extra field, wherever the chunks end, without the rest
/// of the record being read.
@Suite struct CSVReaderFieldCountTests {
  static let chunkSizes = [3, 64, 1 << 20]

  func failure(_ text: String, chunkSize: Int, headerWidth: Int? = nil) -> CSVError? {
    ChunkedCSV.failure(text, chunkSize: chunkSize, headerWidth: headerWidth)
  }

  @Test(arguments: chunkSizes)
  func aRecordWiderThanAnySQLiteRowFailsAtItsFirstExtraField(chunkSize: Int) throws {
    let limit = CSVReader.maximumFieldCountLimit
    #expect(limit == 32_767)
    let fits = String(repeating: ",", count: limit - 1)
    #expect(failure("a\n\(fits)\n", chunkSize: chunkSize) == nil)

    let error = try #require(failure("a\n\(fits),x\n", chunkSize: chunkSize))
    #expect(error.problem == .tooManyFields)
    #expect((error.line, error.column) == (2, limit + 1))
    #expect(error.limit == limit)
    #expect(error.reason.contains("field 32768 starts here, but a record may have at most 32767"))

    // Quoted empty fields and one-byte fields count the same way, in the header too.
    let quoted = String(repeating: "\"\",", count: limit) + "\"\"\n"
    let quotedError = try #require(failure(quoted, chunkSize: chunkSize))
    #expect(quotedError.problem == .tooManyFields)
    #expect((quotedError.line, quotedError.column) == (1, 3 * limit + 1))
  }

  @Test(arguments: chunkSizes)
  func afterTheHeaderARecordWithMoreFieldsFailsAtTheFirstExtraOne(chunkSize: Int) throws {
    let commas = try #require(
      failure(
        "a,b\n1,2\n" + String(repeating: ",", count: 100_000) + "\n",
        chunkSize: chunkSize,
        headerWidth: 2
      )
    )
    #expect(commas.problem == .moreFieldsThanHeader)
    #expect((commas.line, commas.column) == (3, 3))
    #expect(commas.limit == 2)
    #expect(commas.reason == "too many fields: field 3 starts here, but the header has 2")

    let quoted = try #require(
      failure("a,b\n\"x\n\",\"\",\"\"\n", chunkSize: chunkSize, headerWidth: 2)
    )
    #expect(quoted.problem == .moreFieldsThanHeader)
    #expect((quoted.line, quoted.column) == (3, 6))

    // As many fields as the header, fewer (the seeder's error), and blank lines still read.
    #expect(failure("a,b\n1,2\n\n3\n4,5\n", chunkSize: chunkSize, headerWidth: 2) == nil)
  }
}
