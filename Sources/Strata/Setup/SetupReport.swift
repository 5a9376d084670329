import Foundation

/// What `DatabaseSetup.run()` (and `strata init`) did.
public struct SetupReport: Hashable, Sendable, Codable {
  /// The database file's path.
  public let database: String
  /// This call created the file (from the template or empty).
  public let created: Bool
  /// This call copied the template.
  public let templateCopied: Bool
  /// The template copied, if any.
  public let template: String?
  /// The version before this call (the template's version when it was just copied).
  public let fromVersion: MigrationVersion
  /// The version now.
  public let version: MigrationVersion
  /// The migrations this call applied.
  public let appliedVersions: [MigrationVersion]
  /// The seed files this call loaded.
  public let seedFilesLoaded: [String]

  /// False when the call found everything up to date and wrote nothing.
  public var changedAnything: Bool {
    created || !appliedVersions.isEmpty || !seedFilesLoaded.isEmpty
  }
}
