import Foundation
import Strata
import StrataTestSupport
import Testing

/// Another process holds the database's write lock (`BEGIN IMMEDIATE`, or `BEGIN EXCLUSIVE`,
/// which keeps readers out too) while a writing command runs.
@Suite struct BusyDatabaseTests {
  /// A writing command, and how to tell that it did its job.
  struct Case: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    /// Unmanaged database (no history), for `baseline`.
    var unmanaged = false
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(arguments: ["migrate"]),
    Case(arguments: ["migrate", "--single-transaction"]),
    Case(arguments: ["rollback"]),
    Case(arguments: ["seed", "seeds/student.csv"]),
    Case(arguments: ["init"]),
    Case(arguments: ["baseline", "--version", "3"], unmanaged: true),
  ]

  /// The sample project with `app.sqlite3` at version 4 (one migration pending, one to roll
  /// back, the student seed not loaded); or, unmanaged, a database with tables and no history.
  private static func fixture(_ testCase: Case) throws -> Project {
    let project = try Project.sample()
    if testCase.unmanaged {
      try Connection(path: project.database.path).execute("CREATE TABLE legacy (x)")
    } else {
      let migrate = try project.strata("migrate", "--database", "app.sqlite3", "--to", "4")
      try #require(migrate.exitCode == 0, "\(migrate.standardError)")
    }
    return project
  }

  @Test(arguments: cases, [TransactionKind.immediate, .exclusive])
  func lockHeldPastTheTimeoutFailsAndChangesNothing(
    _ testCase: Case,
    _ lock: TransactionKind
  ) throws {
    let project = try Self.fixture(testCase)
    let before = try DatabaseFingerprint.of(project.database)
    let holder = try Connection(path: project.database.path)
    try holder.execute("BEGIN \(lock.rawValue)")
    let started = Date()
    let result = try StrataProcess.run(
      testCase.arguments + ["--database", "app.sqlite3", "--busy-timeout", "300"],
      in: project.dir.url
    )
    let waited = Date().timeIntervalSince(started)
    try holder.execute("COMMIT")
    #expect(result.exitCode == 1)
    let error = result.standardError
    #expect(error.contains("is locked by another connection"), "\(error)")
    #expect(
      error.contains("nothing was changed") || error.contains("the database is unchanged")
        || error.contains("no seed rows were written"),
      "\(error)"
    )
    #expect(error.contains("raise --busy-timeout"), "\(error)")
    #expect(waited >= 0.3, "gave up after \(waited) s, before --busy-timeout")
    #expect(try DatabaseFingerprint.of(project.database) == before)
    #expect(try DatabaseProbe.rows(project.database, "PRAGMA integrity_check") == [[.text("ok")]])
  }

  /// Released within the timeout, the lock only makes the command wait.
  @Test(arguments: cases, [TransactionKind.immediate, .exclusive])
  func lockReleasedWithinTheTimeoutIsWaitedFor(
    _ testCase: Case,
    _ lock: TransactionKind
  ) throws {
    let project = try Self.fixture(testCase)
    let before = try DatabaseFingerprint.of(project.database)
    let holder = try Connection(path: project.database.path)
    try holder.execute("BEGIN \(lock.rawValue)")
    let status = try StrataProcess.exitStatusAfterReleasing(
      holder,
      testCase.arguments + ["--database", "app.sqlite3", "--busy-timeout", "20000"],
      in: project.dir.url
    )
    #expect(status == 0)
    let after = try DatabaseFingerprint.of(project.database)
    #expect(after != before)
    if testCase.unmanaged {
      #expect(after.versions == [1, 2, 3])
    } else if testCase.arguments[0] == "rollback" {
      #expect(after.versions == [1, 2, 3])
    } else if testCase.arguments[0] == "seed" {
      #expect(after.rowCounts["student"] == 4)
    } else {
      #expect(after.versions == [1, 2, 3, 4, 5])
    }
  }
}
