import Foundation
import Strata
import StrataTestSupport
import Testing

/// Missing-value tokens, BOOLEAN columns and header names (issue 16), through the library.
@Suite struct SeedFileFormatValueTests {
  static let penguins =
    "CREATE TABLE penguins (id INTEGER PRIMARY KEY, species TEXT NOT NULL, island TEXT, "
    + "bill_length_mm REAL, delta15n REAL, body_mass_g INTEGER NOT NULL DEFAULT 0, "
    + "alive BOOLEAN, tagged BOOL);"

  func file(
    _ fixture: SeedFixture,
    _ text: String,
    nulls: [String] = [],
    columns: [String: String] = [:]
  ) throws -> SeedFile {
    var file = try fixture.csv("penguins.csv", text)
    file.format.nullTokens = nulls
    file.format.columns = columns
    return file
  }

  @Test func anUnquotedNullTokenIsNullAndAQuotedOneStaysText() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let file = try file(
      fixture,
      "id,species,island,bill_length_mm\n1,Adelie,NA,NA\n2,Gentoo,\"NA\",46.1\n3,Adelie,,-\n",
      nulls: ["NA", "-"]
    )
    let report = try fixture.seed([file])
    #expect(
      try fixture.rows("SELECT island, bill_length_mm FROM penguins ORDER BY id") == [
        [.null, .null], [.text("NA"), .real(46.1)], [.null, .null],
      ]
    )
    #expect(
      report.tables.first?.nullCounts == [
        SeedNullCount(column: "island", token: "NA", count: 1),
        SeedNullCount(column: "bill_length_mm", token: "NA", count: 1),
        SeedNullCount(column: "bill_length_mm", token: "-", count: 1),
      ]
    )
  }

  @Test func aDryRunCountsTheFieldsEachTokenMadeNullPerColumn() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let file = try file(
      fixture,
      "id,species,island\n1,NA,NA\n2,Adelie,NA\n3,Gentoo,Biscoe\n",
      nulls: ["NA"]
    )
    do {
      _ = try fixture.seeder.seed([file], options: SeedOptions(dryRun: true))
      Issue.record("species NA must fail NOT NULL")
    } catch let error as SeedError {
      #expect(error.message.contains("seeds/penguins.csv:2"), "\(error.message)")
      #expect(error.message.contains("NOT NULL constraint failed: penguins.species"))
      #expect(error.help.contains("null token"))
    }
    let valid = try self.file(
      fixture,
      "id,species,island\n1,Adelie,NA\n2,Adelie,NA\n3,Gentoo,Biscoe\n",
      nulls: ["NA"]
    )
    let report = try fixture.seeder.seed([valid], options: SeedOptions(dryRun: true))
    #expect(
      report.tables.first?.nullCounts == [SeedNullCount(column: "island", token: "NA", count: 2)]
    )
    #expect(try fixture.count("penguins") == 0)
  }

  @Test func withoutNullTokensNAInARealColumnNamesTheToken() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let file = try file(fixture, "id,species,bill_length_mm\n1,Adelie,39.1\n2,Adelie,NA\n")
    let error = fixture.seedError([file])
    #expect(
      error
        == .missingValueToken(
          file: "seeds/penguins.csv",
          line: 3,
          column: 10,
          name: "bill_length_mm",
          type: "REAL",
          problem: .notNumber,
          token: "NA"
        )
    )
    #expect(error?.help.contains("declare it as a null token") == true)
    #expect(error?.help.contains("--") == false)
    #expect(try fixture.count("penguins") == 0)
  }

  @Test func aQuotedNAOrAnotherWordIsAPlainTypeError() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let quoted = try file(fixture, "id,species,bill_length_mm\n1,Adelie,\"NA\"\n")
    guard case .invalidValue = fixture.seedError([quoted]) else {
      Issue.record("a quoted NA is text, not a missing value")
      return
    }
    let word = try file(fixture, "id,species,bill_length_mm\n1,Adelie,long\n")
    guard case .invalidValue = fixture.seedError([word]) else {
      Issue.record("long is not a missing-value token")
      return
    }
  }

  @Test func booleansTakeTrueFalseInAnyCaseAndOneOrZero() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let file = try file(
      fixture,
      "id,species,alive,tagged\n1,A,TRUE,false\n2,A,True,FALSE\n3,A,1,0\n4,A,,tRuE\n"
    )
    _ = try fixture.seed([file])
    #expect(
      try fixture.rows("SELECT alive, tagged, typeof(alive) FROM penguins ORDER BY id") == [
        [.integer(1), .integer(0), .text("integer")],
        [.integer(1), .integer(0), .text("integer")],
        [.integer(1), .integer(0), .text("integer")],
        [.null, .integer(1), .text("null")],
      ]
    )
  }

  @Test(arguments: ["yes", "2", "t", "\"\"", "truee", "-1", " true"])
  func anythingElseInABooleanColumnIsAnErrorWithItsPosition(_ value: String) throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let file = try file(fixture, "id,species,alive\n1,A,true\n2,A,\(value)\n")
    let error = fixture.seedError([file])
    #expect(
      error
        == .invalidValue(
          file: "seeds/penguins.csv",
          line: 3,
          column: 5,
          name: "alive",
          type: "BOOLEAN",
          problem: .notBoolean
        )
    )
    #expect(try fixture.count("penguins") == 0)
  }

  @Test func aHeaderMapsToItsColumn() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let file = try file(
      fixture,
      "id,species,Delta 15 N (o/oo),a=b\n1,Adelie,8.94,x\n",
      columns: ["Delta 15 N (o/oo)": "delta15n", "a=b": "island"]
    )
    _ = try fixture.seed([file])
    #expect(
      try fixture.rows("SELECT delta15n, island FROM penguins") == [[.real(8.94), .text("x")]]
    )
  }

  @Test func aMappingThatDoesNotFitIsAnErrorBeforeAnyRow() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let text = "id,species,Delta 15 N (o/oo)\n1,Adelie,8.94\n"
    let absent = try file(fixture, text, columns: ["Delta 15 N": "delta15n"])
    #expect(
      fixture.seedError([absent])
        == .columnMapping(
          file: "seeds/penguins.csv",
          table: "penguins",
          problem: .headerNotInFile(header: "Delta 15 N")
        )
    )
    let unknown = try file(fixture, text, columns: ["Delta 15 N (o/oo)": "delta"])
    guard
      case .columnMapping(_, _, .noSuchColumn(let header, let column, _)) = fixture.seedError([
        unknown
      ])
    else {
      Issue.record("an unknown column must fail")
      return
    }
    #expect(header == "Delta 15 N (o/oo)" && column == "delta")
    let twice = try file(
      fixture,
      "id,species,d1,d2\n1,A,1,2\n",
      columns: ["d1": "delta15n", "d2": "delta15n"]
    )
    #expect(
      fixture.seedError([twice])
        == .columnMapping(
          file: "seeds/penguins.csv",
          table: "penguins",
          problem: .sameColumn(column: "delta15n", headers: ["d1", "d2"])
        )
    )
    #expect(try fixture.count("penguins") == 0)
  }

  @Test func aNullTokenInTheKeyOfAnUpsertIsAnEmptyKey() throws {
    let fixture = try SeedFixture(schema: Self.penguins)
    let file = try file(fixture, "id,species\n1,Adelie\nNA,Gentoo\n", nulls: ["NA"])
    #expect(
      fixture.seedError([file], mode: .upsert)
        == .emptyKey(file: "seeds/penguins.csv", line: 3, column: 1, name: "id", mode: .upsert)
    )
    #expect(try fixture.count("penguins") == 0)
  }
}
