import Foundation

/// One reader connection of a `DatabasePool`, used by one read at a time (the pool checks it
/// out to the read): each read runs in `BEGIN DEFERRED` … `COMMIT` with `query_only` on.
final class PoolReader: @unchecked Sendable {
  let database: Database
  /// `suspend()`'s reach into this connection, as a queue's (DatabaseQueue+Suspension.swift).
  let suspension: QueueSuspension
  /// `BEGIN DEFERRED`, compiled once: the read transaction, whose snapshot is taken by the
  /// closure's first statement and kept until `COMMIT`.
  private let begin: Statement
  private let path: String

  init(connection: Connection, busyTimeout: Int) throws {
    path = connection.path
    begin = try connection.prepare("BEGIN DEFERRED")
    // A reader never commits a write: its own registry stays empty.
    database = Database(
      connection: connection,
      busyTimeout: busyTimeout,
      observers: ObservationRegistry()
    )
    suspension = QueueSuspension(connection)
  }

  /// Runs `body` inside one read transaction. The queue's fence (which refuses `BEGIN` from
  /// the closure) is down here: `commit()` and `rollback()` take it down as the last read
  /// ended, and `startAccess` raises it again for the closure.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    guard suspension.beginAccess() else { throw DatabaseAccessError.suspended(path: path) }
    do {
      defer { begin.reset() }
      try begin.step()
    } catch let error as SQLiteError {
      throw suspended(database.translated(error))
    }
    do {
      try database.startAccess(.reading)
      suspension.closureStarts()
      let result = try body(database)
      suspension.closureEnded()
      try database.commit()
      return result
    } catch {
      suspension.closureEnded()
      database.rollback()
      throw suspended(error)
    }
  }

  /// `DatabaseAccessError.suspended` in place of SQLite's interrupt when `suspend()` stopped
  /// the read; any other error as it is.
  private func suspended(_ error: any Error) -> any Error {
    guard let sqliteError = error as? SQLiteError, sqliteError.isInterrupt,
      suspension.stopsAccess
    else { return error }
    return DatabaseAccessError.suspended(path: path)
  }

  /// Finalizes the statements; the connection closes when the reader is released.
  func close() {
    suspension.detach()
    database.close()
  }
}

/// A pool's readers: made when a read needs one and none is idle, at most `maximumCount`,
/// kept for the next read. Under one mutex; a read waits on `capacity` for a reader.
final class PoolReaders: @unchecked Sendable {
  let maximumCount: Int
  private let url: URL
  private let path: String
  private let configuration: ConnectionConfiguration
  private let busyTimeout: Int
  private let mutex = NSLock()
  /// One unit per reader a read may take (idle or not made yet).
  private let capacity: DispatchSemaphore
  /// Readers not in use. Under `mutex`, as the rest.
  private var idle: [PoolReader] = []
  /// Every open reader, in use or not (`suspend()` reaches them all).
  private var open: [ObjectIdentifier: PoolReader] = [:]
  private var closed = false
  private var suspended = false

  init(
    url: URL,
    path: String,
    configuration: ConnectionConfiguration,
    busyTimeout: Int,
    maximumCount: Int
  ) {
    self.url = url
    self.path = path
    self.configuration = configuration
    self.busyTimeout = busyTimeout
    self.maximumCount = maximumCount
    capacity = DispatchSemaphore(value: maximumCount)
  }

  /// An idle reader, or a new one; waits while `maximumCount` are in use.
  func checkOut() throws -> PoolReader {
    try refusal()
    capacity.wait()
    mutex.lock()
    if closed || suspended {
      mutex.unlock()
      capacity.signal()
      try refusal()
    }
    if let reader = idle.popLast() {
      mutex.unlock()
      return reader
    }
    mutex.unlock()
    let reader: PoolReader
    do {
      reader = try PoolReader(
        connection: Connection.open(
          at: url,
          access: .write,
          busyTimeout: busyTimeout,
          configuration: configuration
        ),
        busyTimeout: busyTimeout
      )
    } catch {
      capacity.signal()
      throw error
    }
    mutex.lock()
    defer { mutex.unlock() }
    if closed {
      // `close()` came while the connection opened.
      reader.close()
      capacity.signal()
      throw DatabaseAccessError.closed(path: path)
    }
    open[ObjectIdentifier(reader)] = reader
    // `suspend()` came while the connection opened: the read finds out as it begins.
    if suspended { reader.suspension.suspend() }
    return reader
  }

  /// Gives `reader` back after its read: kept for the next, or closed when the pool closed.
  func checkIn(_ reader: PoolReader) {
    mutex.lock()
    if closed {
      open[ObjectIdentifier(reader)] = nil
      reader.close()
    } else {
      idle.append(reader)
    }
    mutex.unlock()
    capacity.signal()
  }

  /// Throws `.closed` after `close()`, `.suspended` while suspended.
  private func refusal() throws {
    mutex.lock()
    defer { mutex.unlock() }
    if closed { throw DatabaseAccessError.closed(path: path) }
    if suspended { throw DatabaseAccessError.suspended(path: path) }
  }

  /// Closes the idle readers now; those in use close when their read returns.
  func close() {
    mutex.lock()
    defer { mutex.unlock() }
    closed = true
    for reader in idle {
      open[ObjectIdentifier(reader)] = nil
      reader.close()
    }
    idle = []
  }

  func suspend() {
    mutex.lock()
    defer { mutex.unlock() }
    suspended = true
    for reader in open.values { reader.suspension.suspend() }
  }

  func resume() {
    mutex.lock()
    defer { mutex.unlock() }
    suspended = false
    for reader in open.values { reader.suspension.resume() }
  }
}
