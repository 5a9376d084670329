import Foundation
import Strata
import StrataDqlite
import StrataTestSupport
import Testing

/// The client against one real three-node cluster of `dqlite-demo`, started once for the suite
/// (each test uses its own database name) and stopped when the test process exits.
@Suite(
  .serialized,
  .enabled(if: DqliteCluster.isAvailable, Comment(rawValue: DqliteCluster.skipReason))
)
struct DqliteClusterTests {
  let cluster: DqliteCluster

  init() throws { cluster = try DqliteCluster.shared.get() }

  func database(_ name: String, nodes: [String]? = nil) throws -> DqliteDatabase {
    try DqliteDatabase(nodes: nodes ?? cluster.addresses, name: name)
  }

  @Test func rowsWrittenThroughOneNodeAreReadThroughAnother() throws {
    let writer = try database("written", nodes: [cluster.addresses[0]])
    try writer.execute("CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    #expect(
      try writer.run("INSERT INTO person (name) VALUES (?), (?)", [.text("Ada"), .text("Alan")])
        == 2
    )
    #expect(writer.changes == 2)
    #expect(writer.lastInsertRowID == 2)
    let reader = try database("written", nodes: [cluster.addresses[2]])
    #expect(
      try reader.rows("SELECT id, name FROM person ORDER BY id", []) == [
        [.integer(1), .text("Ada")], [.integer(2), .text("Alan")],
      ]
    )
    #expect(try reader.scalar("SELECT count(*) FROM person", []) == .integer(2))
    #expect(try reader.scalar("SELECT name FROM person WHERE id = 9", []) == nil)
    #expect(reader.sqliteVersion.hasPrefix("3."))
    #expect(reader.sqliteVersionNumber > 3_000_000)
  }

  @Test func parametersOfEveryTypeRoundTrip() throws {
    let db = try database("types")
    try db.execute("CREATE TABLE value (v)")
    let values: [SQLValue] = [
      .integer(0), .integer(Int64.min), .integer(Int64.max), .real(3.141592653589793),
      .real(-0.5), .real(1e300), .text(""), .text("é ✓ 𝄞 \"quoted\" 'x'"), .blob([]),
      .blob([0, 1, 2, 0xFF, 0, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 9]), .null,
      .text(String(repeating: "long ", count: 5000)),
    ]
    for value in values { try db.run("INSERT INTO value (v) VALUES (?)", [value]) }
    let back = try db.rows("SELECT v, typeof(v) FROM value ORDER BY rowid", [])
    #expect(back.map { $0[0] } == values)
    #expect(
      back.map { $0[1] }
        == [
          "integer", "integer", "integer", "real", "real", "real", "text", "text", "blob", "blob",
          "null", "text",
        ].map { SQLValue.text($0) }
    )
    // Every type in one statement, and each read back as a parameter of a query.
    #expect(
      try db.rows(
        "SELECT ?, ?, ?, ?, ?",
        [.integer(7), .real(0.25), .text("t"), .blob([1]), .null]
      )
        == [[.integer(7), .real(0.25), .text("t"), .blob([1]), .null]]
    )
    let parameters = (1...255).map { SQLValue.integer(Int64($0)) }
    let sum = "SELECT " + Array(repeating: "?", count: 255).joined(separator: " + ")
    #expect(try db.scalar(sum, parameters) == .integer(255 * 256 / 2))
    // One more than the wire's tuple carries (it counts in one byte): the values are written
    // into the SQL instead (InlinedParametersTests).
    #expect(db.maximumVariableNumber == 255)
    #expect(try db.scalar(sum + " + ?", parameters + [.integer(256)]) == .integer(256 * 257 / 2))
    #expect(
      throws: DqliteError.cannotEncode(
        detail: "256 parameters, more than the 255 one statement may carry"
      )
    ) {
      _ = try WireRequest.sql(.querySQL, database: 0, sql: sum, parameters: parameters + [.null])
    }
    #expect(try db.scalar("SELECT 1", []) == .integer(1))
  }

  @Test func aFailingStatementGivesSQLitesCodeAndMessage() throws {
    let db = try database("failures")
    try db.execute("CREATE TABLE email (address TEXT UNIQUE)")
    try db.run("INSERT INTO email VALUES (?)", [.text("a@example.com")])
    // dqlite runs SQLite: a refused statement is SQLite's own error, as on a file.
    #expect(
      throws: SQLiteError(
        extendedCode: 2067,
        message: "UNIQUE constraint failed: email.address",
        sql: "INSERT INTO email VALUES (?)"
      )
    ) {
      try db.run("INSERT INTO email VALUES (?)", [.text("a@example.com")])
    }
    #expect(
      throws: SQLiteError(
        extendedCode: 1,
        message: "no such table: nowhere",
        sql: "SELECT * FROM nowhere"
      )
    ) {
      _ = try db.rows("SELECT * FROM nowhere", [])
    }
    // The node's own words, as the wire client reports a refusal.
    let refusal = DqliteError.failure(
      code: 2067,
      message: "UNIQUE constraint failed: email.address",
      sql: "INSERT INTO email VALUES (?)",
      node: db.leader
    )
    #expect(refusal.sqliteError?.isConstraint == true)
    #expect(
      refusal.message.hasPrefix(
        "dqlite node \(db.leader) refused the request: UNIQUE "
          + "constraint failed: email.address (dqlite error 2067) - while executing `INSERT"
      )
    )
    // The connection is still usable after a failure.
    #expect(try db.scalar("SELECT count(*) FROM email", []) == .integer(1))
  }

  @Test func theLeaderIsFoundFromAFollowersAddress() throws {
    let leader = try database("leader").leader
    let follower = try #require(cluster.addresses.first { $0 != leader })
    let db = try database("leader", nodes: [follower])
    #expect(db.leader == leader)
    #expect(try db.cluster().map(\.address).sorted() == cluster.addresses.sorted())
  }

  @Test func aNodeOfTheListBeingDownIsSkipped() throws {
    let down = "127.0.0.1:\(try freePorts(1)[0])"
    let db = try database("down", nodes: [down, cluster.addresses[1]])
    #expect(try db.scalar("SELECT 1", []) == .integer(1))
  }

  @Test func silentAndGarbageNodesInTheListAreSkipped() throws {
    let silent = try HostileServer(.silent)
    let garbage = try HostileServer(.answer(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)))
    var configuration = DqliteConfiguration()
    configuration.requestTimeout = 1
    let started = Date()
    let db = try DqliteDatabase(
      nodes: [silent.address, garbage.address, cluster.addresses[2]],
      name: "skipped",
      configuration: configuration
    )
    #expect(cluster.addresses.contains(db.leader))
    #expect(try db.scalar("SELECT 1", []) == .integer(1))
    #expect(Date().timeIntervalSince(started) < 4)
  }

  @Test func aRolledBackTransactionLeavesNothing() throws {
    let db = try database("rollback")
    try db.execute("CREATE TABLE item (name TEXT)")
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try db.transaction(.immediate) {
        try db.run("INSERT INTO item VALUES (?)", [.text("kept?")])
        #expect(!db.isAutocommit)
        #expect(try db.scalar("SELECT count(*) FROM item", []) == .integer(1))
        throw Stop()
      }
    }
    #expect(db.isAutocommit)
    #expect(try db.scalar("SELECT count(*) FROM item", []) == .integer(0))
    try db.transaction(.immediate) {
      try db.run("INSERT INTO item VALUES (?)", [.text("committed")])
      try? db.savepoint("inner") {
        try db.run("INSERT INTO item VALUES (?)", [.text("undone")])
        throw Stop()
      }
    }
    #expect(
      try database("rollback", nodes: [cluster.addresses[2]])
        .rows("SELECT name FROM item", []) == [[.text("committed")]]
    )
  }

  @Test func manyRowsComeInBatchesAndAnEarlyStopInterrupts() throws {
    let db = try database("batches")
    let count = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
    var batches = 0
    var rows = 0
    let columns = try db.query(count + "SELECT i, 'row ' || i AS label FROM n", []) { batch in
      batches += 1
      rows += batch.rows.count
      return true
    }
    #expect(columns == ["i", "label"])
    #expect(rows == 100_000)
    #expect(batches > 1)
    // scalar stops after the first batch: the rest is interrupted, and the connection goes on.
    #expect(try db.scalar(count + "SELECT i FROM n", []) == .integer(1))
    #expect(try db.scalar("SELECT 2", []) == .integer(2))
  }

  @Test func aDumpIsAFileSQLiteReads() throws {
    let db = try database("dumped")
    try db.execute("CREATE TABLE city (name TEXT); INSERT INTO city VALUES ('Oslo'), ('Lima')")
    let files = try db.dump()
    #expect(files.map(\.name) == ["dumped", "dumped-wal"])
    let folder = try TemporaryDirectory()
    for file in files { try Data(file.bytes).write(to: folder.path(file.name)) }
    let sqlite3 = Process()
    sqlite3.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    sqlite3.arguments = [folder.path("dumped").path, "SELECT name FROM city ORDER BY name"]
    let output = Pipe()
    sqlite3.standardOutput = output
    try sqlite3.run()
    sqlite3.waitUntilExit()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(sqlite3.terminationStatus == 0)
    #expect(text == "Lima\nOslo\n")
  }
}

/// Clusters a test changes (a node killed) or sizes other than three: each its own.
extension OwnClusters {
  @Suite(.serialized) struct DqliteLeaderLossTests {
    @Test func killingTheLeaderIsReportedAndARetryFindsTheNewOne() throws {
      let cluster = try DqliteCluster.started(size: 3)
      var configuration = DqliteConfiguration()
      configuration.requestTimeout = 5
      configuration.leaderTimeout = 20
      let db = try DqliteDatabase(
        nodes: cluster.addresses,
        name: "loss",
        configuration: configuration
      )
      try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
      let oldLeader = db.leader
      cluster.kill(node: try #require(cluster.index(of: oldLeader)))
      do {
        try db.run("INSERT INTO t VALUES (?)", [.integer(2)])
        Issue.record("a write went through a killed leader")
      } catch {
        #expect((error as? DqliteError)?.isLeaderGone == true, "\(error)")
      }
      try db.reconnect()
      #expect(db.leader != oldLeader)
      #expect(try db.rows("SELECT x FROM t", []) == [[.integer(1)]])
      try db.run("INSERT INTO t VALUES (?)", [.integer(3)])
      #expect(try db.scalar("SELECT sum(x) FROM t", []) == .integer(4))
    }

    @Test func aClusterOfOneServes() throws {
      let cluster = try DqliteCluster.started(size: 1)
      let db = try DqliteDatabase(nodes: cluster.addresses, name: "single")
      #expect(db.leader == cluster.addresses[0])
      try db.execute("CREATE TABLE t (x)")
      try db.run("INSERT INTO t VALUES (?)", [.text("one")])
      #expect(try db.rows("SELECT x FROM t", []) == [[.text("one")]])
      #expect(try db.cluster().count == 1)
    }
  }
}
