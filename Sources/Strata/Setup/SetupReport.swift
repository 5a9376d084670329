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
  /// The seed problem this launch met, if any: always `SetupError.seedingFailed`, carrying the
  /// `SeedError` (at its `file:line`). A bundled seed file never locks the app out of its
  /// database: the seed run was rolled back as a whole (every seed file and the ledger are as
  /// they were before this call, so the next launch tries again), the migrations stay applied,
  /// and the database is usable. Log it, or show its `message`, one sentence; `throw` it where
  /// a seed problem must stop (a test). Encoded as its message and help; decoded as nil.
  public let seedProblem: SetupError?

  /// False when the call found everything up to date and wrote nothing.
  public var changedAnything: Bool {
    created || !appliedVersions.isEmpty || !seedFilesLoaded.isEmpty
  }

  init(
    database: String,
    created: Bool,
    templateCopied: Bool,
    template: String?,
    fromVersion: MigrationVersion,
    version: MigrationVersion,
    appliedVersions: [MigrationVersion],
    seedFilesLoaded: [String],
    seedProblem: SetupError? = nil
  ) {
    self.database = database
    self.created = created
    self.templateCopied = templateCopied
    self.template = template
    self.fromVersion = fromVersion
    self.version = version
    self.appliedVersions = appliedVersions
    self.seedFilesLoaded = seedFilesLoaded
    self.seedProblem = seedProblem
  }

  private enum CodingKeys: String, CodingKey {
    case database, created, templateCopied, template, fromVersion, version, appliedVersions
    case seedFilesLoaded, seedProblem
  }

  /// `seedProblem` as a reader of the JSON needs it: what failed, and what to do.
  private struct EncodedProblem: Codable {
    let message: String
    let help: String
  }

  /// Reads a report written by `encode(to:)`; its `seedProblem`, written as text, is nil.
  ///
  /// - Throws: `DecodingError` when a field is missing or of another type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      database: try container.decode(String.self, forKey: .database),
      created: try container.decode(Bool.self, forKey: .created),
      templateCopied: try container.decode(Bool.self, forKey: .templateCopied),
      template: try container.decodeIfPresent(String.self, forKey: .template),
      fromVersion: try container.decode(MigrationVersion.self, forKey: .fromVersion),
      version: try container.decode(MigrationVersion.self, forKey: .version),
      appliedVersions: try container.decode([MigrationVersion].self, forKey: .appliedVersions),
      seedFilesLoaded: try container.decode([String].self, forKey: .seedFilesLoaded)
    )
  }

  /// The report's fields; `seedProblem`, when there is one, as its `message` and `help`.
  ///
  /// - Throws: what the encoder throws (`EncodingError`).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(database, forKey: .database)
    try container.encode(created, forKey: .created)
    try container.encode(templateCopied, forKey: .templateCopied)
    try container.encodeIfPresent(template, forKey: .template)
    try container.encode(fromVersion, forKey: .fromVersion)
    try container.encode(version, forKey: .version)
    try container.encode(appliedVersions, forKey: .appliedVersions)
    try container.encode(seedFilesLoaded, forKey: .seedFilesLoaded)
    try container.encodeIfPresent(
      seedProblem.map { EncodedProblem(message: $0.message, help: $0.help) },
      forKey: .seedProblem
    )
  }

  /// Every field; the seed problem by its message (its `SeedError` reads the same).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(database)
    hasher.combine(created)
    hasher.combine(templateCopied)
    hasher.combine(template)
    hasher.combine(fromVersion)
    hasher.combine(version)
    hasher.combine(appliedVersions)
    hasher.combine(seedFilesLoaded)
    hasher.combine(seedProblem?.message)
  }
}
