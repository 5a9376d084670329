import Foundation
import Testing

@testable import Strata

/// An error a registered function throws, with the message SQL must report.
private struct NotBase64: StrataError {
  var message: String { "not base64" }
  var help: String { "" }
}

/// An app's own error, written for its alerts.
private struct Bad: LocalizedError {
  var errorDescription: String? { "the code is not one of ours" }
}

/// Something a function's closure holds, to see it released with the connection.
private final class Held: Sendable {}

@Suite struct SQLFunctionTests {
  @Test func aRegisteredFunctionIsCalledFromSQL() throws {
    let db = try Connection.inMemory()
    try db.registerFunction("twice", argumentCount: 1, deterministic: true) { arguments in
      guard case .integer(let number) = arguments[0] else { return .null }
      return .integer(number * 2)
    }
    #expect(try db.scalar("SELECT twice(21)") == .integer(42))
    #expect(try db.scalar("SELECT twice(?)", [.integer(-4)]) == .integer(-8))
  }

  @Test func everyKindOfValueGoesInAndComesOutUnchanged() throws {
    let db = try Connection.inMemory()
    try db.registerFunction("echo", argumentCount: 1, deterministic: true) { $0[0] }
    let row = try db.rows(
      "SELECT echo(NULL), echo(7), echo(2.5), echo('héllo'), echo(''), echo(x'00ff10'), "
        + "echo(x''), typeof(echo(x'')), typeof(echo(''))"
    )[0]
    #expect(
      row == [
        .null, .integer(7), .real(2.5), .text("héllo"), .text(""), .blob([0, 255, 16]),
        .blob([]), .text("blob"), .text("text"),
      ]
    )
  }

  @Test func aVariableArgumentCountSeesEveryArgument() throws {
    let db = try Connection.inMemory()
    try db.registerFunction("kinds", argumentCount: nil, deterministic: false) { arguments in
      .text(
        arguments.map {
          switch $0 {
          case .null: "null"
          case .integer: "integer"
          case .real: "real"
          case .text: "text"
          case .blob: "blob"
          }
        }.joined(separator: ",")
      )
    }
    #expect(
      try db.scalar("SELECT kinds(NULL, 1, 1.5, 'a', x'01')")
        == .text("null,integer,real,text,blob")
    )
    #expect(try db.scalar("SELECT kinds()") == .text(""))
  }

  @Test func aFixedArgumentCountIsEnforcedBySQLite() throws {
    let db = try Connection.inMemory()
    try db.registerFunction("one", argumentCount: 1, deterministic: true) { $0[0] }
    let error = #expect(throws: SQLiteError.self) { try db.scalar("SELECT one(1, 2)") }
    #expect(error?.message.contains("wrong number of arguments to function one()") == true)
  }

  @Test func anErrorThrownInTheFunctionFailsTheStatementWithItsMessage() throws {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE t (x)")
    try db.registerFunction("unbase64", argumentCount: 1, deterministic: true) { _ in
      throw NotBase64()
    }
    let error = #expect(throws: SQLiteError.self) {
      try db.run("INSERT INTO t VALUES (unbase64('%%'))")
    }
    #expect(error?.message == "not base64")
    #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
    try db.registerFunction("fails", argumentCount: 0, deterministic: false) {
      _ in throw CocoaError(.fileNoSuchFile)
    }
    let other = #expect(throws: SQLiteError.self) { try db.scalar("SELECT fails()") }
    #expect(other?.message.isEmpty == false)
    try db.registerFunction("bad", argumentCount: 0, deterministic: false) { _ in throw Bad() }
    let localized = #expect(throws: SQLiteError.self) { try db.scalar("SELECT bad()") }
    #expect(localized?.message == "the code is not one of ours")
  }

  @Test func onlyADeterministicFunctionMayIndexAnExpressionOrCheckAColumn() throws {
    let db = try Connection.inMemory()
    try db.registerFunction("fold", argumentCount: 1, deterministic: true) { arguments in
      guard case .text(let text) = arguments[0] else { return arguments[0] }
      return .text(text.lowercased())
    }
    try db.registerFunction("jitter", argumentCount: 1, deterministic: false) { $0[0] }
    try db.execute(
      """
      CREATE TABLE word (w TEXT CHECK (fold(w) <> 'banned'));
      CREATE UNIQUE INDEX word_folded ON word (fold(w));
      INSERT INTO word VALUES ('Apple');
      """
    )
    #expect(throws: SQLiteError.self) { try db.run("INSERT INTO word VALUES ('APPLE')") }
    #expect(throws: SQLiteError.self) { try db.run("INSERT INTO word VALUES ('Banned')") }
    let refused = #expect(throws: SQLiteError.self) {
      try db.execute("CREATE INDEX word_jitter ON word (jitter(w))")
    }
    #expect(refused?.message.contains("non-deterministic functions prohibited") == true)
  }

  @Test func aFunctionNamedLikeABuiltInReplacesIt() throws {
    let db = try Connection.inMemory()
    #expect(try db.scalar("SELECT lower('ÄB')") == .text("Äb"))
    try db.registerFunction("lower", argumentCount: 1, deterministic: true) { arguments in
      guard case .text(let text) = arguments[0] else { return arguments[0] }
      return .text(text.lowercased())
    }
    #expect(try db.scalar("SELECT lower('ÄB')") == .text("äb"))
  }

  @Test func theClosureIsReleasedWithTheConnection() throws {
    weak var released: Held?
    do {
      let held = Held()
      released = held
      let db = try Connection.inMemory()
      try db.registerFunction("holds", argumentCount: 0, deterministic: true) { _ in
        _ = held
        return .null
      }
      #expect(try db.scalar("SELECT holds()") == .null)
    }
    #expect(released == nil)
  }

  @Test func aRegistrationSQLiteRefusesIsAnError() throws {
    let db = try Connection.inMemory()
    let error = #expect(throws: SQLiteError.self) {
      try db.registerFunction("many", argumentCount: 1000, deterministic: true) { _ in .null }
    }
    #expect(error?.message.contains("many") == true)
  }
}
