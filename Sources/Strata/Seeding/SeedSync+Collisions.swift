import Foundation

/// The row-by-row merge of a `sync` load, run only when the set-based update or insert was
/// refused by a constraint (see `SeedSync.merge`).
///
/// Each update and insert is tried alone. A row refused by a UNIQUE constraint (or the primary
/// key) waits and is tried again once the others moved, until no row moves any more; any other
/// refusal (NOT NULL, CHECK, a foreign key) is an error of the file, at its line. Updates still
/// waiting then form cycles (a swap of two UNIQUE values, a rotation of three): inside a
/// savepoint their UNIQUE columns are first parked on a placeholder value unique to each row,
/// then the updates are tried again; if any is still refused (or the table refuses the
/// placeholder, say by a CHECK), the savepoint is rolled back. A row still waiting after that
/// collides with a row that is not the file's own (the user's, or another file's): it is not
/// applied and counts as kept, and its ledger entry is left as it was ("pending"), so that the
/// next version of the file tries it again. Only two rows of the file itself that share a
/// UNIQUE value fail the run.
extension SeedSync {
  struct Applied {
    var updated = 0
    var inserted = 0
    /// Rows not applied because they collide with a row that is not the file's own.
    var pending = 0
  }

  /// A staged row to apply.
  private struct Waiting {
    let row: SQLValue
    let isUpdate: Bool
  }

  /// SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY.
  private static func isCollision(_ error: SQLiteError) -> Bool {
    error.extendedCode == 2067 || error.extendedCode == 1555
  }

  func applyRowByRow(target: String) throws -> Applied {
    let rows = try connection.rows(
      "SELECT srow, action = 'update' FROM temp.strata_sync_act "
        + "WHERE action IN ('update', 'insert') ORDER BY srow"
    )
    let statements = try Statements(sync: self, target: target)
    var applied = Applied()
    var refused: [SQLValue: SQLiteError] = [:]
    var waiting = try applyUntilStuck(
      rows.map { Waiting(row: $0[0], isUpdate: $0[1].integerValue == 1) },
      statements,
      &applied,
      &refused
    )
    let cycle = waiting.filter(\.isUpdate)
    if !cycle.isEmpty, let parked = try breakCycle(cycle, statements, target: target) {
      applied.updated += parked
      waiting.removeAll(where: \.isUpdate)
    }
    for item in waiting {
      if let error = refused[item.row], try duplicatedInFile(item.row) {
        throw SeedError.rowFailed(
          file: displayPath,
          line: try line(ofStageRow: item.row),
          column: nil,
          error: error
        )
      }
    }
    if !waiting.isEmpty {
      _ = try connection.run(
        "UPDATE temp.strata_sync_act SET action = 'pending' WHERE srow IN ("
          + waiting.map { _ in "?" }.joined(separator: ", ") + ")",
        waiting.map(\.row)
      )
    }
    applied.pending = waiting.count
    return applied
  }

  /// Applies the rows one by one, again and again while some move; returns those that wait.
  private func applyUntilStuck(
    _ rows: [Waiting],
    _ statements: Statements,
    _ applied: inout Applied,
    _ refused: inout [SQLValue: SQLiteError]
  ) throws -> [Waiting] {
    var left = rows
    while !left.isEmpty {
      var next: [Waiting] = []
      for item in left {
        do {
          try statements.apply(item)
          if item.isUpdate { applied.updated += 1 } else { applied.inserted += 1 }
        } catch let error as SQLiteError where Self.isCollision(error) {
          refused[item.row] = error
          next.append(item)
        } catch let error as SQLiteError {
          throw SeedError.rowFailed(
            file: displayPath,
            line: try line(ofStageRow: item.row),
            column: nil,
            error: error
          )
        }
      }
      if next.count == left.count { return next }
      left = next
    }
    return []
  }

  /// Parks the cycle's UNIQUE values on placeholders, then applies its updates; the number
  /// applied, or nil (everything rolled back) when one of them still cannot be.
  private func breakCycle(
    _ cycle: [Waiting],
    _ statements: Statements,
    target: String
  ) throws
    -> Int?
  {
    guard let park = try statements.park(target: target) else { return nil }
    try connection.execute("SAVEPOINT strata_sync_cycle")
    var done = false
    defer {
      if !done { try? connection.execute("ROLLBACK TO strata_sync_cycle") }
      try? connection.execute("RELEASE strata_sync_cycle")
    }
    var applied = Applied()
    var refused: [SQLValue: SQLiteError] = [:]
    do {
      for item in cycle {
        try park.bind([item.row])
        defer { park.reset() }
        while try park.step() {}
      }
      guard try applyUntilStuck(cycle, statements, &applied, &refused).isEmpty else {
        return nil
      }
    } catch is SQLiteError {
      return nil
    } catch is SeedError {
      return nil
    }
    done = true
    return applied.updated
  }

  /// Whether another row of the file has the same values in one of the table's UNIQUE keys
  /// (other than the sync key) as the staged row `row`.
  private func duplicatedInFile(_ row: SQLValue) throws -> Bool {
    for unique in otherUniqueKeys() {
      let same = unique.map(quoteIdentifier).map { "O.\($0) = S.\($0)" }
        .joined(separator: " AND ")
      let found = try connection.scalar(
        "SELECT EXISTS (SELECT 1 FROM temp.\(quoteIdentifier(stage)) AS S JOIN temp."
          + "\(quoteIdentifier(stage)) AS O ON O.rowid <> S.rowid AND \(same) "
          + "WHERE S.rowid = ?)",
        [row]
      )
      if found?.integerValue == 1 { return true }
    }
    return false
  }

  /// The table's UNIQUE keys other than the sync key whose columns are all in the file.
  func otherUniqueKeys() -> [[String]] {
    let fileColumns = Set(columns.map(Seeder.folded))
    let keyColumns = key.columns.map(Seeder.folded)
    return table.keys.map(\.columns).filter { unique in
      unique.map(Seeder.folded) != keyColumns
        && unique.allSatisfy { fileColumns.contains(Seeder.folded($0)) }
    }
  }

  /// The prepared statements that apply one staged row.
  private struct Statements {
    let update: (any SQLStatement)?
    let insert: any SQLStatement
    let sync: SeedSync

    init(sync: SeedSync, target: String) throws {
      self.sync = sync
      let stage = "temp.\(quoteIdentifier(sync.stage))"
      let keyNames = sync.key.columns.map(quoteIdentifier)
      let keyMatch =
        "(" + keyNames.map { "t0.\($0)" }.joined(separator: ", ") + ") = (SELECT "
        + keyNames.map { "S.\($0)" }.joined(separator: ", ") + " FROM \(stage) AS S "
        + "WHERE S.rowid = ?1)"
      let others = sync.nonKeyColumns.map(quoteIdentifier)
      update =
        others.isEmpty
        ? nil
        : try sync.connection.prepare(
          "UPDATE OR ABORT \(target) AS t0 SET ("
            + others.joined(separator: ", ") + ") = (SELECT "
            + others.map { "S.\($0)" }.joined(separator: ", ")
            + " FROM \(stage) AS S WHERE S.rowid = ?1) WHERE \(keyMatch)"
        )
      let names = sync.columns.map(quoteIdentifier).joined(separator: ", ")
      insert = try sync.connection.prepare(
        "INSERT OR ABORT INTO \(target) (\(names)) SELECT \(names) FROM \(stage) AS S "
          + "WHERE S.rowid = ?1"
      )
      self.keyMatch = keyMatch
    }

    private let keyMatch: String

    func apply(_ item: Waiting) throws {
      guard let statement = item.isUpdate ? update : insert else { return }
      try statement.bind([item.row])
      defer { statement.reset() }
      while try statement.step() {}
    }

    /// Sets the row's UNIQUE columns (outside the sync key) to a text no row holds; nil when
    /// the table has none in the file.
    func park(target: String) throws -> (any SQLStatement)? {
      let keyColumns = Set(sync.key.columns.map(Seeder.folded))
      var parked: [String] = []
      for column in sync.otherUniqueKeys().joined()
      where !keyColumns.contains(Seeder.folded(column))
        && !parked.contains(where: { Seeder.folded($0) == Seeder.folded(column) })
      {
        parked.append(column)
      }
      guard !parked.isEmpty else { return nil }
      let set = parked.map {
        "\(quoteIdentifier($0)) = 'strata-sync-placeholder-' || ?1"
      }.joined(separator: ", ")
      return try sync.connection.prepare("UPDATE \(target) AS t0 SET \(set) WHERE \(keyMatch)")
    }
  }
}
