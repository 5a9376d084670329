/// The replay's check of down parts: each runs, fenced, against the schema it would meet in a
/// rollback (its own up part just replayed, nothing later), inside a savepoint that is always
/// undone, so the replay goes on from the up part. Running it, rather than only compiling each
/// statement, checks a statement against what the statements before it in the down part make
/// (a table created and then filled, renamed and then dropped).
extension MigrationReplay {
  /// The down part's first failure of its own, or nil; statements it cannot check in a
  /// transaction, or that fail only for want of the database's rows, are reported as not
  /// checked.
  func checkDown(of migration: Migration, afterSkips: Bool) throws -> ReplayFailure? {
    guard let down = migration.down else { return nil }
    // A down part that manages its own transaction is checked without its BEGIN and COMMIT.
    var sql = down.sql
    do {
      let part = MigrationPart(migration, down, .down)
      if let own = try OwnTransaction.find(in: part, format: format) {
        sql = own.withoutTransactionControl(down.sql)
      }
    } catch MigrationError.ownTransactionRefused(let version, let file, let line, let reason) {
      return ReplayFailure(version: version, file: file, line: line, reason: reason)
    }
    // As a rollback runs it: foreign keys off, so a table rebuild's DROP TABLE neither cascades
    // nor fails on its children.
    return try Migrator.withForeignKeysDeferred(scratch) {
      try run(down, sql: sql, of: migration, afterSkips: afterSkips)
    }
  }

  /// Runs `sql` (the down part's text, as checked) in a savepoint that is always undone.
  private func run(
    _ down: MigrationScript,
    sql: String,
    of migration: Migration,
    afterSkips: Bool
  ) throws -> ReplayFailure? {
    try scratch.execute("SAVEPOINT strata_replay_down")
    defer {
      _ = try? scratch.execute("ROLLBACK TO strata_replay_down")
      _ = try? scratch.execute("RELEASE strata_replay_down")
    }
    let fence = scratch.raiseFence(.strataTables)
    defer { scratch.restoreFence(fence) }
    do {
      _ = try scratch.executeScript(sql, firstLine: down.firstLine) { statement in
        let kind = self.scratch.lastPreparedKind
        if let what = TransactionBoundStatement.named(kind, sql: statement.sql) {
          throw DownNotChecked(line: statement.line, sql: statement.sql, what: what)
        }
      }
      return nil
    } catch let skipped as DownNotChecked {
      note(
        UncheckedStatement(
          file: down.file,
          line: skipped.line,
          statement: oneLine(skipped.sql),
          reason: "\(skipped.what) cannot run in the replay's check of the down part; the rest "
            + "of the down part was not checked"
        )
      )
      return nil
    } catch let error as ScriptError {
      let failed = error.underlying
      let excusable =
        failed.isRefusedByFence && !failed.changesStrataTable
        || (failed.isConstraint && !rowsAreTheReplays)
        || (afterSkips && !isSyntaxError(failed))
      if excusable {
        note(
          UncheckedStatement(
            file: down.file,
            line: error.line,
            statement: oneLine(failed.sql),
            reason: "it fails in the replay's check of the down part (\(failed.message)), "
              + "which has none of the database's rows or skipped a statement it may depend on"
          )
        )
        return nil
      }
      return ReplayFailure(
        version: migration.version,
        file: down.file,
        line: error.line,
        reason: "the down part fails against the schema its up part leaves (a rollback would "
          + "fail): \(failed.description)"
      )
    }
  }
}

/// A down statement that cannot run inside the replay's savepoint.
private struct DownNotChecked: Error {
  let line: Int
  let sql: String
  let what: String
}
