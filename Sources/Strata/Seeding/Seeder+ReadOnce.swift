import Foundation

// Files that can be read only once (standard input, a pipe, a FIFO) under `onlyUnrecorded`:
// whether the ledger has them is known only after they are read.
extension Seeder {
  /// Loads a read-once file inside a savepoint and undoes it when its checksum turns out to
  /// be recorded already; returns nil then. A load that fails is no failure when the file is
  /// recorded (its rows are already there and clash): the rest is read for the checksum.
  func loadUnlessRecorded(
    _ loader: SeedLoader,
    _ item: Planned,
    load: () throws -> SeedLoader.Counts
  ) throws -> SeedLoader.Counts? {
    let (table, format) = (item.table.name, item.file.format)
    try connection.execute("SAVEPOINT strata_seed_stream")
    let counts: SeedLoader.Counts
    do {
      counts = try load()
    } catch {
      // On any other outcome the run fails and its rollback takes the savepoint with it.
      guard let checksum = try? loader.checksum(),
        (try? isRecorded(checksum: checksum, table: table, format: format)) == true
      else { throw error }
      try undoStreamSavepoint()
      return nil
    }
    if try isRecorded(checksum: loader.checksum(), table: table, format: format) {
      try undoStreamSavepoint()
      return nil
    }
    try connection.execute("RELEASE strata_seed_stream")
    return counts
  }

  private func undoStreamSavepoint() throws {
    try connection.execute("ROLLBACK TO strata_seed_stream")
    try connection.execute("RELEASE strata_seed_stream")
  }
}
