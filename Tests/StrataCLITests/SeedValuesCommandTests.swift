import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata seed --null` and `--column`, and BOOLEAN columns, end to end (issue 16): a
/// penguins-like file that writes NA for a missing value and has a header that is not a
/// column's name.
@Suite struct SeedValuesCommandTests {
  static let mapping = ["--column", "Delta 15 N (o/oo)=delta15n"]

  /// The docs' penguins project (`DocSamples.writePenguins`), its penguins.csv replaced by
  /// `csv` when given.
  func project(_ csv: String? = nil) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try DocSamples.writePenguins(into: folder)
    if let csv { try folder.write("penguins.csv", csv) }
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

  func seed(_ folder: TemporaryDirectory, _ extra: [String]) throws -> ProcessResult {
    try StrataProcess.run(
      ["seed", "penguins.csv", "--database", "app.sqlite3"] + extra,
      in: folder.url
    )
  }

  func rows(_ folder: TemporaryDirectory, _ sql: String) throws -> [[SQLValue]] {
    try DatabaseProbe.rows(folder.path("app.sqlite3"), sql)
  }

  @Test func nullAndColumnLoadThePenguinsAndReportEachTokensNulls() throws {
    let folder = try project()
    let run = try seed(folder, ["--null", "NA"] + Self.mapping)
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try rows(folder, "SELECT island, bill_length_mm, delta15n, sex FROM penguins ORDER BY id")
        == [
          [.text("Torgersen"), .real(39.1), .null, .text("male")],
          [.text("Torgersen"), .real(39.5), .real(8.94956), .text("female")],
          [.text("Torgersen"), .null, .null, .null],
          [.text("Biscoe"), .real(46.1), .real(8.63243), .text("female")],
          [.text("Dream"), .real(46.5), .real(9.02657), .text("NA")],
        ]
    )
    #expect(
      run.standardOutput.contains("penguins.csv: NA → NULL in bill_length_mm 1, delta15n 2, sex 1"),
      "\(run.standardOutput)"
    )
  }

  @Test func aDryRunReportsTheNullsPerColumnInTextAndJSONAndChangesNothing() throws {
    let folder = try project()
    let before = try DatabaseFingerprint.of(folder.path("app.sqlite3"))
    let text = try seed(
      folder,
      ["--null", "NA", "--null", "Torgersen", "--dry-run"] + Self.mapping
    )
    #expect(text.exitCode == 0, "\(text.standardError)")
    #expect(text.standardOutput.contains("penguins.csv: Torgersen → NULL in island 3"))
    let json = try seed(
      folder,
      ["--null", "NA", "--null", "Torgersen", "--dry-run", "--format", "json"] + Self.mapping
    )
    #expect(json.exitCode == 0, "\(json.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    let tables = (object as? [String: Any])?["tables"] as? [[String: Any]]
    let counts = tables?.first?["nullCounts"] as? [[String: Any]] ?? []
    let island = counts.first { $0["column"] as? String == "island" }
    #expect(island?["token"] as? String == "Torgersen")
    #expect(island?["count"] as? Int == 3)
    #expect(counts.count == 4, "\(counts)")
    #expect(try DatabaseFingerprint.of(folder.path("app.sqlite3")) == before)
  }

  @Test func withoutNullNAIsATypeErrorWhoseHelpNamesTheFlag() throws {
    let folder = try project()
    let run = try seed(folder, Self.mapping)
    #expect(run.exitCode == 1)
    #expect(
      run.standardError.contains(
        "penguins.csv:2:25: column delta15n (REAL): the value is not a decimal number (it is NA"
      ),
      "\(run.standardError)"
    )
    #expect(run.standardError.contains("declare it as a null token"))
    #expect(run.standardError.contains("(pass --null 'NA')"))
    #expect(try rows(folder, "SELECT count(*) FROM penguins") == [[.integer(0)]])
  }

  @Test func anUnmappedHeaderIsAnErrorWhoseHelpNamesColumn() throws {
    let folder = try project()
    let run = try seed(folder, ["--null", "NA"])
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains("has no column named \"Delta 15 N (o/oo)\""))
    #expect(run.standardError.contains("--column \"CSV header=column\""))
  }

  @Test func aMappingThatDoesNotFitFailsBeforeAnyRowAndSaysWhy() throws {
    let folder = try project()
    let cases: [([String], String)] = [
      (["--column", "Delta 15 N=delta15n"], "header \"Delta 15 N\" is mapped to a column, but"),
      (
        ["--column", "Delta 15 N (o/oo)=delta"],
        "is mapped to column \"delta\", but table penguins has no such column"
      ),
      (
        ["--column", "Delta 15 N (o/oo)=sex", "--column", "sex=sex"],
        "headers \"Delta 15 N (o/oo)\" and \"sex\" are both mapped to column sex"
      ),
    ]
    for (flags, message) in cases {
      let run = try seed(folder, ["--null", "NA"] + flags)
      #expect(run.exitCode == 1, "\(flags)")
      #expect(run.standardError.contains(message), "\(run.standardError)")
      #expect(run.standardError.contains("nothing was seeded"))
    }
    #expect(try rows(folder, "SELECT count(*) FROM penguins") == [[.integer(0)]])
  }

  @Test func aColumnFlagSplitsAtTheLastEqualsSignAndRefusesAMalformedOne() throws {
    let folder = try project("id,species,a=b\n1,Adelie,x\n")
    let run = try seed(folder, ["--column", "a=b=island"])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(try rows(folder, "SELECT island FROM penguins") == [[.text("x")]])
    for bad in ["island", "=island", "a="] {
      let refused = try seed(folder, ["--column", bad])
      #expect(refused.exitCode == 64, "\(bad)")
      #expect(refused.standardError.contains("--column takes \"CSV header=column\""))
    }
    let twice = try seed(folder, ["--column", "a=b=island", "--column", "a=b=sex"])
    #expect(twice.exitCode == 64)
    #expect(twice.standardError.contains("maps header 'a=b' twice"))
  }

  @Test func booleansLoadAsOneAndZeroAndAnythingElseFailsWithItsPosition() throws {
    let folder = try project(
      "id,species,clutch_completion\n1,A,TRUE\n2,A,false\n3,A,1\n4,A,0\n5,A,\n"
    )
    let run = try seed(folder, [])
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try rows(folder, "SELECT clutch_completion FROM penguins ORDER BY id")
        == [[.integer(1)], [.integer(0)], [.integer(1)], [.integer(0)], [.null]]
    )
    try folder.write("penguins.csv", "id,species,clutch_completion\n6,A,true\n7,A,yes\n")
    let before = try DatabaseFingerprint.of(folder.path("app.sqlite3"))
    let refused = try seed(folder, [])
    #expect(refused.exitCode == 1)
    #expect(
      refused.standardError.contains(
        "penguins.csv:3:5: column clutch_completion (BOOLEAN): the value is not true, false, 1 or 0"
      ),
      "\(refused.standardError)"
    )
    #expect(try DatabaseFingerprint.of(folder.path("app.sqlite3")) == before)
  }

  @Test func aNullTokenInANotNullColumnFailsWithItsPosition() throws {
    let folder = try project("id,species\n1,Adelie\n2,NA\n")
    let run = try seed(folder, ["--null", "NA"])
    #expect(run.exitCode == 1)
    #expect(
      run.standardError.contains("penguins.csv:3:3: NOT NULL constraint failed: penguins.species"),
      "\(run.standardError)"
    )
    #expect(try rows(folder, "SELECT count(*) FROM penguins") == [[.integer(0)]])
  }
}
