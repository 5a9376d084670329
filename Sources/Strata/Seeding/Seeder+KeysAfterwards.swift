import Foundation

// A key repeated inside one CSV is found by recording each key in a temporary table as the
// rows go in (`SeedLoader+DuplicateKeys.swift`): a second statement for every batch of rows.
// Over a network (a dqlite cluster) that doubles the round trips, so when the table is empty
// and the mode keeps existing rows, the file loads without it inside a savepoint: every row
// must then go in, and a row left out can only be a repeated key (or a row a trigger put
// there first). Then, or on any failure, the savepoint is rolled back and the file loads
// again the usual way, which names the lines: the outcome is the usual load's either way.
extension Seeder {
  /// Whether `loader`'s file may load without recording its keys as it goes.
  func checksKeysAfterwards(_ loader: SeedLoader) throws -> Bool {
    guard connection.isRemote, loader.key != nil, !loader.seedsOnce,
      loader.rules.keyConflict == .keepExisting, !loader.rules.mergesFromStage
    else { return false }
    let table = quoteIdentifier(loader.table.name)
    return try connection.scalar("SELECT 1 FROM main.\(table) LIMIT 1") == nil
  }

  /// Loads `loader`'s file with its keys checked afterwards (`load`), or, when a row was left
  /// out or the load failed, undoes it and loads the file again with `loadAsUsual`; returns
  /// the loader that loaded it and what it loaded.
  func loadCheckingKeysAfterwards(
    _ loader: SeedLoader,
    load: () throws -> SeedLoader.Counts,
    loadAsUsual: () throws -> (SeedLoader, SeedLoader.Counts)
  ) throws -> (SeedLoader, SeedLoader.Counts) {
    loader.checksKeysAfterwards = true
    try connection.execute("SAVEPOINT strata_seed_keys_afterwards")
    do {
      if let engine = connection as? any BatchesSentAhead {
        // The batches go ahead of their answers, so some may run after one that failed. One
        // that ended the transaction (a trigger's RAISE(ROLLBACK), a full disk) must not let
        // the next commit alone: each INSERT requires this table, gone with the transaction.
        let marker = "strata_seed_open_\(UInt32.random(in: 0...UInt32.max))"
        try connection.execute("CREATE TEMP TABLE \(quoteIdentifier(marker)) (unused)")
        loader.sendsAhead = (engine, marker)
      }
      let counts = try load()
      if let marker = loader.sendsAhead?.marker {
        try connection.execute("DROP TABLE temp.\(quoteIdentifier(marker))")
      }
      try connection.execute("RELEASE strata_seed_keys_afterwards")
      return (loader, counts)
    } catch  where connection.isConnectionLost(error) {
      throw error
    } catch {
      // When the failure ended the transaction, the savepoint went with it: the run fails
      // with that error (and its rollback finds nothing left to undo).
      // Answers still owed to batches sent ahead are read (and any failure among them
      // dropped: the usual load names it) before the rollback is sent.
      _ = try? loader.sendsAhead?.engine.rowsChangedByBatchesAhead()
      let undone: Bool
      do {
        try connection.execute("ROLLBACK TO strata_seed_keys_afterwards")
        try connection.execute("RELEASE strata_seed_keys_afterwards")
        undone = true
      } catch {
        undone = false
      }
      guard undone else { throw error }
      return try loadAsUsual()
    }
  }
}

/// A load with its keys checked afterwards left a row out: a key repeats in the file.
struct KeysNeedChecking: Error {}
