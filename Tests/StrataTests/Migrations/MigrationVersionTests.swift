import Foundation
import Testing

@testable import Strata

/// Each ordering compares as its tool does: Flyway's MigrationVersion (parts as unsigned big
/// numbers, trailing zero parts ignored, `_` read as `.`), diesel's string order, and numbers.
@Suite struct MigrationVersionTests {
  @Test func flywayPartsCompareAsNumbersWithMissingPartsZero() throws {
    func v(_ text: String) throws -> MigrationVersion { try MigrationVersion(flyway: text) }
    #expect(try v("1") == v("1.0"))
    #expect(try v("1") == v("1.0.0"))
    #expect(try v("1.01") == v("1.1"))
    #expect(try v("2_1") == v("2.1"))
    #expect(try v("2_1").text == "2.1")
    #expect(try v("1.9") < v("1.10"))
    #expect(try v("1") < v("1.1"))
    #expect(try v("1.1") < v("2"))
    #expect(try v("99999999999999999999999") < v("100000000000000000000000"))
    #expect(try Set([v("1"), v("1.0"), v("001")]).count == 1)
    let sorted = try ["2", "1.10", "1.9", "1", "1.1"].map(v).sorted().map(\.text)
    #expect(sorted == ["1", "1.1", "1.9", "1.10", "2"])
  }

  @Test(arguments: ["", "1.", ".1", "1..2", "1a", "v1", "-1", "+1", "1.2-3"])
  func flywayRefusesWhatFlywayRefuses(text: String) {
    #expect(throws: MigrationVersionError.notDotted(text)) { try MigrationVersion(flyway: text) }
  }

  @Test func dieselComparesAsTextWithDashesRemoved() throws {
    let long = try MigrationVersion(diesel: "2024-01-02-030405")
    #expect(long.text == "20240102030405")
    let short = try MigrationVersion(diesel: "2024-01-03")
    // As strings "20240103" > "20240102030405", though as numbers it is smaller.
    #expect(long < short)
    #expect(throws: MigrationVersionError.empty("--")) { try MigrationVersion(diesel: "--") }
  }

  @Test func integersCompareAsNumbersAndZeroIsBelowEveryVersion() throws {
    #expect(MigrationVersion(integer: 2) < MigrationVersion(integer: 10))
    #expect(MigrationVersion.zero < (try MigrationVersion(flyway: "0")))
    #expect(MigrationVersion.zero < (try MigrationVersion(diesel: "0")))
    #expect(MigrationVersion(integer: 7).integerValue == 7)
    #expect(try MigrationVersion(flyway: "7").integerValue == nil)
  }

  @Test func jsonKeepsIntegersAsNumbers() throws {
    let versions = [MigrationVersion(integer: 3), try MigrationVersion(flyway: "1.1")]
    let json = String(decoding: try JSONEncoder().encode(versions), as: UTF8.self)
    #expect(json == #"[3,"1.1"]"#)
    #expect(try JSONDecoder().decode([MigrationVersion].self, from: Data(json.utf8)) == versions)
  }

  @Test func storedTextReadsBackInItsOrdering() throws {
    for version in [
      MigrationVersion(integer: 12), try MigrationVersion(diesel: "20240101"),
      try MigrationVersion(flyway: "1.2.3"),
    ] {
      #expect(try MigrationVersion(text: version.text, ordering: version.ordering) == version)
    }
    #expect(throws: MigrationVersionError.notNumeric("1.1")) {
      try MigrationVersion(text: "1.1", ordering: .numeric)
    }
  }
}
