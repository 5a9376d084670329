import Foundation

// Live queries on a pool: its writes go through its writer queue, whose commits wake the live
// queries (DatabaseQueue+Observation.swift), so the pool forwards to it.

extension DatabasePool {
  /// The value of `fetch` now, then again after every transaction of this pool that commits a
  /// change to a table it reads: `DatabaseQueue.observe(_:)`, on the pool's writer.
  ///
  /// `fetch` runs on the writer's connection, between writes, never on a reader: a fetch on a
  /// reader's snapshot could miss a commit made between the snapshot and the next wake-up.
  /// Fetches are coalesced, so a live query costs the writer one fetch per burst of commits.
  ///
  /// - Throws: from the iteration, as `DatabaseQueue.observe(_:)`.
  public func observe<T: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> T
  ) -> AsyncThrowingStream<T, any Error> {
    writer.observe(fetch)
  }

  /// `observe(_:)` with callbacks, as `DatabaseQueue.observe(_:onError:onChange:)`.
  ///
  /// - Throws: nothing itself: what `fetch` throws goes to `onError`, which ends the live query.
  public func observe<T: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> T,
    onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (T) -> Void
  ) -> DatabaseObservation {
    writer.observe(fetch, onError: onError, onChange: onChange)
  }
}
