import Foundation
import Testing

@testable import Strata

@Suite struct ScriptTests {
  @Test func statementsKnowTheirLines() throws {
    let db = try Connection.inMemory()
    let script = """
      -- a comment
      CREATE TABLE a (x);

      /* block
         comment */ INSERT INTO a VALUES (1);
      INSERT INTO a VALUES (';'); INSERT INTO a VALUES (3);
      """
    let ran = try db.executeScript(script, firstLine: 10)
    #expect(ran.map(\.line) == [11, 14, 15, 15])
    #expect(ran[2].sql == "INSERT INTO a VALUES (';');")
    #expect(try db.scalar("SELECT count(*) FROM a") == .integer(3))
  }

  @Test func triggerBodiesAreNotSplitOnSemicolons() throws {
    let db = try Connection.inMemory()
    let ran = try db.executeScript(
      """
      CREATE TABLE t (x);
      CREATE TABLE log (y);
      CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN
        INSERT INTO log VALUES (new.x);
        INSERT INTO log VALUES (new.x * 2);
      END;
      INSERT INTO t VALUES (5);
      """
    )
    #expect(ran.count == 4)
    #expect(ran[3].line == 7)
    #expect(try db.rows("SELECT y FROM log ORDER BY y") == [[.integer(5)], [.integer(10)]])
  }

  @Test func aFailingStatementReportsItsLineAndSQLitesMessage() throws {
    let db = try Connection.inMemory()
    let error = #expect(throws: ScriptError.self) {
      try db.executeScript(
        """
        CREATE TABLE a (x);
        INSERT INTO a VALUES (1);

        INSERT INTO missing VALUES (2);
        """
      )
    }
    #expect(error?.line == 4)
    #expect(error?.statementNumber == 3)
    #expect(error?.underlying.message == "no such table: missing")
    #expect(error?.underlying.sql == "INSERT INTO missing VALUES (2);")
  }

  // Found by the script fuzz target: the `;` of empty statements was counted as the start of
  // the next statement, so its error pointed at the line of the stray `;`.
  @Test func emptyStatementsDoNotMoveTheNextStatementsLine() throws {
    let db = try Connection.inMemory()
    let error = #expect(throws: ScriptError.self) {
      try db.executeScript("CREATE TABLE a (x);\n;;\n\nINSERT INTO missing VALUES (1);\n")
    }
    #expect(error?.line == 4)
    #expect(error?.underlying.sql == "INSERT INTO missing VALUES (1);")
    #expect(containsSQL(" ; ;\n-- only empty statements\n") == false)
  }

  // SQLite stops reading at a NUL byte, and the runner used to carry on after it as if a new
  // script started there; the script is now refused before any statement runs.
  @Test func aScriptWithANulByteRunsNothing() throws {
    let db = try Connection.inMemory()
    let error = #expect(throws: ScriptError.self) {
      try db.executeScript("CREATE TABLE a (x);\nINSERT INTO a VALUES (1);\u{0}\nDROP TABLE a;\n")
    }
    #expect(error?.line == 2)
    #expect(error?.underlying.message.contains("NUL byte (0x00) on line 2") == true)
    #expect(try db.scalar("SELECT count(*) FROM sqlite_master") == .integer(0))
  }

  @Test func statementsKnowWhereTheirBytesAre() throws {
    let db = try Connection.inMemory()
    let script = "-- é\nCREATE TABLE a (x); ; INSERT INTO a VALUES ('é')"
    let ran = try db.executeScript(script)
    let bytes = Array(script.utf8)
    #expect(ran.map(\.byteRange) == [6..<25, 28..<bytes.count])
    #expect(ran.map { String(decoding: bytes[$0.byteRange], as: UTF8.self) } == ran.map(\.sql))
  }

  @Test func statementThatFailsToCompileIsQuotedWhole() throws {
    let db = try Connection.inMemory()
    let error = #expect(throws: ScriptError.self) {
      try db.executeScript("CREATE TABLE a (x);\nCREATE TABLE a (\n  y INTEGER\n);\nSELECT 1;")
    }
    #expect(error?.line == 2)
    #expect(error?.underlying.message == "table a already exists")
    #expect(error?.underlying.sql == "CREATE TABLE a (\n  y INTEGER\n);")
  }

  @Test func transactionRollsBackAndKeepsTheFirstError() throws {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE a (x UNIQUE)")
    #expect(throws: SQLiteError.self) {
      try db.transaction(.immediate) {
        try db.run("INSERT INTO a VALUES (1)")
        try db.run("INSERT INTO a VALUES (1)")
      }
    }
    #expect(try db.scalar("SELECT count(*) FROM a") == .integer(0))
    #expect(db.isAutocommit)
  }

  @Test func sqliteErrorKeepsTheExtendedCodeAndMessage() throws {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE user (email TEXT UNIQUE)")
    try db.run("INSERT INTO user VALUES ('a')")
    let error = #expect(throws: SQLiteError.self) {
      try db.run("INSERT INTO user VALUES ('a')")
    }
    #expect(error?.extendedCode == 2067)
    #expect(error?.code == 19)
    #expect(error?.message == "UNIQUE constraint failed: user.email")
  }

  @Test func namedParametersBind() throws {
    let db = try Connection.inMemory()
    let statement = try db.prepare("SELECT :a || :b")
    try statement.bind(.text("x"), named: ":a")
    try statement.bind(.text("y"), named: ":b")
    #expect(try statement.step())
    #expect(statement.string(at: 0) == "xy")
  }

  @Test func quotingDoublesEmbeddedQuotes() {
    #expect(quoteIdentifier("a\"b") == "\"a\"\"b\"")
    #expect(quoteLiteral("it's") == "'it''s'")
  }
}

/// strata supports SQLite 3.31 and later. `sqlite_schema` is 3.33's name for `sqlite_master`,
/// and an error on every open on Ubuntu 20.04; SQL the library runs must not use it.
@Suite struct SQLiteVersionFloorTests {
  @Test func librarySQLUsesSqliteMasterNotSqliteSchema() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/Strata")
    let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
    var offenders: [String] = []
    for case let file as String in enumerator where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where line.contains("sqlite_schema")
        && !line.trimmingCharacters(in: .whitespaces)
          .hasPrefix("//")
      {
        offenders.append("\(file):\(number + 1)")
      }
    }
    #expect(offenders == [])
  }
}
