import Foundation
import StrataTestSupport

@testable import Strata

/// A database file in a fresh folder with tables of each shape writes from Swift values meet
/// (a text key, a keyless table, a composite key WITHOUT ROWID, a UNIQUE column with defaults,
/// a STRICT table, a cascade and a delete trigger), and a queue on it.
struct WritingFixture {
  let dir: TemporaryDirectory
  let queue: DatabaseQueue
  var url: URL { dir.path("app.sqlite3") }

  init() throws {
    dir = try TemporaryDirectory()
    let url = dir.path("app.sqlite3")
    try Connection(path: url.path).execute(
      """
      CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL, stuAge INTEGER);
      CREATE TABLE everything (
        id INTEGER PRIMARY KEY, int INTEGER, int8, int16, int32, int64, uint8, uint32, uint64,
        double REAL, float REAL, bool INTEGER, string TEXT, data BLOB, date TEXT, url TEXT,
        uuid TEXT, color TEXT, level INTEGER, value,
        maybeInt, maybeDouble, maybeBool, maybeString, maybeData, maybeDate, maybeUUID,
        maybeColor);
      CREATE TABLE person_info (name TEXT NOT NULL, age INTEGER);
      CREATE TABLE enrolment (
        student TEXT NOT NULL, course TEXT NOT NULL, grade INTEGER,
        PRIMARY KEY (student, course)) WITHOUT ROWID;
      CREATE TABLE account (
        id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
        visits INTEGER NOT NULL DEFAULT 0, note TEXT);
      CREATE TABLE counter (id INTEGER PRIMARY KEY, count INTEGER NOT NULL) STRICT;
      CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE child (
        id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parent (id) ON DELETE CASCADE);
      CREATE TABLE log (what TEXT NOT NULL);
      CREATE TRIGGER parent_deleted AFTER DELETE ON parent
        BEGIN INSERT INTO log VALUES ('deleted ' || old.id); END;
      CREATE VIEW student_names AS SELECT stuName FROM student;
      """
    )
    queue = try DatabaseQueue(url: url)
  }

  /// The rows of `sql` read through a separate connection, as SQLite stores them.
  func stored(_ sql: String) throws -> [[SQLValue]] {
    try Connection(path: url.path, mode: .readOnly).rows(sql)
  }

  /// The error `body` throws inside a write, after checking (inside the same transaction)
  /// that `check` reads the same before and after: the failed write left nothing behind.
  func failure(
    _ check: String = "SELECT count(*) FROM student",
    _ body: @escaping (Database) throws -> Void
  ) throws -> DatabaseAccessError? {
    try queue.write { db -> DatabaseAccessError? in
      let before = try db.fetchRows(check)
      do {
        try body(db)
        return nil
      } catch let error as DatabaseAccessError {
        let after = try db.fetchRows(check)
        return before == after ? error : nil
      }
    }
  }
}

extension WritingFixture {
  /// A row of `student`.
  struct Student: Codable, Equatable {
    var stuID: String
    var stuName: String
    var stuAge: Int?
  }
}
