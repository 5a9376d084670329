import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A file's options are part of what `strata_seeds` records: changing them loads the file
/// again, and a ledger made before options were recorded keeps every file loaded.
@Suite struct SeedLedgerOptionsTests {
  private func seedNew(_ fixture: SeedFixture, _ files: [SeedFile]) throws -> SeedReport {
    try fixture.seeder.seed(files, options: SeedOptions(onlyUnrecorded: true))
  }

  @Test func theLedgerRecordsEachFilesOptionsAndNothingForTheDefaults() throws {
    let fixture = try SeedFixture()
    let people = try fixture.csv("person_info.csv", "id,name,age\n1,Ann,30\n")
    var students = try fixture.csv("student.csv", "stuID,stuName\nS1,Ben\n")
    students.format = SeedFileFormat(nullTokens: ["NA", "-", "NA"], encoding: .windows1252)
    _ = try seedNew(fixture, [people, students])
    let options = try fixture.seeder.ledger().map { [$0.file: $0.options] }
    #expect(
      options == [
        ["person_info.csv": ""],
        [
          "student.csv":
            #"null = ["-", "NA"], encoding = "windows-1252""#
        ],
      ]
    )
    let every = SeedFileFormat(
      nullTokens: ["\\N"],
      delimiter: "\t",
      encoding: .utf16LE,
      columns: ["Name": "stuName", "ID": "stuID"]
    )
    #expect(
      every.ledgerOptions
        == #"null = ["\\N"], delimiter = "\t", encoding = "utf-16le", "#
        + #"columns = { "ID" = "stuID", "Name" = "stuName" }"#
    )
  }

  @Test func changingAFilesOptionsLoadsItAgainAndTheSameOptionsDoNot() throws {
    let fixture = try SeedFixture()
    var people = try fixture.csv("person_info.csv", "id,name,age\n1,Ann,30\n")
    #expect(try seedNew(fixture, [people]).loadedFiles == ["seeds/person_info.csv"])
    #expect(try seedNew(fixture, [people]).loadedFiles.isEmpty)

    people.format.nullTokens = ["NA"]
    #expect(try seedNew(fixture, [people]).loadedFiles == ["seeds/person_info.csv"])
    #expect(try seedNew(fixture, [people]).loadedFiles.isEmpty)
    // The token order does not change what is loaded, so it does not load again.
    people.format.nullTokens = ["NA", "NA"]
    #expect(try seedNew(fixture, [people]).loadedFiles.isEmpty)
    // Back to the defaults: the first load's row matches again.
    people.format = SeedFileFormat()
    #expect(try seedNew(fixture, [people]).loadedFiles.isEmpty)
    #expect(try fixture.seeder.ledger().map(\.options) == ["", #"null = ["NA"]"#])
  }

  /// The exact table and rows strata wrote before options were recorded (commit 58e8a9e):
  /// seeded again, nothing loads; the first run that records a file adds the column, the old
  /// rows with empty options.
  @Test func aLedgerFromBeforeOptionsIsUpgradedInPlaceAndNothingLoadsAgain() throws {
    let fixture = try SeedFixture()
    let people = try fixture.csv("person_info.csv", "id,name,age\n1,Ann,30\n")
    let students = try fixture.csv("student.csv", "stuID,stuName\nS1,Ben\n")
    try fixture.connection.execute(
      """
      CREATE TABLE IF NOT EXISTS strata_seeds (
        file          TEXT NOT NULL,
        checksum      TEXT NOT NULL,
        table_name    TEXT NOT NULL,
        mode          TEXT NOT NULL,
        rows_inserted INTEGER NOT NULL,
        rows_updated  INTEGER NOT NULL,
        applied_at    TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS strata_seeds_checksum ON strata_seeds (checksum, table_name);
      """
    )
    for file in [people, students] {
      try fixture.connection.run(
        "INSERT INTO strata_seeds VALUES (?, ?, ?, 'missing', 1, 0, '2026-01-01T00:00:00Z')",
        [
          .text(file.ledgerName), .text(try Seeder.checksum(of: file.url)), .text(file.table),
        ]
      )
    }
    #expect(try fixture.seeder.ledger().map(\.options) == ["", ""])
    var changed = students
    changed.format.nullTokens = ["NA"]
    // Read before the upgrade: only default options match an old row.
    #expect(
      try fixture.seeder.isRecorded(checksum: Seeder.checksum(of: people.url), table: "person_info")
    )
    #expect(
      try !fixture.seeder.isRecorded(
        checksum: Seeder.checksum(of: students.url),
        table: "student",
        format: changed.format
      )
    )

    let report = try seedNew(fixture, [people, students])
    #expect(report.loadedFiles.isEmpty)
    #expect(report.tables.allSatisfy { $0.alreadyRecorded })
    #expect(try fixture.count("person_info") == 0)
    // A run that loads nothing writes nothing, not even the upgrade.
    let columns = "SELECT name FROM pragma_table_info('strata_seeds')"
    #expect(try fixture.rows(columns).last == [.text("applied_at")])
    // A changed option loads the file, and the ledger gains the column.
    #expect(try seedNew(fixture, [people, changed]).loadedFiles == ["seeds/student.csv"])
    #expect(try fixture.rows(columns).last == [.text("options")])
    #expect(try fixture.seeder.ledger().map(\.options) == ["", "", #"null = ["NA"]"#])
  }
}
