import Foundation
import Strata
import StrataDqlite
import StrataTestSupport
import Testing

/// Over the wire, a file loading into an empty table does not record its keys as it goes (a
/// second request for every batch): every row must go in, and a row left out sends the file
/// through the usual load, which names the lines. Truth is the same folder seeded into a file:
/// the rows, the counts and every message are a file's.
@Suite(
  .serialized,
  .enabled(if: DqliteCluster.isAvailable, Comment(rawValue: DqliteCluster.skipReason))
)
struct DqliteSeedKeysTests {
  let cluster: DqliteCluster

  init() throws { cluster = try DqliteCluster.shared.get() }

  static let create = """
    CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER);
    CREATE TABLE audit (person INTEGER PRIMARY KEY);
    """

  /// The folder seeded into a new cluster database and into a file: what each returned or
  /// threw (its message, with the folder's path), and the rows each holds after.
  func seedBoth(
    _ name: String,
    csv: String,
    before: String = "",
    mode: SeedMode = .missing
  ) throws -> (
    cluster: Result<SeedReport, any Error>, file: Result<SeedReport, any Error>,
    clusterRows: [[SQLValue]], fileRows: [[SQLValue]], requests: Int
  ) {
    let folder = try TemporaryDirectory()
    try folder.write("seeds/person.csv", csv)
    let cluster = try DqliteDatabase(nodes: self.cluster.addresses, name: "seedkeys-\(name)")
    let file = try Connection(path: folder.path("truth.sqlite3").path)
    for database in [cluster as any SQLDatabase, file] {
      try database.execute(Self.create)
      if !before.isEmpty { try database.execute(before) }
    }
    let options = SeedOptions(mode: mode)
    let sent = cluster.requestsSent
    let overTheWire = Result {
      try Seeder(database: cluster).seed(directory: folder.path("seeds"), options: options)
    }
    let requests = cluster.requestsSent - sent
    let onAFile = Result {
      try Seeder(database: file).seed(directory: folder.path("seeds"), options: options)
    }
    let query = "SELECT * FROM person ORDER BY id"
    return (overTheWire, onAFile, try cluster.rows(query, []), try file.rows(query, []), requests)
  }

  func message(_ result: Result<SeedReport, any Error>) -> String? {
    guard case .failure(let error) = result else { return nil }
    return (error as? any StrataError)?.message ?? "\(error)"
  }

  @Test func aFileIntoAnEmptyTableIsOneRequestABatchAndLoadsAsOnAFile() throws {
    var csv = "id,name,age\n"
    for id in 1...6_430 { csv += "\(id),Person \(id),\(20 + id % 60)\n" }
    let seeded = try seedBoth("empty", csv: csv)
    let report = try seeded.cluster.get()
    #expect(report.inserted == 6_430)
    #expect(report.inserted == (try seeded.file.get()).inserted)
    #expect(seeded.clusterRows == seeded.fileRows)
    #expect(seeded.clusterRows.count == 6_430)
    // 6,430 rows are 100 statements of 64 rows and one of 30 (its PREPARE reads the answers
    // sent ahead first), one request each, and the run's own forty or so (the tables read, the
    // ledger, the transaction). With the keys recorded as they go, 101 more; loaded twice
    // (the count found short), more again.
    #expect(seeded.requests < 100 + 60, "\(seeded.requests) requests")
  }

  @Test func aKeyRepeatedInTheFileIsNamedAtBothLinesAndNothingIsLoaded() throws {
    var csv = "id,name,age\n"
    for id in 1...300 { csv += "\(id),Person \(id),30\n" }
    csv += "7,Again,31\n"
    let seeded = try seedBoth("repeated", csv: csv)
    let said = try #require(message(seeded.cluster))
    #expect(said.contains("person.csv:302: duplicate key"), "\(said)")
    #expect(said.contains("repeats line 8"), "\(said)")
    #expect(said == message(seeded.file))
    #expect(seeded.clusterRows.isEmpty)
    #expect(seeded.fileRows.isEmpty)
  }

  @Test func aRowThatFailsAfterARepeatedKeyIsReportedAsOnAFile() throws {
    // The repeat comes first, the missing name later: the usual load stops at the repeat.
    let csv = "id,name,age\n1,Ann,30\n1,Ann again,31\n2,,32\n"
    let seeded = try seedBoth("order", csv: csv)
    let said = try #require(message(seeded.cluster))
    #expect(said.contains("person.csv:3: duplicate key"), "\(said)")
    #expect(said == message(seeded.file))
    #expect(seeded.clusterRows.isEmpty)
  }

  @Test func aFailingRowIsNamedAtItsLineAsOnAFile() throws {
    let csv = "id,name,age\n1,Ann,30\n2,,32\n"
    let seeded = try seedBoth("notnull", csv: csv)
    let said = try #require(message(seeded.cluster))
    #expect(said.contains("person.csv:3"), "\(said)")
    #expect(said.contains("NOT NULL constraint failed: person.name"), "\(said)")
    #expect(said == message(seeded.file))
    #expect(seeded.clusterRows.isEmpty)
  }

  @Test func aTableWithRowsLoadsTheUsualWayAndKeepsThem() throws {
    let csv = "id,name,age\n1,Ann,30\n2,Bob,40\n"
    let seeded = try seedBoth("kept", csv: csv, before: "INSERT INTO person VALUES (1, 'Kept', 9)")
    #expect(try seeded.cluster.get().inserted == 1)
    #expect(try seeded.file.get().inserted == 1)
    #expect(seeded.clusterRows == seeded.fileRows)
    #expect(seeded.clusterRows.first == [.integer(1), .text("Kept"), .integer(9)])
  }

  @Test func aRowATriggerPutThereFirstIsLeftOutAsOnAFile() throws {
    // Loading row 1 makes row 3, so the file's own row 3 finds its key taken: a row left out
    // that is no repeat in the file. The usual load is run and says what a file says.
    let trigger = """
      CREATE TRIGGER person_next AFTER INSERT ON person WHEN new.id = 1 BEGIN
        INSERT INTO person VALUES (3, 'From the trigger', 0);
      END
      """
    let csv = "id,name,age\n1,Ann,30\n2,Bob,40\n3,Cid,50\n"
    let seeded = try seedBoth("trigger", csv: csv, before: trigger)
    #expect(try seeded.cluster.get().inserted == (try seeded.file.get()).inserted)
    #expect(try seeded.cluster.get().inserted == 2)
    #expect(seeded.clusterRows == seeded.fileRows)
    #expect(seeded.clusterRows.last == [.integer(3), .text("From the trigger"), .integer(0)])
    // The ledger's checksum is the file's, as the load that counted read it.
    #expect(
      try seeded.cluster.get().tables.map(\.checksum) == seeded.file.get().tables.map(\.checksum)
    )
  }

  /// 6,400 rows: 100 batches, sent eight ahead of their answers.
  static func manyRows(failingAt line: Int? = nil) -> String {
    var csv = "id,name,age\n"
    for id in 1...6_400 {
      let name = id + 1 == line ? "" : "Person \(id)"
      csv += "\(id),\(name),\(20 + id % 60)\n"
    }
    return csv
  }

  @Test func aRowFailingAmongBatchesSentAheadIsNamedAsOnAFileAndNothingStays() throws {
    let seeded = try seedBoth("ahead-fails", csv: Self.manyRows(failingAt: 3_001))
    let said = try #require(message(seeded.cluster))
    #expect(said.contains("person.csv:3001"), "\(said)")
    #expect(said.contains("NOT NULL constraint failed: person.name"), "\(said)")
    #expect(said == message(seeded.file))
    #expect(seeded.clusterRows.isEmpty)
    #expect(seeded.fileRows.isEmpty)
  }

  @Test func aTriggerEndingTheTransactionLetsNoBatchSentAheadCommitAlone() throws {
    // RAISE(ROLLBACK) ends the run's transaction in the middle of the batches sent ahead: those
    // after it reach a connection with no transaction, where each would commit by itself.
    let trigger = """
      CREATE TRIGGER person_stop AFTER INSERT ON person WHEN new.id = 3000 BEGIN
        SELECT RAISE(ROLLBACK, 'stopped at 3000');
      END
      """
    let seeded = try seedBoth("ahead-rollback", csv: Self.manyRows(), before: trigger)
    let said = try #require(message(seeded.cluster))
    #expect(said.contains("stopped at 3000"), "\(said)")
    #expect(seeded.clusterRows.count == 0, "rows committed by themselves")
    #expect(seeded.fileRows.isEmpty)
  }

  @Test func anEmptyKeyIsRefusedAsOnAFile() throws {
    let seeded = try seedBoth("emptykey", csv: "id,name,age\n1,Ann,30\n,Bob,40\n")
    let said = try #require(message(seeded.cluster))
    #expect(said.contains("person.csv:3"), "\(said)")
    #expect(said == message(seeded.file))
    #expect(seeded.clusterRows.isEmpty)
  }

  @Test func aFieldCountErrorWhileAFailedBatchIsUnreadIsReportedAsOnAFile() throws {
    // Line 3001's empty name fails its batch on the leader; line 3050, short a field, is read
    // before that answer is: the file's first error is still the one named.
    var lines = Self.manyRows(failingAt: 3_001).split(separator: "\n").map(String.init)
    lines[3_049] = "3049,Short"
    let seeded = try seedBoth("ahead-then-csv", csv: lines.joined(separator: "\n") + "\n")
    let said = try #require(message(seeded.cluster))
    #expect(said.contains("person.csv:3001"), "\(said)")
    #expect(said == message(seeded.file))
    #expect(seeded.clusterRows.isEmpty)
  }
}
