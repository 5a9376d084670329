import Foundation

extension DatabaseQueue {
  /// Opens the existing database at `url` for reading only: the queue of an app's extension (a
  /// widget, a share extension) on the database the app shares through an App Group.
  ///
  /// The app owns the database: it sets it up (`DatabaseSetup`, which migrates it) and writes
  /// it. The extension opens the same file with this, and never creates, migrates or writes it:
  /// its connection is read-only, `read` works as on any queue, and `write` throws
  /// `DatabaseAccessError.readOnlyQueue` without touching the file.
  ///
  /// ```swift
  /// // The app, at launch (off the main thread):
  /// var setup = DatabaseSetup(
  ///   database: try DatabaseSetup.appGroupDatabase(group: "group.com.example.notes"),
  ///   migrations: try DatabaseSetup.resource("migrations", in: .main))
  /// setup.usesWriteAheadLog = true
  /// let queue = try await setup.open()
  ///
  /// // The widget:
  /// let url = try DatabaseSetup.appGroupDatabase(group: "group.com.example.notes")
  /// let notes = try DatabaseQueue.readOnly(url: url)
  /// let rows = try await notes.read { db in try db.fetchRows("SELECT title FROM note") }
  /// ```
  ///
  /// Put the database in WAL mode (`DatabaseSetup.usesWriteAheadLog`), so that the
  /// extension's reads and the app's writes do not wait for each other, and each read sees
  /// what the app committed last. A read-only connection to a WAL database still needs its
  /// `-wal` and `-shm` files, which SQLite creates beside the database when missing (the App
  /// Group's container is writable, as is any folder the app writes the database in) and the
  /// app's connection removes when it closes last.
  ///
  /// Which migrations the database has is the app's business: an extension built with older
  /// (or newer) code than the app that last migrated reads the schema as it finds it, so read
  /// only what every version the two may be at has, or check `strata_migrations`. Suspend the
  /// extension's queue as the app's when the system suspends it (`suspend()`).
  ///
  /// - Parameter url: the database file, which must exist: nothing is created at a missing
  ///   path (the app has not set the database up yet).
  /// - Parameter configuration: the extensions and Swift functions the connection gets.
  /// - Parameter busyTimeout: how long a statement waits for another connection's lock, in
  ///   milliseconds (a database not in WAL mode is locked while the app writes it).
  /// - Throws: `DatabaseOpenError.missing` for a missing file; `.protectedDataUnavailable`
  ///   while the device is locked and the file's Data Protection class keeps it unreadable (a
  ///   widget may run then); `.notADatabase`, `.unreadable` and the other failures of opening;
  ///   `.hotJournal` when a writer crashed in the middle of a transaction of a rollback-journal
  ///   database and the file cannot be written to roll it back (where it can, that rollback,
  ///   the one write this makes, happens as the next writer would do it); what the
  ///   configuration throws.
  public static func readOnly(
    url: URL,
    configuration: ConnectionConfiguration = .none,
    busyTimeout: Int = Connection.defaultBusyTimeout
  ) throws -> DatabaseQueue {
    let connection = try Connection.open(
      at: url,
      access: .read,
      busyTimeout: busyTimeout,
      configuration: configuration
    )
    return DatabaseQueue(
      connection: connection,
      busyTimeout: busyTimeout,
      report: nil,
      isReadOnly: true
    )
  }
}
