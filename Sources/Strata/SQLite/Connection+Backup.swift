import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

extension Connection {
  /// Copies this connection's main database, page for page, into `destination`'s main
  /// database through SQLite's online backup API (`sqlite3_backup_init`, `_step`, `_finish`):
  /// what this connection sees is copied (a WAL database's pages not yet checkpointed too), and
  /// the destination ends with exactly the source's pages. The destination file is written in
  /// place, under its write lock, never replaced, so other connections to it keep a valid file
  /// and read the copied pages in their next transaction.
  ///
  /// Waits for a lock another connection holds up to the longer of the two busy timeouts.
  ///
  /// - Throws: `SQLiteError` when the copy cannot start (a transaction is open on the
  ///   destination, different page sizes into a WAL database), a lock is not released in time,
  ///   or a write fails (disk full); the destination is then unchanged.
  package func copyPages(into destination: Connection) throws {
    guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
      throw destination.error(sql: nil)
    }
    let wait = Int(max(busyTimeout, destination.busyTimeout))
    let deadline = ContinuousClock.now + .milliseconds(wait)
    var rc: Int32
    repeat {
      rc = sqlite3_backup_step(backup, -1)
      let isBusy = rc == SQLITE_BUSY || rc == SQLITE_LOCKED
      if isBusy, ContinuousClock.now < deadline {
        usleep(10_000)
        continue
      }
      break
    } while true
    let finished = sqlite3_backup_finish(backup)
    guard rc == SQLITE_DONE else {
      throw SQLiteError(
        extendedCode: rc,
        message: String(cString: sqlite3_errstr(rc)),
        systemErrorCode: max(systemErrorCode(for: rc), destination.systemErrorCode(for: rc))
      )
    }
    guard finished == SQLITE_OK else { throw destination.error(sql: nil) }
  }
}
