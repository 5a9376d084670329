import Foundation
import StrataTestSupport
import Testing

/// The repository's sample project (its `migrations` folder: person_info with name and age),
/// copied into a fresh folder for a test.
enum SampleProject {
  /// The repository's root.
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// A fresh folder with the sample migrations (not applied).
  static func copied() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("migrations"),
      to: folder.path("migrations")
    )
    return folder
  }

  /// A fresh folder with the sample migrations, migrated into app.sqlite3.
  static func migrated(
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws
    -> TemporaryDirectory
  {
    let folder = try copied()
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)", sourceLocation: sourceLocation)
    return folder
  }
}
