import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A migration long enough to cancel: 0002 inserts as many rows as `config.n` says (20
/// million, seconds of work), so that a test can shrink it before running it again.
private func longMigrationFolder() throws -> (TemporaryDirectory, DatabaseSetup) {
  let dir = try TemporaryDirectory()
  try dir.write(
    "migrations/0001_config.sql",
    "CREATE TABLE config (n INTEGER);\nINSERT INTO config VALUES (20000000);\n"
      + "CREATE TABLE big (x INTEGER);\n"
  )
  try dir.write(
    "migrations/0002_fill.sql",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
      + "WHERE x < (SELECT n FROM config))\nINSERT INTO big SELECT x FROM c;\n"
  )
  try dir.write("migrations/0003_after.sql", "CREATE TABLE after (x);\n")
  return (dir, DatabaseSetup(database: dir.path("app.sqlite3"), migrations: dir.path("migrations")))
}

/// The fixture's setup with its template and a seeds folder holding `rows` rows for `b`.
private func seededSetup(rows: Int) throws -> (SetupFixture, DatabaseSetup) {
  let fixture = try SetupFixture()
  try writeSeedRows(rows, in: fixture)
  var setup = fixture.setup(template: fixture.template)
  setup.seeds = fixture.dir.path("seeds")
  return (fixture, setup)
}

/// Runs `setup` in a task, cancels it `delay` after it reported what `reached` looks for, and
/// returns what the task threw, how long after the cancel it ended, and what it reported.
///
/// The cancel is scheduled from the progress report onto a Dispatch queue, and the end is timed
/// inside the task: both stay on time when other tests keep the cooperative pool busy (a polling
/// loop on that pool once waited until the whole migration had finished, then cancelled nothing).
private func cancelled(
  _ setup: DatabaseSetup,
  after delay: Duration = .milliseconds(100),
  once reached: @escaping @Sendable (SetupProgress) -> Bool
) async -> (error: (any Error)?, latency: Duration, log: ProgressLog) {
  let log = ProgressLog()
  let handle = TaskHandle()
  let cancelledAt = InstantBox()
  let scheduled = InstantBox()
  var setup = setup
  setup.progress = { event in
    log.record(event)
    guard reached(event), scheduled.instant == nil else { return }
    scheduled.instant = .now
    let (seconds, attoseconds) = delay.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
      let task = handle.waitForTask()
      cancelledAt.instant = .now
      task.cancel()
    }
  }
  let task = Task.detached {
    [setup] () async -> (error: (any Error)?, end: ContinuousClock.Instant) in
    do {
      try await setup.run()
      return (nil, .now)
    } catch {
      return (error, .now)
    }
  }
  handle.set(task)
  let (error, end) = await task.value
  guard let cancel = cancelledAt.instant else {
    Issue.record("the run ended before it was cancelled; reported \(log.all)")
    return (error, .zero, log)
  }
  return (error, end - cancel, log)
}

/// The running task, set once it exists, for a Dispatch block that may fire before that.
private final class TaskHandle: @unchecked Sendable {
  private let condition = NSCondition()
  private var task: Task<(error: (any Error)?, end: ContinuousClock.Instant), Never>?

  func set(_ task: Task<(error: (any Error)?, end: ContinuousClock.Instant), Never>) {
    condition.lock()
    self.task = task
    condition.broadcast()
    condition.unlock()
  }

  func waitForTask() -> Task<(error: (any Error)?, end: ContinuousClock.Instant), Never> {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let task { return task }
      condition.wait()
    }
  }
}

/// The report that the 20-million-row migration (0002) is starting.
@Sendable private func isApplyingTheLongMigration(_ event: SetupProgress) -> Bool {
  guard case .migrating(let migration) = event else { return false }
  return migration.version == 2
}

@Suite(.serialized) struct SetupCancellationTests {
  @Test func cancellingInterruptsTheRunningMigrationAndRollsItBack() async throws {
    let (dir, setup) = try longMigrationFolder()
    let (error, latency, _) = await cancelled(setup, once: isApplyingTheLongMigration)
    print("20,000,000-row migration: cancelled 100 ms into it, ended \(latency) later")
    #expect(error is CancellationError, "threw \(String(describing: error))")
    #expect(latency < .seconds(1), "took \(latency) after the cancel")
    let db = try Connection(path: dir.path("app.sqlite3").path)
    // The migration before it committed and stays; the interrupted one left nothing.
    #expect(try History.currentVersion(db) == 1)
    #expect(try db.scalar("SELECT count(*) FROM big") == .integer(0))
    #expect(db.isAutocommit)
    try db.execute("UPDATE config SET n = 1000")
    let report = try await setup.run()
    #expect(report.appliedVersions == [2, 3])
    #expect(try db.scalar("SELECT count(*) FROM big") == .integer(1000))
  }

  @Test func cancellingInASingleTransactionRollsBackEveryMigrationOfTheRun() async throws {
    let (dir, plain) = try longMigrationFolder()
    var setup = plain
    setup.migrateOptions.singleTransaction = true
    let (error, _, _) = await cancelled(setup, once: isApplyingTheLongMigration)
    #expect(error is CancellationError)
    let db = try Connection(path: dir.path("app.sqlite3").path)
    #expect(try History.currentVersion(db) == 0)
    #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'big'") == .integer(0))
  }

  @Test func cancellingInterruptsTheSeedRunAndASecondRunLoadsIt() async throws {
    let (fixture, plain) = try seededSetup(rows: 200_000)
    var setup = plain
    // How long the whole seed takes, uncancelled, on a copy: what a cancelled task used to wait.
    var whole = setup
    whole.database = fixture.dir.path("whole.sqlite3")
    let clock = ContinuousClock()
    let start = clock.now
    try await whole.run()
    let wholeDuration = clock.now - start

    let (error, latency, log) = await cancelled(setup, once: { $0.step == .seeding })
    print(
      "200,000-row setup: \(wholeDuration) to the end; cancelled 100 ms into the seed run, ended "
        + "\(latency) later"
    )
    #expect(error is CancellationError, "threw \(String(describing: error))")
    #expect(latency < .seconds(1))
    #expect(latency < wholeDuration)
    let db = try Connection(path: fixture.database.path)
    #expect(try History.currentVersion(db) == 3)
    #expect(try db.scalar("SELECT count(*) FROM b") == .integer(0))
    // The ledger was created in the seed run's transaction: it went with it.
    #expect(
      try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'strata_seeds'") == .integer(0)
    )
    #expect(!log.all.contains(.done))
    setup.progress = nil
    let report = try await setup.run()
    #expect(report.seedFilesLoaded.count == 1)
    #expect(try db.scalar("SELECT count(*) FROM b") == .integer(200_000))
  }

  /// Cancelled from its own progress report once 65,536 rows are in: the next insert stops.
  /// Checked by the rows the loop went on to report, not by the clock: how soon the awaiting
  /// code runs again depends on the machine's load (a full run on 2 cores once took 1 s to
  /// resume here), while a loop that went on would report more rows on any machine.
  @Test func cancellingInTheRowLoopStopsAtTheNextInsert() async throws {
    let (fixture, plain) = try seededSetup(rows: 200_000)
    var setup = plain
    let cancelledAt = InstantBox()
    let log = ProgressLog()
    setup.progress = { event in
      log.record(event)
      guard case .seeding(let seed) = event, seed.rowsRead >= 65_536, !seed.isFinished,
        cancelledAt.instant == nil
      else { return }
      cancelledAt.instant = .now
      withUnsafeCurrentTask { $0?.cancel() }
    }
    let task = Task.detached { () async -> (error: (any Error)?, end: ContinuousClock.Instant) in
      do {
        try await setup.run()
        return (nil, .now)
      } catch {
        return (error, .now)
      }
    }
    let (error, end) = await task.value
    let cancelled = try #require(cancelledAt.instant)
    print("200,000-row seed: cancelled at 65,536 rows, ended \(end - cancelled) later")
    // The loop reports every 65,536 rows and once more at its end: a run that went on after the
    // cancel would have reported 131,072 rows or more, whatever the machine's load.
    let reported = log.all.compactMap { event -> Int? in
      guard case .seeding(let seed) = event else { return nil }
      return seed.rowsRead
    }
    #expect((reported.max() ?? 0) < 131_072, "reported \(reported)")
    #expect(error is CancellationError, "threw \(String(describing: error))")
    let db = try Connection(path: fixture.database.path)
    #expect(try db.scalar("SELECT count(*) FROM b") == .integer(0))
    #expect(try History.currentVersion(db) == 3)
  }

  @Test func aTaskCancelledBeforeItStartsCreatesNothing() async throws {
    let fixture = try SetupFixture()
    let setup = fixture.setup(template: fixture.template)
    let task = Task.detached {
      while !Task.isCancelled { await Task.yield() }
      return try await setup.run()
    }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(databaseFileKind(at: fixture.database.path) == .missing)
  }

  /// The sync form, called from a synchronous context, has no cancellation and runs to the end.
  @Test func theSyncFormIsPickedInASyncContext() throws {
    let fixture = try SetupFixture()
    let setup = fixture.setup()
    let report: SetupReport = try setup.run()
    #expect(report.version == 3)
  }

  @Test func theInterruptCheckIsRemovedAfterTheCall() throws {
    let db = try Connection(path: ":memory:")
    let flag = CancellationFlag()
    flag.set()
    let error = #expect(throws: SQLiteError.self) {
      try db.withInterruptCheck({ flag.isSet }) {
        try db.scalar(
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        )
      }
    }
    #expect(error?.isInterrupt == true)
    // Outside the call a long statement is not interrupted.
    #expect(
      try db.scalar(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) "
          + "SELECT count(*) FROM c"
      ) == .integer(100_000)
    )
  }
}

/// An instant set from one thread and read from another.
private final class InstantBox: @unchecked Sendable {
  private let lock = NSLock()
  private var value: ContinuousClock.Instant?

  var instant: ContinuousClock.Instant? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return value
    }
    set {
      lock.lock()
      value = newValue
      lock.unlock()
    }
  }
}
