import Foundation

/// The shared state of a fleet run: the next database to start, the results so far, and the
/// progress closure, called under the lock so that its calls never overlap.
final class FleetQueue: @unchecked Sendable {
  private let lock = NSLock()
  private let databases: [URL]
  private let failFast: Bool
  private let progress: (@Sendable (SetupProgress) -> Void)?
  private var next = 0
  private var finished = 0
  private var failed = 0
  private var stopped = false
  private var outcomes: [Int: FleetDatabaseResult.Outcome] = [:]

  init(
    _ databases: [URL],
    failFast: Bool,
    progress: (@Sendable (SetupProgress) -> Void)?
  ) {
    self.databases = databases
    self.failFast = failFast
    self.progress = progress
  }

  /// Runs `workers` threads, each taking the next database until none is left (or the fleet
  /// stopped at a failure), and returns when all have finished.
  func runWorkers(
    _ workers: Int,
    _ work: @escaping @Sendable (URL) -> FleetDatabaseResult.Outcome
  ) {
    let group = DispatchGroup()
    for _ in 0..<workers {
      group.enter()
      let thread = Thread { [self] in
        while let index = take() { finish(index, work(databases[index])) }
        group.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    group.wait()
  }

  /// Every database's outcome in order; one never started is `skipped`.
  func results(_ databases: [URL]) -> [FleetDatabaseResult] {
    lock.withLock {
      databases.indices.map {
        FleetDatabaseResult(database: databases[$0], outcome: outcomes[$0] ?? .skipped)
      }
    }
  }

  private func take() -> Int? {
    lock.withLock {
      guard !stopped, next < databases.count else { return nil }
      next += 1
      return next - 1
    }
  }

  private func finish(_ index: Int, _ outcome: FleetDatabaseResult.Outcome) {
    lock.withLock {
      outcomes[index] = outcome
      finished += 1
      if case .failed = outcome {
        failed += 1
        if failFast { stopped = true }
      }
      let result = FleetDatabaseResult(database: databases[index], outcome: outcome)
      progress?(
        .databaseFinished(
          FleetProgress(result: result, finished: finished, total: databases.count, failed: failed)
        )
      )
    }
  }
}
