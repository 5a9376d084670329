import Foundation
import Strata

/// The build's check that no earlier release's data makes the launch's seed step fail: each
/// `.sqlite3` in `folder` (the templates of the releases shipped, `v1.sqlite3`, `v2.sqlite3` …)
/// is copied to a temporary folder and set up as the app's launch would set it up
/// (`DatabaseSetup` with the target's migrations, seeds and settings: the path `UpgradeCheck`
/// takes). A seed file that would fail (a header naming a column a migration dropped or
/// renamed, a value that no longer fits its column) fails the build with its `file:line`; at
/// launch it would not lock the user out, but the bundled data would not load.
struct ReleaseCheck {
  let folder: URL
  let migrations: URL
  let seeds: URL?
  let settings: URL?

  func run() throws {
    var setup = DatabaseSetup(
      database: folder,
      migrations: migrations,
      seeds: seeds.flatMap { pathStatus(atPath: $0.path) == .missing ? nil : $0 }
    )
    setup.migrationsDisplayPath = migrations.path
    setup.seedsDisplayPath = seeds?.path
    setup.settingsFile = settings.flatMap {
      pathStatus(atPath: $0.path) == .missing ? nil : $0
    }
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-release-check-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    for release in DatabaseSetup.releaseFiles(in: folder) {
      let copy = scratch.appendingPathComponent(release.lastPathComponent)
      try FileManager.default.copyItem(at: release, to: copy)
      let report: SetupReport
      do {
        report = try setup.launch(onCopy: copy)
      } catch let error as any StrataError {
        throw StepError(
          message: "upgrading the earlier release's template \(release.path) as the app's "
            + "launch would fails: \(error.message)",
          help: error.help
        )
      }
      if case .seedingFailed(_, _, let version, let error) = report.seedProblem {
        throw StepError(
          message: "after upgrading the earlier release's template \(release.path) to version "
            + "\(version), the launch's seed step fails: \(error.problem); shipped, the app "
            + "would open that database without the bundled data, at every launch until the "
            + "file is fixed",
          help: "\(error.help) The seed file must load on a database of every earlier release: "
            + "keep its header to columns the migrations keep and its values fitting the "
            + "columns now (or add a migration that makes them fit)."
        )
      }
    }
  }
}
