import Foundation

// The seed step of `DatabaseSetup.run()`.
extension DatabaseSetup {
  /// Loads the seed files whose checksum is not in the `strata_seeds` ledger yet (for `sync`:
  /// not the file's last version), in `seedMode`, in one transaction; when every file is
  /// recorded nothing is written.
  func seedNewFiles(
    _ connection: Connection,
    settings: SeedSettings,
    progress: ((SeedProgress) -> Void)? = nil
  ) throws -> [String] {
    guard let seeds else { return [] }
    let listed = try Seeder.files(
      in: seeds,
      displayPath: seedsDisplayPath,
      followSymlinks: followsSymlinks
    )
    let files = settings.applied(to: listed, overrides: seedFormatOverrides)
    let report = try Seeder(connection: connection).seed(
      files,
      options: SeedOptions(
        mode: seedMode,
        onlyUnrecorded: true,
        maximumFieldBytes: seedMaximumFieldBytes
      ),
      progress: progress
    )
    return report.loadedFiles
  }
}
