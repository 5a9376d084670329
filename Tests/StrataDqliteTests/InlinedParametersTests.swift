import Foundation
import Strata
import StrataDqlite
import StrataTestSupport
import Testing

/// Values written into SQL as literals (more than the wire's 255 a statement) must read back
/// as the very values binding gives: checked against real SQLite, and over a real cluster.
@Suite struct InlinedParametersTests {
  static let values: [SQLValue] = [
    .null, .integer(0), .integer(-1), .integer(Int64.max), .integer(Int64.min),
    .real(0.1), .real(-2.5), .real(1e300), .real(1e-7), .real(3.0), .real(.infinity),
    .real(-.infinity), .text(""), .text("it's"), .text("a ? in it -- and /* this */"),
    .text("ünïcødé ☃ 𝄞"), .text("line\nbreak"), .blob([]), .blob([0, 1, 0xAB, 0xFF]),
  ]

  @Test func eachLiteralReadsBackAsTheBoundValue() throws {
    let sqlite = try Connection(path: ":memory:")
    for value in Self.values {
      let bound = try sqlite.rows("SELECT ?, typeof(?)", [value, value])
      let written = try sqlite.rows(
        "SELECT \(InlinedParameters.literal(value)), typeof(\(InlinedParameters.literal(value)))",
        []
      )
      #expect(written == bound, "\(value)")
    }
  }

  @Test func aValueMeansWhatItsBindingMeansWhereverItStands() throws {
    let sqlite = try Connection(path: ":memory:")
    try sqlite.execute("CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    for (sql, values) in [
      ("SELECT 1 -?", [SQLValue.integer(-5)]), ("SELECT 1 -?", [.real(-2.5)]),
      ("SELECT 1 -?", [.real(-.infinity)]), ("SELECT ? - ?", [.integer(-3), .integer(-4)]),
    ] {
      let rendered = try InlinedParameters.render(sql, values)
      #expect(try sqlite.rows(rendered, []) == sqlite.rows(sql, values), "\(rendered)")
    }
  }

  @Test func onlyTheParametersAreReplaced() throws {
    let sql = "INSERT INTO t VALUES (?, '?', \"?\", ?) -- ?\n/* ? */"
    #expect(
      try InlinedParameters.render(sql, [.integer(1), .text("x")])
        == "INSERT INTO t VALUES (1, '?', \"?\", 'x') -- ?\n/* ? */"
    )
    #expect(throws: DqliteError.self) {
      try InlinedParameters.render("SELECT ?1, ?2", [.integer(1), .integer(2)])
    }
    #expect(throws: DqliteError.self) {
      try InlinedParameters.render("SELECT :a", [.integer(1)])
    }
    #expect(throws: DqliteError.self) {
      try InlinedParameters.render("SELECT ?, ?", [.integer(1)])
    }
  }
}

/// More values than the wire's tuple carries, over a real cluster: the rows are what a file
/// gets from binding the same values.
@Suite(
  .serialized,
  .enabled(if: DqliteCluster.isAvailable, Comment(rawValue: DqliteCluster.skipReason))
)
struct InlinedParametersClusterTests {
  @Test func aStatementOfMoreThan255ValuesWritesWhatBindingWrites() throws {
    let cluster = try DqliteCluster.shared.get()
    let database = try DqliteDatabase(nodes: cluster.addresses, name: "inlined")
    let file = try Connection(path: ":memory:")
    let values = Array(repeating: InlinedParametersTests.values, count: 20).flatMap { $0 }
    #expect(values.count > 255)
    let placeholders = Array(repeating: "(?)", count: values.count).joined(separator: ", ")
    for target in [database as any SQLDatabase, file] {
      try target.execute("CREATE TABLE v (x)")
      let insert = try target.prepare("INSERT INTO v VALUES \(placeholders)")
      try insert.bind(values)
      var before = 0
      #expect(try insert.runBatch(rowsBeforeFailure: &before) == values.count)
      #expect(try target.run("DELETE FROM v WHERE rowid > ?", [.integer(Int64(values.count))]) == 0)
    }
    let sql = "SELECT x, typeof(x) FROM v ORDER BY rowid"
    #expect(try database.rows(sql, []) == file.rows(sql, []))
    let many = Array(values.prefix(300))
    let select = "SELECT " + Array(repeating: "?", count: many.count).joined(separator: ", ")
    #expect(try database.rows(select, many) == file.rows(select, many))
  }
}
