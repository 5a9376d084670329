import Foundation
import StrataTestSupport

@testable import Strata

/// A database file in a fresh folder, with `student` and a table of one column per type, and
/// a queue on it.
struct AccessFixture {
  let dir: TemporaryDirectory
  let queue: DatabaseQueue
  var url: URL { dir.path("app.sqlite3") }

  init(configuration: ConnectionConfiguration = .none) throws {
    dir = try TemporaryDirectory()
    let url = dir.path("app.sqlite3")
    try Connection(path: url.path).execute(
      """
      CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL, age INTEGER);
      CREATE TABLE item (
        id INTEGER PRIMARY KEY, i, i64, i32, d, f, b, s, data, date, uuid, v);
      """
    )
    queue = try DatabaseQueue(url: url, configuration: configuration)
  }

  /// The rows of `sql` read through a separate connection, as SQLite stores them.
  func stored(_ sql: String) throws -> [[SQLValue]] {
    try Connection(path: url.path, mode: .readOnly).rows(sql)
  }
}
