import Foundation

// A migration sent whole to a remote engine (a dqlite cluster): its statements, the
// foreign-key check and its history row between `BEGIN IMMEDIATE` and `COMMIT`, as one script
// and so one round trip, where the part-by-part path sends six. Only the common case goes this
// way; anything else, and any failure, takes the part-by-part path, which names the failing
// statement's file and line (a failed script is rolled back first, so that path starts from
// the database as it was).
extension MigrationPartRunner {
  /// Statements whose first word changes the transaction or the connection: a migration that
  /// holds one goes part by part, where the run refuses it with its line.
  private static let transactionWords: Set<String> = [
    "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "VACUUM", "PRAGMA", "ATTACH",
    "DETACH",
  ]

  /// Applies `part` as one script when the engine is remote and the part is an ordinary one
  /// (an up part in a transaction, the history table in place, no foreign-key violation known
  /// before it). False when it was not sent, or failed and was rolled back: the caller then
  /// runs the part as usual.
  ///
  /// - Throws: Only when the connection was lost (the part's fate is the engine's to tell).
  func runInOneRequest(_ part: MigrationPart) throws -> Bool {
    guard connection.isRemote, lock == nil, !part.isRollback, !part.isRepeatable,
      part.script.isTransactional, history.hasCurrentLayout,
      baseline.before?.isEmpty ?? true, baseline.mismatchedBefore.isEmpty,
      let script = oneRequestScript(part)
    else { return false }
    do {
      try connection.execute(script)
    } catch  where connection.isConnectionLost(error) {
      throw error
    } catch {
      // The script stopped part-way, its transaction open (or never begun): undo it whole.
      // Only "no transaction" may fail the ROLLBACK; any other failure leaves it open, and
      // the run stops there rather than go on inside it.
      do {
        try connection.execute("ROLLBACK")
      } catch let failure as SQLiteError where Self.foundNoTransaction(failure) {}
      return false
    }
    baseline.before = [:]
    baseline.mismatchedBefore = []
    baseline.kept = []
    baseline.keptCount = 0
    return true
  }

  /// Whether a ROLLBACK failed because no transaction was open (the script failed at its
  /// `BEGIN`, or SQLite had rolled back already).
  private static func foundNoTransaction(_ failure: SQLiteError) -> Bool {
    failure.message.contains("no transaction is active")
  }

  /// The part as one script, or nil when its text does not split into ordinary statements.
  private func oneRequestScript(_ part: MigrationPart) -> String? {
    let statements = SQLStatementScanner.statements(part.script.sql)
    guard
      !statements.contains(where: { Self.transactionWords.contains($0.words.first ?? "") })
    else { return nil }
    let migration = part.migration
    let version: String
    switch History.value(migration.version) {
    case .integer(let number): version = String(number)
    case .text(let text): version = quoteLiteral(text)
    default: return nil
    }
    let clock = "temp.strata_migration_clock"
    let head = """
      BEGIN IMMEDIATE;
      CREATE TEMP TABLE IF NOT EXISTS strata_migration_clock (started REAL);
      DELETE FROM \(clock);
      INSERT INTO \(clock) VALUES (julianday('now'));
      \(part.script.sql)
      ;
      """
    let values = [
      version, quoteLiteral(migration.name), quoteLiteral(migration.checksum),
      quoteLiteral(utcTimestamp(Date())),
      "CAST(round((julianday('now') - (SELECT started FROM \(clock))) * 86400000) AS INTEGER)",
      quoteLiteral(migration.version.ordering.rawValue),
    ]
    let script =
      head + "\n"
      + "SELECT json('strata: a foreign key violation in ' || \"table\") "
      + "FROM pragma_foreign_key_check LIMIT 1;\n"
      + "INSERT INTO strata_migrations (version, name, checksum, applied_at, duration_ms, kind) "
      + "VALUES (\(values.joined(separator: ", ")));\n"
      + "COMMIT;"
    // The part's text must end as a whole statement: a comment, string or trigger body left
    // open would swallow the check, the history row and the COMMIT. Then the three are
    // statements of their own after it.
    let headEnd = head.utf8.count
    let tail = SQLStatementScanner.statements(script).filter { $0.start >= headEnd }
    guard tail.map({ $0.words.first ?? "" }) == ["SELECT", "INSERT", "COMMIT"] else { return nil }
    return script
  }
}
