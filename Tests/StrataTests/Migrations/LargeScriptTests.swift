import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Issue 10, item 7: running a script hands SQLite one statement at a time, not the whole
/// rest of the script for every statement (which SQLite copied each time: quadratic in the
/// file's size). Timing is the benchmark's job (`strata-bench large-migration`); this checks
/// the cause without a clock: with SQLite's SQL length limit below the script's size but
/// above every statement's, the script still runs.
@Suite struct LargeScriptTests {
  @Test func aScriptLongerThanTheSQLLengthLimitRunsStatementByStatement() throws {
    let dir = try TemporaryDirectory()
    let connection = try Connection(path: dir.path("big.sqlite3").path)
    try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
    connection.restrictForUntrustedSQL(maximumLength: 1_000, instructionBudget: 1_000_000)
    let script = (1...500).map { "INSERT INTO t VALUES (\($0), 'row \($0)');\n" }.joined()
    #expect(script.utf8.count > 10_000)
    let ran = try connection.executeScript(script)
    #expect(ran.count == 500)
    #expect(ran.last?.line == 500)
    #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(500))
  }
}
