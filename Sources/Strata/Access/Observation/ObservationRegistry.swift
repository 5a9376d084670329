import Foundation

/// The live queries of one `DatabaseQueue`: its `Database` tells them of each commit, under
/// the queue's mutex; they join and leave from any thread.
///
/// With none registered a write costs one look under this lock, and nothing is tracked.
final class ObservationRegistry: @unchecked Sendable {
  private let lock = NSLock()
  private var signals: [ObjectIdentifier: ObservationSignal] = [:]
  private var isClosed = false
  /// How many times a commit marked a live query changed, in all (tests read it to see that a
  /// commit woke nothing).
  private var wakes = 0

  /// True while at least one live query is registered: a write transaction then tracks its
  /// tables.
  var isActive: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !signals.isEmpty
  }

  /// The live queries registered now (for tests: zero once every observer has gone).
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return signals.count
  }

  /// Registers `signal`, from inside the read access of its first fetch (so that no commit
  /// falls between that fetch and the registration); false once the queue closed.
  func add(_ signal: ObservationSignal) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if isClosed { return false }
    signals[ObjectIdentifier(signal)] = signal
    return true
  }

  func remove(_ signal: ObservationSignal) {
    lock.lock()
    signals[ObjectIdentifier(signal)] = nil
    lock.unlock()
  }

  /// A transaction that may have changed `tables` committed: every live query reading one of
  /// them is marked changed.
  func committed(_ tables: TableSet) {
    var woken = 0
    for signal in registered() where signal.committed(tables) { woken += 1 }
    lock.lock()
    wakes += woken
    lock.unlock()
  }

  /// How many times a commit marked a live query changed, since the queue opened.
  var wakeCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return wakes
  }

  /// The queue closed: every live query ends.
  func closed() {
    lock.lock()
    isClosed = true
    let all = Array(signals.values)
    signals = [:]
    lock.unlock()
    for signal in all { signal.end() }
  }

  /// The queue resumed after `suspend()`: a live query waiting for it fetches again.
  func resumed() {
    for signal in registered() { signal.resumed() }
  }

  private func registered() -> [ObservationSignal] {
    lock.lock()
    defer { lock.unlock() }
    return Array(signals.values)
  }
}

/// What a commit, the queue's closing, a resume and the task's cancellation tell one live
/// query, and where its consumer waits for them.
final class ObservationSignal: @unchecked Sendable {
  enum Wake: Sendable {
    /// A commit changed a table it reads (or the queue resumed): fetch again.
    case changed
    /// The queue closed, or the consumer's task was cancelled: end.
    case ended
  }

  private let lock = NSLock()
  /// The tables the last fetch read. Set inside the fetch's read access.
  private var region = TableSet()
  /// A commit changed the region since the last fetch.
  private var isChanged = false
  /// The last fetch was refused while the queue was suspended: fetch again on `resume()`.
  private var waitsForResume = false
  private var isEnded = false
  private var waiter: CheckedContinuation<Wake, Never>?

  /// Records the region a fetch read, and that it saw every commit so far. Called inside the
  /// fetch's read access, under the queue's mutex, so no commit falls between the two.
  func fetched(region: TableSet) {
    lock.lock()
    self.region = region
    isChanged = false
    waitsForResume = false
    lock.unlock()
  }

  /// A commit that may have changed `tables`: true when it changed the region.
  func committed(_ tables: TableSet) -> Bool {
    lock.lock()
    guard region.intersects(tables) else {
      lock.unlock()
      return false
    }
    isChanged = true
    wake(.changed)
    return true
  }

  func resumed() {
    lock.lock()
    guard waitsForResume else {
      lock.unlock()
      return
    }
    waitsForResume = false
    isChanged = true
    wake(.changed)
  }

  /// Ends the live query: its consumer's wait returns `.ended`, now or at its next wait.
  func end() {
    lock.lock()
    isEnded = true
    wake(.ended)
  }

  /// A fetch was refused as the queue was suspended: wait for `resume()`.
  func waitForResume() {
    lock.lock()
    waitsForResume = true
    // No commit comes while suspended; `resume()` marks it changed again.
    isChanged = false
    lock.unlock()
  }

  /// Resumes the waiter, if any, with `wake`, and lets the lock go (held by the caller).
  private func wake(_ wake: Wake) {
    let waiter = self.waiter
    self.waiter = nil
    lock.unlock()
    waiter?.resume(returning: wake)
  }

  /// Waits until a commit changes the region (at once if one did since the last fetch), the
  /// live query ends, or the task is cancelled (which ends it).
  func next() async -> Wake {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
        lock.lock()
        if isEnded || Task.isCancelled {
          isEnded = true
          lock.unlock()
          continuation.resume(returning: .ended)
        } else if isChanged {
          lock.unlock()
          continuation.resume(returning: .changed)
        } else {
          waiter = continuation
          lock.unlock()
        }
      }
    } onCancel: {
      end()
    }
  }
}
