import Foundation

// The seed step of `DatabaseSetup.run()`.
extension DatabaseSetup {
  /// How the seed step names the seeds folder (its files in progress, the report and seed
  /// errors): `seedsDisplayPath`, else the folder's own name, so that a file is named relative
  /// to the folder that holds the seeds folder (the bundle's), never by a build machine's path.
  var shownSeedsFolder: String? { seedsDisplayPath ?? seeds?.lastPathComponent }

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
      displayPath: shownSeedsFolder,
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
