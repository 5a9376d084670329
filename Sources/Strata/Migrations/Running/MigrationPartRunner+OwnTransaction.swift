/// A statement `executeScript` ran does not start where `SQLStatementScanner` found one, so
/// the file's final `COMMIT` cannot be located with certainty.
private struct StatementMismatch: Error {
  let index: Int
}

/// Another process applied (or rolled back) the migration while the file ran: strata holds no
/// lock between the check before the file and the file's own transaction.
private struct ChangedMeanwhile: Error {}

extension MigrationPartRunner {
  /// Runs a part that manages its own transaction as written, in no transaction of strata's:
  /// just before the `COMMIT` that ends the file's last transaction, the foreign key check and
  /// the history change run inside that transaction, so the file and its record commit
  /// together. A failure rolls back the transaction it happened in; what the file committed
  /// before stays, and the error says what that is. False when the history shows the part
  /// already ran.
  ///
  /// The file's own `PRAGMA foreign_keys` statements run too; the setting the connection had
  /// before the part is restored after it, so the rest of the run keeps foreign keys deferred.
  func runAsWritten(
    _ part: MigrationPart,
    _ own: OwnTransaction,
    started: ContinuousClock.Instant
  ) throws -> Bool {
    guard try connection.transaction(.immediate, { try isPending(part) }) else { return false }
    // Earlier transactions of the file may commit before the check, so what the database had
    // before the part is learnt now: it cannot be rolled back to later.
    if baseline.before == nil {
      let check = try ForeignKeyMismatch.check(connection)
      baseline.before = check.violations
      baseline.mismatchedBefore = check.mismatched
    }
    let foreignKeys = try connection.scalar("PRAGMA foreign_keys")?.integerValue ?? 0
    defer {
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
      try? connection.execute("PRAGMA foreign_keys = \(foreignKeys == 0 ? "OFF" : "ON")")
    }
    let script = part.script
    let fence = sqlite?.raiseFence(.strataTables)
    defer { if let fence { sqlite?.restoreFence(fence) } }
    var seen = 0
    do {
      try connection.executeScript(script.sql, firstLine: script.firstLine) { statement in
        defer { seen += 1 }
        let index = own.index(startingAt: statement.byteRange.lowerBound)
        guard let index, index == seen else { throw StatementMismatch(index: seen) }
        guard index == own.finalCommit else { return }
        // strata's own statements, not the file's: the fence is for the file.
        if let fence { sqlite?.restoreFence(fence) }
        defer { _ = sqlite?.raiseFence(.strataTables) }
        guard try isPending(part) else { throw ChangedMeanwhile() }
        try Migrator.checkForeignKeys(
          connection,
          migration: part.migration,
          file: script.file,
          isRollback: part.isRollback,
          baseline: baseline
        )
        try writeHistory(part, started: started)
      }
    } catch let error as ScriptError {
      throw failure(part, own, at: error.statementNumber - 1, reason: "\(error.underlying)")
    } catch let error as MigrationError {
      guard case .foreignKeyViolation(_, _, let violations, let preexisting, _) = error else {
        throw error
      }
      let shown = violations.prefix(5).map(\.description).joined(separator: "; ")
      let earlier = preexisting > 0 ? " (besides \(preexisting) it had before, not blamed)" : ""
      throw failure(
        part,
        own,
        at: own.finalCommit,
        reason: "before its final COMMIT, the database has \(violations.count) new foreign key "
          + "violation(s): \(shown)\(violations.count > 5 ? " and more" : "")\(earlier)"
      )
    } catch is ChangedMeanwhile {
      // The file's last transaction is rolled back (below); when it is all the file did, the
      // other process's run stands alone, as in any other part's race.
      let outcome = own.outcome(
        failedAt: own.finalCommit,
        version: part.migration.version,
        isRollback: part.isRollback,
        changedMeanwhile: true
      )
      guard outcome.kept else { return false }
      throw MigrationError.ownTransactionFailed(
        version: part.migration.version,
        file: script.file,
        line: own.statements[own.finalCommit].line,
        reason: "another process \(part.isRollback ? "rolled back" : "applied") version "
          + "\(part.migration.version) while the file ran",
        outcome: outcome,
        isRollback: part.isRollback
      )
    } catch let mismatch as StatementMismatch {
      throw failure(
        part,
        own,
        at: min(mismatch.index, own.statements.count - 1),
        reason: "SQLite split the file into statements differently from strata's reading of "
          + "its transactions, so strata stopped before recording it"
      )
    }
    return true
  }

  /// The error for a part that manages its own transaction and failed at statement `index`.
  private func failure(
    _ part: MigrationPart,
    _ own: OwnTransaction,
    at index: Int,
    reason: String
  ) -> MigrationError {
    let index = min(max(index, 0), own.statements.count - 1)
    return .ownTransactionFailed(
      version: part.migration.version,
      file: part.script.file,
      line: own.statements[index].line,
      reason: reason,
      outcome: own.outcome(
        failedAt: index,
        version: part.migration.version,
        isRollback: part.isRollback
      ),
      isRollback: part.isRollback
    )
  }
}
