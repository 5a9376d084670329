/// Keeps the database's lock from one migration's commit to the next while a run applies (or
/// rolls back) migrations one transaction each, in a rollback-journal database.
///
/// SQLite otherwise gives the lock up after every commit, and with it the rollback journal:
/// each migration creates a new journal file, syncs the folder for it and deletes it. Held
/// (`PRAGMA locking_mode = EXCLUSIVE`), the journal stays open and is emptied at each commit,
/// which SQLite syncs just as it synced the folder: the same four syncs a commit under
/// `synchronous = FULL`, each commit as durable as before, the same rollback after a crash;
/// 1,000 migrations into an existing file take a fifth less time or more (BENCHMARKS.md, "The
/// lock kept between migrations"). The price: no other connection reads the file until the
/// run ends, where before it could read between two commits; a second run waits for the
/// whole of the first, up to its busy timeout.
///
/// Only for the parts that run in a transaction of strata's own: before a part that runs
/// without one (`transaction:false`, which may switch the journal mode or `VACUUM`) or in
/// transactions of its own, the lock is given up as usual. Never in WAL mode (readers there
/// never wait for a writer, and must not start to), nor on a connection whose owner chose
/// exclusive locking already (left as it was).
final class MigrationRunLock {
  private let connection: Connection
  private var isHeld = false
  /// Whether the connection's owner made the database exclusive before the run: then it is none
  /// of the run's business. Only `main` is held, never an attached database.
  private let wasExclusive: Bool

  init(_ connection: Connection) {
    self.connection = connection
    wasExclusive = (try? connection.scalar("PRAGMA main.locking_mode"))?.textValue == "exclusive"
  }

  /// Keeps the lock from the next commit on, when the database has a rollback journal. Called
  /// inside a part's transaction, once the write lock is had: asked for before it, the
  /// connection would keep its shared lock while it waits for the write lock, and the writer
  /// it waits for could then never commit. Only a saving: when the pragmas fail, the run goes
  /// on as before.
  func hold() {
    guard !isHeld, !wasExclusive,
      let journal = (try? connection.scalar("PRAGMA main.journal_mode"))?.textValue,
      ["delete", "truncate", "persist"].contains(journal),
      (try? connection.execute("PRAGMA main.locking_mode = EXCLUSIVE")) != nil
    else { return }
    isHeld = true
  }

  /// Gives the lock up: SQLite does so, and deletes the journal it kept, at the next read.
  /// Also when the run failed; a failure to give it up is the closing connection's to mend.
  func release() {
    guard isHeld else { return }
    isHeld = false
    try? connection.execute("PRAGMA main.locking_mode = NORMAL")
    _ = try? connection.scalar("SELECT 1 FROM main.sqlite_master LIMIT 1")
  }
}
