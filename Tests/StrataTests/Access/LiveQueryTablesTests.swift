import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Which commits wake a live query: those that changed a table it reads, however SQLite
/// changed it (a WITHOUT ROWID table, a DELETE without WHERE, a trigger, a view's tables, a
/// schema change), and never one that changed only other tables or undid its change.
@Suite struct LiveQueryTablesTests {
  /// A queue on a fresh file built from `schema`, with a live query of `sql`'s rows that has
  /// read its first value.
  final class Watched: @unchecked Sendable {
    let dir: TemporaryDirectory
    let queue: DatabaseQueue
    private var values: AsyncThrowingStream<[Row], any Error>.AsyncIterator

    init(schema: String, observing sql: String) async throws {
      dir = try TemporaryDirectory()
      let url = dir.path("app.sqlite3")
      try Connection(path: url.path).execute(schema)
      queue = try DatabaseQueue(url: url)
      values = queue.observe { db in try db.fetchRows(sql) }.makeAsyncIterator()
      _ = try await values.next()
      #expect(queue.observers.count == 1)
    }

    /// Whether committing `write` woke the live query.
    func wakes(_ write: (Database) throws -> Void) throws -> Bool {
      let before = queue.observers.wakeCount
      try queue.write(write)
      return queue.observers.wakeCount > before
    }

    /// The live query's next value, as one line per row.
    func next() async throws -> [String] {
      try await values.next()?.map { $0.values.map(\.description).joined(separator: "|") } ?? []
    }
  }

  @Test func aRowidTableWakesItsObserversOnly() async throws {
    let watched = try await Watched(
      schema: "CREATE TABLE person (name TEXT, age INT); CREATE TABLE pet (name TEXT);",
      observing: "SELECT name, age FROM person ORDER BY name"
    )
    #expect(try watched.wakes { try $0.execute("INSERT INTO pet VALUES ('Rex')") } == false)
    #expect(try watched.wakes { try $0.execute("INSERT INTO person VALUES ('Ann', 30)") })
    #expect(try await watched.next() == ["Ann|30"])
    #expect(try watched.wakes { try $0.execute("UPDATE person SET age = 31") })
    #expect(try await watched.next() == ["Ann|31"])
  }

  @Test func aWithoutRowidTableWakesItsObservers() async throws {
    let watched = try await Watched(
      schema: "CREATE TABLE tag (name TEXT PRIMARY KEY, n INT) WITHOUT ROWID;",
      observing: "SELECT name, n FROM tag"
    )
    #expect(try watched.wakes { try $0.execute("INSERT INTO tag VALUES ('a', 1)") })
    #expect(try await watched.next() == ["a|1"])
    #expect(try watched.wakes { try $0.execute("UPDATE tag SET n = 2 WHERE name = 'a'") })
    #expect(try await watched.next() == ["a|2"])
    #expect(try watched.wakes { try $0.execute("DELETE FROM tag") })
    #expect(try await watched.next() == [])
  }

  @Test func aDeleteWithoutWhereWakesItsObservers() async throws {
    // SQLite empties the table without visiting its rows (the truncate optimization): no
    // per-row hook sees it; the authorizer does.
    let watched = try await Watched(
      schema: "CREATE TABLE person (name TEXT); INSERT INTO person VALUES ('Ann'), ('Bob');",
      observing: "SELECT count(*) FROM person"
    )
    #expect(try watched.wakes { try $0.execute("DELETE FROM person") })
    #expect(try await watched.next() == ["0"])
  }

  @Test func aTriggerAndAForeignKeyActionWakeTheTablesTheyWrite() async throws {
    let watched = try await Watched(
      schema: """
        CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE log (what TEXT);
        CREATE TABLE pet (owner INT REFERENCES person(id) ON DELETE CASCADE, name TEXT);
        CREATE TRIGGER logged AFTER INSERT ON person BEGIN
          INSERT INTO log VALUES ('added ' || new.name);
        END;
        INSERT INTO person VALUES (1, 'Ann');
        INSERT INTO pet VALUES (1, 'Rex');
        """,
      observing: "SELECT what FROM log UNION ALL SELECT name FROM pet"
    )
    #expect(try watched.wakes { try $0.execute("INSERT INTO person VALUES (2, 'Bob')") })
    #expect(try await watched.next() == ["added Ann", "added Bob", "Rex"])
    #expect(try watched.wakes { try $0.execute("DELETE FROM person WHERE id = 1") })
    #expect(try await watched.next() == ["added Ann", "added Bob"])
  }

  @Test func aViewIsWatchedThroughItsTables() async throws {
    let watched = try await Watched(
      schema: """
        CREATE TABLE person (name TEXT, age INT);
        CREATE TABLE pet (name TEXT);
        CREATE VIEW adult AS SELECT name FROM person WHERE age >= 18;
        """,
      observing: "SELECT name FROM adult"
    )
    #expect(try watched.wakes { try $0.execute("INSERT INTO pet VALUES ('Rex')") } == false)
    #expect(try watched.wakes { try $0.execute("INSERT INTO person VALUES ('Ann', 30)") })
    #expect(try await watched.next() == ["Ann"])
  }

  @Test func aSchemaChangeWakesEveryObserver() async throws {
    let watched = try await Watched(
      schema: "CREATE TABLE person (name TEXT); CREATE TABLE pet (name TEXT);",
      observing: "SELECT * FROM person"
    )
    #expect(try watched.wakes { try $0.execute("ALTER TABLE pet ADD COLUMN age INT") })
    #expect(try await watched.next() == [])
    #expect(try watched.wakes { try $0.execute("ALTER TABLE person ADD COLUMN age INT") })
    #expect(try watched.wakes { try $0.execute("INSERT INTO person VALUES ('Ann', 3)") })
    // `SELECT *` compiled again: the new column is in the value.
    #expect(try await watched.next() == ["Ann|3"])
  }

  @Test func aCachedStatementCompiledAgainAfterANewTriggerWakesItsNewTable() async throws {
    let watched = try await Watched(
      schema: "CREATE TABLE person (name TEXT); CREATE TABLE log (what TEXT);",
      observing: "SELECT what FROM log"
    )
    let insert = "INSERT INTO person VALUES (?)"
    #expect(try watched.wakes { try $0.execute(insert, ["Ann"]) } == false)
    // Another connection (a migration) adds a trigger: the cached INSERT now writes `log`.
    try Connection(path: watched.queue.path).execute(
      "CREATE TRIGGER logged AFTER INSERT ON person BEGIN INSERT INTO log VALUES (new.name); END"
    )
    #expect(try watched.wakes { try $0.execute(insert, ["Bob"]) })
    #expect(try await watched.next() == ["Bob"])
    // Recorded again: the next insert wakes it as well.
    #expect(try watched.wakes { try $0.execute(insert, ["Cy"]) })
    #expect(try await watched.next() == ["Bob", "Cy"])
  }

  @Test func aSavepointRolledBackInsideACommittedTransactionWakesNothing() async throws {
    let watched = try await Watched(
      schema: "CREATE TABLE person (name TEXT); CREATE TABLE pet (name TEXT);",
      observing: "SELECT name FROM person"
    )
    let rolledBack = try watched.wakes { db in
      try db.execute("INSERT INTO pet VALUES ('Rex')")
      try db.execute("SAVEPOINT draft")
      try db.execute("INSERT INTO person VALUES ('Ann')")
      try db.execute("ROLLBACK TO draft")
      try db.execute("RELEASE draft")
    }
    #expect(rolledBack == false)
    let released = try watched.wakes { db in
      try db.execute("SAVEPOINT outer")
      try db.execute("SAVEPOINT inner")
      try db.execute("INSERT INTO person VALUES ('Bob')")
      try db.execute("RELEASE inner")
      try db.execute("ROLLBACK TO outer")
      try db.execute("INSERT INTO person VALUES ('Cy')")
      try db.execute("RELEASE outer")
    }
    #expect(released)
    #expect(try await watched.next() == ["Cy"])
  }

  @Test func aRolledBackTransactionAndAScriptAreSeenRightly() async throws {
    let watched = try await Watched(
      schema: "CREATE TABLE person (name TEXT); CREATE TABLE pet (name TEXT);",
      observing: "SELECT name FROM person"
    )
    struct Refused: Error {}
    let before = watched.queue.observers.wakeCount
    #expect(throws: Refused.self) {
      try watched.queue.write { db in
        try db.execute("INSERT INTO person VALUES ('Ann')")
        throw Refused()
      }
    }
    #expect(watched.queue.observers.wakeCount == before)
    #expect(
      try watched.wakes { try $0.execute("INSERT INTO pet VALUES ('a'); DELETE FROM pet") } == false
    )
    #expect(
      try watched.wakes { try $0.execute("INSERT INTO pet VALUES ('a'); DELETE FROM person") }
    )
    #expect(try watched.wakes { try $0.execute("INSERT INTO person VALUES ('Bob')") })
    #expect(try await watched.next() == ["Bob"])
  }

  @Test func aWriteThatBypassesTheStatementCacheWakesEveryObserver() async throws {
    let watched = try await Watched(
      schema: "CREATE TABLE person (name TEXT); CREATE TABLE pet (name TEXT);",
      observing: "SELECT name FROM person"
    )
    // Rows changed, but by no statement the transaction tracked: every live query fetches.
    #expect(try watched.wakes { try $0.connection.execute("INSERT INTO person VALUES ('Ann')") })
    #expect(try await watched.next() == ["Ann"])
  }

  @Test func writesWithNoLiveQueryTrackNothing() throws {
    let fixture = try AccessFixture()
    try fixture.queue.write { db in
      #expect(db.tracking == nil)
      try db.execute("INSERT INTO student VALUES ('S1', 'Ann', 1)")
    }
    #expect(fixture.queue.observers.wakeCount == 0)
  }
}
