import Foundation

// Live queries: a fetch run again after each commit of this queue that changed a table it
// reads (ObservationRegistry.swift, TableTracking.swift).

extension DatabaseQueue {
  /// The value of `fetch` now, then again after every transaction of this queue that commits a
  /// change to a table it reads, so that a list on screen never polls.
  ///
  /// ```swift
  /// for try await people in queue.observe({ db in
  ///   try db.fetchAll(Person.self, "SELECT * FROM person WHERE age > ?", [18])
  /// }) {
  ///   self.people = people
  /// }
  /// ```
  ///
  /// - The first value is read when iteration starts; `fetch` runs in a `read` of this queue.
  /// - Values are coalesced: `fetch` runs when the consumer asks for the next value, once for
  ///   any number of commits since the last one, so a slow consumer gets the latest state,
  ///   never a backlog. A rolled-back transaction, and one that changed only other tables,
  ///   wakes nothing.
  /// - The tables are those SQLite's authorizer reports as read (a view counts as its tables)
  ///   and written (triggers and foreign-key actions included; any schema change counts as a
  ///   change of every table). A commit that ran a statement able to change a table may yield
  ///   a value equal to the last one.
  /// - Cancelling the consuming task ends the sequence; so does the queue's `close()`.
  ///   Releasing the sequence releases its registration.
  /// - Only this queue's own commits are seen: not another connection's or another process's
  ///   (the `strata` command line, an app extension), nor writes made before the queue opened.
  ///
  /// - Throws: from the iteration, what `fetch` throws (`SQLiteError` "no such table" once a
  ///   migration dropped a table it reads), after which the sequence ends; the errors of
  ///   `read(_:)` (`DatabaseAccessError.closed` when the queue is closed before the first
  ///   value). While the queue is suspended, the next value waits for `resume()`.
  public func observe<T: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> T
  ) -> AsyncThrowingStream<T, any Error> {
    let cursor = ObservationCursor(queue: self, fetch: fetch)
    return AsyncThrowingStream(unfolding: { try await cursor.next() })
  }

  /// `observe(_:)` with callbacks, for code that is not `async`: `onChange` receives the
  /// first value and each fresh one, `onError` the error that ends the live query. Both are
  /// called one at a time off the main thread (hop to the main actor to update a view).
  ///
  /// The live query runs until the returned `DatabaseObservation` is cancelled or released.
  ///
  /// - Throws: nothing itself: what `fetch` throws goes to `onError`, which ends the live query.
  public func observe<T: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> T,
    onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (T) -> Void
  ) -> DatabaseObservation {
    let values = observe(fetch)
    return DatabaseObservation(
      Task.detached {
        do {
          for try await value in values {
            // A value fetched as `cancel()` came is not delivered.
            if Task.isCancelled { break }
            onChange(value)
          }
        } catch {
          onError(error)
        }
      }
    )
  }
}

/// A live query started with callbacks (`DatabaseQueue.observe(_:onError:onChange:)`): keep
/// it as long as the callbacks should run.
public final class DatabaseObservation: Sendable {
  private let task: Task<Void, Never>

  init(_ task: Task<Void, Never>) { self.task = task }

  /// Stops the live query: no callback is called after the one running now, if any.
  public func cancel() { task.cancel() }

  deinit { task.cancel() }
}

/// One live query's consumer side: fetches when asked for the next value, and between values
/// waits for its `ObservationSignal`. Its one consumer asks for one value at a time.
final class ObservationCursor<T: Sendable>: @unchecked Sendable {
  private let queue: DatabaseQueue
  private let fetch: @Sendable (Database) throws -> T
  private let signal = ObservationSignal()
  private var started = false
  private var finished = false

  init(queue: DatabaseQueue, fetch: @escaping @Sendable (Database) throws -> T) {
    self.queue = queue
    self.fetch = fetch
  }

  deinit { queue.observers.remove(signal) }

  func next() async throws -> T? {
    if finished { return nil }
    if started, await signal.next() == .ended { return finish() }
    while true {
      do {
        let value = try await fetchNow()
        started = true
        return value
      } catch DatabaseAccessError.suspended {
        signal.waitForResume()
        // A resume before the line above is not missed: the queue says so.
        if queue.isSuspended, await signal.next() == .ended { return finish() }
      } catch is CancellationError {
        return finish()
      } catch DatabaseAccessError.closed where started {
        return finish()
      } catch {
        _ = finish()
        throw error
      }
    }
  }

  /// Fetches in a read of the queue, recording the tables read and (re)registering, so that
  /// no commit falls between the value and the registration.
  private func fetchNow() async throws -> T {
    let (signal, fetch, observers) = (self.signal, self.fetch, queue.observers)
    return try await queue.read { db in
      let (value, region) = try db.fetchTrackingReads(fetch)
      signal.fetched(region: region)
      _ = observers.add(signal)
      return value
    }
  }

  private func finish() -> T? {
    finished = true
    queue.observers.remove(signal)
    return nil
  }
}
