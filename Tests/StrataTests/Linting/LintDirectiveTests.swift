import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// `-- strata:allow RULE`: it silences exactly the named rules for exactly the next statement,
/// an unknown name is a finding, and directive lines never change a checksum.
@Suite struct LintDirectiveTests {
  @Test func theDirectiveSilencesTheNamedRuleForTheNextStatementOnly() throws {
    let fixture = try LintFixture(
      up: """
        -- strata:allow drop-table
        DROP TABLE pet;
        DROP TABLE person;
        """
    )
    #expect(try fixture.found() == ["0002_change.sql:4 drop-table"])
  }

  @Test func theDirectiveSilencesOnlyTheRulesItNames() throws {
    let fixture = try LintFixture(
      up: """
          --   strata:allow   drop-column,insert-or-replace
        DROP TABLE pet;
        -- strata:allow drop-table, data-with-schema-change
        INSERT OR REPLACE INTO person VALUES (1, 'a');
        """
    )
    #expect(
      try fixture.found() == [
        "0002_change.sql:3 drop-table", "0002_change.sql:5 insert-or-replace",
      ]
    )
  }

  @Test func aCommentThatIsNotAloneOnItsLineIsNoDirective() throws {
    let fixture = try LintFixture(up: "SELECT 1; -- strata:allow drop-table\nDROP TABLE pet;")
    #expect(try fixture.found() == ["0002_change.sql:3 drop-table"])
  }

  @Test func anUnknownRuleNameIsAFinding() throws {
    let fixture = try LintFixture(
      up: "-- strata:allow drop-tables\nDROP TABLE pet;\n-- strata:allow"
    )
    let findings = try fixture.lint().findings
    #expect(
      findings.map { "\($0.line) \($0.rule.rawValue)" } == [
        "2 unknown-rule", "3 drop-table", "4 unknown-rule",
      ]
    )
    #expect(findings.first?.message.contains("'drop-tables'") == true)
    #expect(findings.first?.help.contains("drop-table, drop-column") == true)
  }

  @Test func aDirectiveLineDoesNotCountTowardTheChecksum() throws {
    let plain = "CREATE TABLE a (x);\nDROP TABLE b;\n"
    let allowed = "CREATE TABLE a (x);\n  -- strata:allow drop-table, drop-column\nDROP TABLE b;\n"
    #expect(MigrationSet.checksum(ofUp: plain) == MigrationSet.checksum(ofUp: allowed))
    #expect(
      MigrationSet.checksum(ofUp: "-- strata:allow drop-table\nDROP TABLE b;")
        == MigrationSet.checksum(ofUp: "DROP TABLE b;")
    )
    // A comment that only mentions it still counts.
    #expect(
      MigrationSet.checksum(ofUp: "DROP TABLE b; -- strata:allow drop-table")
        != MigrationSet.checksum(ofUp: "DROP TABLE b;")
    )
  }

  @Test func aFileWithoutDirectivesKeepsItsChecksum() throws {
    let sql = "CREATE TABLE a (x);\n-- strata: allowed? no\nDROP TABLE b;"
    #expect(MigrationSet.checksum(ofUp: sql) == SHA256.hex(Array(sql.utf8)))
  }

  @Test func filesWithAndWithoutDirectivesHaveTheSameChecksumInEveryFormat() throws {
    let dir = try TemporaryDirectory()
    let folders: [(String, String, String)] = [
      ("dbmate", "0001_a.sql", "-- migrate:up\n{SQL}\n-- migrate:down\nSELECT 1;\n"),
      ("goose", "00001_a.sql", "-- +goose Up\n{SQL}\n-- +goose Down\nSELECT 1;\n"),
      ("sqlmigrate", "1_a.sql", "-- +migrate Up\n{SQL}\n-- +migrate Down\nSELECT 1;\n"),
    ]
    for (name, file, template) in folders {
      var sums: [String] = []
      for sql in ["DROP TABLE b;", "-- strata:allow drop-table\nDROP TABLE b;"] {
        let folder = "\(name)-\(sums.count)"
        try FileManager.default.createDirectory(
          at: dir.path(folder),
          withIntermediateDirectories: true
        )
        try dir.write("\(folder)/\(file)", template.replacingOccurrences(of: "{SQL}", with: sql))
        sums.append(try MigrationSet(directory: dir.path(folder)).migrations[0].checksum)
      }
      #expect(sums[0] == sums[1], "\(name)")
      #expect(sums[0] == MigrationSet.checksum(ofUp: "DROP TABLE b;"), "\(name)")
    }
  }
}
