import Foundation
import Strata
import StrataTestSupport
import Testing

/// Seed files that can be read only once (issue 10, item 13): standard input as `-` or
/// `/dev/stdin`, and a named FIFO, through the real binary under a timeout (a second open of
/// a FIFO would block forever).
@Suite struct SeedStandardInputTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A migrated sample project with a people.csv of `rows` rows (more than a pipe holds).
  func project(rows: Int = 20_000) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      at: Self.repository.appendingPathComponent("migrations"),
      to: folder.path("migrations")
    )
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    var text = "name,age\n"
    for row in 1...rows { text += "Person \(row),\(row % 90)\n" }
    try folder.write("people.csv", text)
    return folder
  }

  /// Every row loaded, and one ledger row with the checksum of the bytes that came in.
  func expectLoaded(_ folder: TemporaryDirectory, rows: Int = 20_000) throws {
    let database = folder.path("app.sqlite3")
    #expect(try DatabaseProbe.integer(database, "SELECT count(*) FROM person_info") == Int64(rows))
    #expect(
      try DatabaseProbe.integer(
        database,
        "SELECT age FROM person_info WHERE name = 'Person \(rows)'"
      )
        == Int64(rows % 90)
    )
    let ledger = try DatabaseProbe.rows(
      database,
      "SELECT checksum, table_name, rows_inserted FROM strata_seeds"
    )
    let checksum = try Seeder.checksum(of: folder.path("people.csv"))
    #expect(ledger == [[.text(checksum), .text("person_info"), .integer(Int64(rows))]])
  }

  @Test(arguments: ["-", "/dev/stdin"])
  func aPipeIntoSeedLoadsEveryRowAndRecordsALedgerRow(file: String) throws {
    let folder = try project()
    let run = try SpawnedProcess.shell(
      "cat people.csv | \"$STRATA\" seed \(file) --table person_info --database app.sqlite3",
      in: folder.url
    )
    #expect(run.finished, "strata did not finish reading the pipe")
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("20000 inserted"), "\(run.standardOutput)")
    try expectLoaded(folder)
  }

  @Test func aFileRedirectedToStandardInputLoadsToo() throws {
    let folder = try project(rows: 10)
    let run = try SpawnedProcess.run(
      StrataProcess.executable.path,
      ["seed", "-", "--table", "person_info", "--database", "app.sqlite3"],
      in: folder.url,
      input: folder.path("people.csv").path
    )
    #expect(run.exitCode == 0, "\(run.standardError)")
    try expectLoaded(folder, rows: 10)
  }

  @Test func aNamedFIFOGivenAsTheSeedFileIsReadOnce() throws {
    let folder = try project()
    #expect(mkfifo(folder.path("people.fifo").path, 0o600) == 0)
    let run = try SpawnedProcess.shell(
      "cat people.csv > people.fifo & "
        + "\"$STRATA\" seed people.fifo --table person_info --database app.sqlite3; "
        + "status=$?; wait; exit $status",
      in: folder.url,
      timeout: .seconds(60)
    )
    #expect(run.finished, "strata hung on the FIFO")
    #expect(run.exitCode == 0, "\(run.standardError)")
    try expectLoaded(folder)
  }

  @Test func standardInputNeedsATableName() throws {
    let folder = try project(rows: 1)
    let run = try SpawnedProcess.shell(
      "cat people.csv | \"$STRATA\" seed - --database app.sqlite3",
      in: folder.url
    )
    #expect(run.exitCode == 64)
    #expect(run.standardError.contains("--table"), "\(run.standardError)")
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM person_info")
        == 0
    )
  }

  @Test func aBadRowOnStandardInputNamesStandardInputAndItsLine() throws {
    let folder = try project(rows: 1)
    try folder.write("bad.csv", "name,age\nAda,36\nBob,old\n")
    let run = try SpawnedProcess.shell(
      "cat bad.csv | \"$STRATA\" seed - --table person_info --database app.sqlite3",
      in: folder.url
    )
    #expect(run.exitCode == 1)
    #expect(run.standardError.contains("standard input:3:5"), "\(run.standardError)")
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM person_info")
        == 0
    )
  }
}
