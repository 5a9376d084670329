import Strata
import StrataDqlite
import Testing

/// Which prepared statements go as QUERY (rows back, nothing written) and which as EXEC (what
/// dqlite replicates): a read sent as EXEC would lose its rows, a write sent as QUERY must not
/// happen.
@Suite struct DqliteStatementKindTests {
  func runsAsQuery(_ sql: String) -> Bool {
    let words = SQLStatementScanner.statements(sql).first?.words ?? []
    return DqliteStatement.runsAsQuery(words: words, sql: sql)
  }

  @Test func readsGoAsQueries() {
    for sql in [
      "SELECT 1", "  select * from t", "VALUES (1), (2)", "EXPLAIN QUERY PLAN SELECT 1",
      "PRAGMA table_info('t')", "PRAGMA foreign_key_check",
      "WITH x AS (SELECT 1 AS inserted_at) SELECT * FROM x",
      "WITH x AS (SELECT 'INSERT' AS verb) SELECT verb FROM x",
      "WITH x AS (SELECT 1) -- then INSERT nothing\nSELECT * FROM x",
      "WITH x AS (SELECT \"update\" FROM t) SELECT * FROM x",
      "WITH x AS (SELECT replace(a, 'b', 'c') AS r FROM t) SELECT * FROM x",
      "PRAGMA table_info(t)", "PRAGMA main.index_list('t')", "PRAGMA foreign_key_check(t)",
    ] {
      #expect(runsAsQuery(sql), "\(sql)")
    }
  }

  @Test func writesGoAsExec() {
    for sql in [
      "INSERT INTO t VALUES (1)", "UPDATE t SET a = 1", "DELETE FROM t",
      "REPLACE INTO t VALUES (1)",
      "CREATE TABLE t (a)", "BEGIN IMMEDIATE", "PRAGMA user_version = 3",
      "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x",
      "with x as (select 1) delete from t where a in (select * from x)",
      "WITH x AS (SELECT 1) REPLACE INTO t SELECT * FROM x",
      "WITH x AS (SELECT 1 /* a */*2 AS n) INSERT INTO t SELECT n FROM x",
      "PRAGMA user_version(5)", "PRAGMA main.application_id(7)",
    ] {
      #expect(!runsAsQuery(sql), "\(sql)")
    }
  }

  @Test func bareWordsLeaveOutQuotesAndComments() {
    #expect(
      DqliteStatement.bareWords("SELECT 'a b', [c d], `e`, \"f\" /* g */ FROM h -- i\nWHERE j2")
        == ["SELECT", "FROM", "H", "WHERE", "J2"]
    )
    #expect(
      DqliteStatement.bareWords("SELECT 1 /* c */*2 FROM t") == ["SELECT", "FROM", "T"]
    )
  }
}
