import Foundation

/// What `DatabaseQueue` and `DatabasePool` both are: an app that holds `any DatabaseWriter`
/// chooses one at setup (a pool in the app, an in-memory queue in tests and previews) and
/// reads and writes the same way through either.
///
/// ```swift
/// final class Store {
///   let database: any DatabaseWriter
///   init(database: any DatabaseWriter) { self.database = database }
/// }
/// let store = Store(database: try await setup.openPool())          // the app
/// let preview = Store(database: try DatabaseQueue.inMemory())      // a preview
/// ```
public protocol DatabaseWriter: AnyObject, Sendable {
  /// The database file's path (`:memory:` for an in-memory database).
  var path: String { get }
  /// What the setup did before returning this handle; nil when it was opened on its own.
  var setupReport: SetupReport? { get }
  /// True for a handle that never writes (`DatabaseQueue.readOnly(url:)`).
  var isReadOnly: Bool { get }
  /// True between `suspend()` and `resume()`.
  var isSuspended: Bool { get }
  /// Runs `body` in a write transaction, committed when it returns.
  ///
  /// - Throws: what `body` throws, after the rollback; `DatabaseAccessError` (see
  ///   `DatabaseQueue.write(_:)`).
  func write<T>(_ body: (Database) throws -> T) throws -> T
  /// Runs `body` read-only.
  ///
  /// - Throws: what `body` throws; `DatabaseAccessError` (see `DatabaseQueue.read(_:)`).
  func read<T>(_ body: (Database) throws -> T) throws -> T
  /// `write(_:)` without blocking the calling task.
  ///
  /// - Throws: as `write(_:)`; `CancellationError` for a task cancelled before its turn.
  func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
  /// `read(_:)` without blocking the calling task.
  ///
  /// - Throws: as `read(_:)`; `CancellationError` for a task cancelled before its turn.
  func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
  /// Stops what runs and refuses every access until `resume()`.
  func suspend()
  /// Lets accesses run again after `suspend()`.
  func resume()
  /// Closes the connections; accesses then throw `DatabaseAccessError.closed`.
  func close()
  /// The value of `fetch` now, then again after each commit of this handle that changed a
  /// table it reads (see `DatabaseQueue.observe(_:)`).
  ///
  /// - Throws: from the iteration, what `fetch` throws; the errors of `read(_:)`.
  func observe<T: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> T
  ) -> AsyncThrowingStream<T, any Error>
  /// `observe(_:)` with callbacks (see `DatabaseQueue.observe(_:onError:onChange:)`).
  ///
  /// - Throws: nothing itself: what `fetch` throws goes to `onError`.
  func observe<T: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> T,
    onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (T) -> Void
  ) -> DatabaseObservation
}

extension DatabaseQueue: DatabaseWriter {}

extension DatabasePool: DatabaseWriter {}
