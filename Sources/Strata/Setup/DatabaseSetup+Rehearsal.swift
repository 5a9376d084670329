import Foundation

// The launch, tried before shipping on an earlier release's database: `UpgradeCheck` and the
// build plugin's previous-release check both go through here, so that what they try is what
// the app's launch does (the same `run(isCancelled:)`, the same options, seed mode and
// settings).
extension DatabaseSetup {
  /// Sets up `copy` (an earlier release's template or database, copied by the caller) as the
  /// app's launch would find it: this setup with `copy` as its database, no template (the file
  /// exists), no progress and no file protection. With `seeding` false only the migrations run (the seed files are
  /// left for a second call), so a caller can compare the rows the migrations kept before the
  /// seed step changes any.
  ///
  /// - Throws: what `run()` throws (a seed problem is in the report, as at launch).
  package func launch(onCopy copy: URL, seeding: Bool = true) throws -> SetupReport {
    var setup = self
    setup.database = copy
    setup.template = nil
    setup.progress = nil
    setup.createsFolder = false
    // A scratch copy: no protection class to give (and none that a test folder could take).
    setup.fileProtection = nil
    if !seeding { setup.seeds = nil }
    return try setup.run()
  }

  /// The `.sqlite3` files in `folder`, in release order (`v2` before `v10`); none when it has
  /// none or is not a folder.
  package static func releaseFiles(in folder: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".sqlite3") }
      .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
      .map { folder.appendingPathComponent($0) }
  }
}
