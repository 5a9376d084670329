import Foundation

// An app (or extension) about to be suspended lets go of the database: `suspend()` stops what
// runs and refuses new accesses until `resume()`.

extension DatabaseQueue {
  /// Stops the access running now, if any, and refuses every `read` and `write` until
  /// `resume()`, so that the queue holds no lock on the database file while the app is
  /// suspended.
  ///
  /// iOS kills a suspended app that holds a file lock on a database in an App Group container
  /// (the crash report says `0xdead10cc`): another process sharing the file, an extension,
  /// would wait for a lock that a suspended app cannot let go of. Call this when the app is
  /// about to be suspended; safe from any thread (the main thread, while an access runs on
  /// another):
  ///
  /// - The statement running now stops (`sqlite3_interrupt`); a `write` that was running rolls
  ///   back, which lets go of the write lock, and throws `DatabaseAccessError.suspended` (a
  ///   write whose closure returns after `suspend()` rolls back too, and never commits). A
  ///   statement its closure starts afterwards is stopped too, within a thousand of SQLite's
  ///   steps. A `read` that was running throws `.suspended`.
  /// - Every `read` and `write` started while suspended throws `.suspended` at once, without
  ///   touching the file: no lock is taken.
  ///
  /// Closure code that runs between two statements is not stopped: its write rolls back when
  /// it returns. Keep writes short, as always.
  ///
  /// Begin a background task when the app goes to the background: it gives a write already
  /// running the time to finish, and its expiration handler, which the system calls before it
  /// suspends the app, suspends the queue. Resume it when the app comes back:
  ///
  /// ```swift
  /// // The scene delegate (or the app delegate's applicationDidEnterBackground(_:)).
  /// var backgroundTask = UIBackgroundTaskIdentifier.invalid
  ///
  /// func sceneDidEnterBackground(_ scene: UIScene) {
  ///   backgroundTask = UIApplication.shared.beginBackgroundTask { [self] in
  ///     queue.suspend()   // a write still running stops and rolls back: no lock is kept
  ///     endBackgroundTask()
  ///   }
  /// }
  ///
  /// func sceneWillEnterForeground(_ scene: UIScene) {
  ///   queue.resume()
  ///   endBackgroundTask()
  /// }
  ///
  /// func endBackgroundTask() {
  ///   guard backgroundTask != .invalid else { return }
  ///   UIApplication.shared.endBackgroundTask(backgroundTask)
  ///   backgroundTask = .invalid
  /// }
  /// ```
  ///
  /// An app that ends the background task earlier, its work done, calls `suspend()` first.
  /// Suspending a suspended queue does nothing more. An extension reading the shared database
  /// (`readOnly(url:)`) is suspended too: it has no `UIApplication`, and suspends its queue
  /// from `ProcessInfo.processInfo.performExpiringActivity(withReason:)` when the block is told
  /// the activity expires (docs/library.md, "An app and its extensions").
  public func suspend() {
    suspension.suspend()
  }

  /// Lets `read` and `write` run again after `suspend()`; an access that `suspend()` refused
  /// or stopped can then be tried again. Resuming a queue that is not suspended does nothing.
  public func resume() {
    suspension.resume()
    observers.resumed()
  }

  /// True between `suspend()` and `resume()`: every access throws
  /// `DatabaseAccessError.suspended`.
  public var isSuspended: Bool { suspension.isSuspended }
}

/// What `DatabaseQueue.suspend()` shares with the queue's accesses, under a lock of its own:
/// the queue's mutex is held by the access running now, which `suspend()` must reach.
///
/// `suspend()` interrupts the queue's connection whenever it is open: `sqlite3_interrupt`
/// stops the statement running at that moment, if any, and with none running it does nothing
/// (the next statement clears it). The queue takes the connection from here, under this lock,
/// before it closes it, so that an interrupt never reaches a closed connection. An access notes
/// the count of `suspend()` calls as it begins, and its write commits only when no call came
/// since. A progress handler, installed once, stops a statement the closure starts after
/// `suspend()`, which the interrupt misses when no statement ran at that moment; it answers
/// only while a closure runs, never during the queue's own `BEGIN`, `COMMIT` or `ROLLBACK`.
final class QueueSuspension: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Between `suspend()` and `resume()`. Under `mutex`.
  private var suspended = false
  /// How many times `suspend()` was called. Under `mutex`.
  private var suspensions = 0
  /// The queue's connection, until the queue closes it. Under `mutex`.
  private var connection: Unmanaged<Connection>?
  /// `suspensions` when the access running now began. Used only by the access's thread, as the
  /// two below, which holds the queue's mutex (it orders one access's use after the last's).
  private var suspensionsAtStart = 0
  /// True while the closure of an access runs (the progress handler runs on its thread).
  private var closureRuns = false

  /// Watches `connection`, which the queue owns and keeps open as long as this.
  init(_ connection: Connection) {
    pthread_mutex_init(mutex, nil)
    self.connection = .passUnretained(connection)
    connection.startInterruptChecks(Unmanaged.passUnretained(self).toOpaque()) { context in
      guard let context else { return 0 }
      let suspension = Unmanaged<QueueSuspension>.fromOpaque(context).takeUnretainedValue()
      return suspension.stopsClosure ? 1 : 0
    }
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  var isSuspended: Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return suspended
  }

  func suspend() {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    suspended = true
    suspensions &+= 1
    connection?._withUnsafeGuaranteedRef { $0.interrupt() }
  }

  func resume() {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    suspended = false
  }

  /// Before the queue closes the connection (its mutex held): `suspend()` no longer reaches
  /// it, and its progress handler is removed.
  func detach() {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    connection?._withUnsafeGuaranteedRef { $0.stopInterruptChecks() }
    connection = nil
  }

  /// Starts an access (the queue's mutex held): false when the queue is suspended, and the
  /// access must not touch the file.
  func beginAccess() -> Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    suspensionsAtStart = suspensions
    return !suspended
  }

  /// The access's closure starts: the progress handler may stop its statements from now on.
  func closureStarts() { closureRuns = true }

  /// The access's closure returned or threw (or never ran).
  func closureEnded() { closureRuns = false }

  /// The closure ended, before the queue's `COMMIT` or `ROLLBACK`: true when `suspend()` was
  /// called since the access began, or the queue is suspended, so that a write must not commit.
  func closureEndedStopped() -> Bool {
    closureRuns = false
    return stopsAccess
  }

  /// Whether `suspend()` was called since the access running now began, or the queue is
  /// suspended.
  var stopsAccess: Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return suspended || suspensions != suspensionsAtStart
  }

  /// The progress handler's question: a closure runs, and `suspend()` was called since its
  /// access began.
  private var stopsClosure: Bool { closureRuns && stopsAccess }
}
