import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Versions of different widths that order differently as numbers and as text are named.
@Suite struct VersionWidthWarningTests {
  @Test(arguments: [
    (["9_a.sql", "10_b.sql"], [["migrations/9_a.sql", "migrations/10_b.sql"]]),
    (["9_a.sql", "0010_b.sql"], [["migrations/9_a.sql", "migrations/0010_b.sql"]]),
    (
      ["1_a.sql", "2_b.sql", "9_c.sql", "10_d.sql", "11_e.sql", "99_f.sql", "100_g.sql"],
      [
        ["migrations/9_c.sql", "migrations/10_d.sql"],
        ["migrations/99_f.sql", "migrations/100_g.sql"],
      ]
    ),
    (["0009_a.sql", "0010_b.sql"], []),
    (["1_a.sql", "2_b.sql"], []),
    (["20240101000000_a.sql", "20240102000000_b.sql"], []),
  ])
  func widthsThatOrderDifferentlyAreNamed(names: [String], pairs: [[String]]) throws {
    let fixture = try MigrationFixture(
      Dictionary(uniqueKeysWithValues: names.map { ($0, "SELECT 1;") })
    )
    let warnings = try fixture.migrator().migrations.versionWidthWarnings
    #expect(warnings.map { [$0.earlier, $0.later] } == pairs)
  }

  @Test func theMessageSaysWhyAndHowToMakeThemAgree() throws {
    let fixture = try MigrationFixture(["9_a.up.sql": "SELECT 1;", "10_b.up.sql": "SELECT 1;"])
    let warnings = try fixture.migrator().migrations.versionWidthWarnings
    #expect(
      warnings.map(\.message) == [
        "migrations/9_a.up.sql (version 9) runs before migrations/10_b.up.sql (version 10), but "
          + "sorted as text '10' comes before '9': versions of different widths order differently "
          + "as numbers and as names (padding them to one width, such as 09 and 10, makes the two "
          + "orders agree)"
      ]
    )
  }

  /// diesel runs versions as text, so the surprise is the numbers: a shorter version runs later.
  @Test func dieselNamesAVersionThatRunsLaterThoughItIsSmaller() throws {
    let fixture = try MigrationFixture([
      "2024-01-02-030405_a/up.sql": "SELECT 1;",
      "2024-01-03_b/up.sql": "SELECT 1;",
      "2024-01-04-000000_c/up.sql": "SELECT 1;",
    ])
    let warnings = try fixture.migrator().migrations.versionWidthWarnings
    #expect(
      warnings.map { [$0.earlier, $0.later] } == [
        ["migrations/2024-01-02-030405_a/up.sql", "migrations/2024-01-03_b/up.sql"]
      ]
    )
    #expect(warnings.first?.message.contains("as diesel orders versions as text") == true)
  }

  /// Flyway compares each part as a number: `1.9` runs before `1.10`, which sorts first as text.
  @Test func flywayNamesPartsOfDifferentWidths() throws {
    let fixture = try MigrationFixture([
      "V1.9__a.sql": "SELECT 1;",
      "V1.10__b.sql": "SELECT 1;",
      "V2__c.sql": "SELECT 1;",
    ])
    let warnings = try fixture.migrator().migrations.versionWidthWarnings
    #expect(
      warnings.map { [$0.earlier, $0.later] } == [
        ["migrations/V1.9__a.sql", "migrations/V1.10__b.sql"]
      ]
    )
    #expect(warnings.first?.message.contains("Flyway compares each part") == true)
  }
}
