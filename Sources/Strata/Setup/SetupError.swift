/// Setting up a database at launch (template, migrations, seeds) failed.
public enum SetupError: StrataError, Equatable {
  /// A resource the app bundles (migrations, template, seeds) is not in the bundle.
  case resourceMissing(name: String, bundle: String)
  /// A resource folder (the migrations, the seeds) is missing, and the files it should hold
  /// sit loose in `container` (the bundle) instead: the folder was flattened when it was
  /// bundled (SwiftPM's `.process` instead of `.copy`, or an Xcode group).
  case folderFlattened(name: String, container: String, looseFiles: [String])
  /// `MigrateOptions.dryRun` was asked of a setup, which cannot plan without creating the
  /// database; nothing was created or changed.
  case dryRunNotSupported
  /// The template URL names no file.
  case templateMissing(path: String)
  /// The template is not a complete SQLite database; no database was created. `underlying`:
  /// the error that showed it (SQLite's, a migration's), when one did.
  case templateInvalid(path: String, reason: String, underlying: UnderlyingError? = nil)
  /// The template's recorded migrations disagree with the migration files.
  case templateDisagrees(path: String, problem: String)
  /// The template is not what the migrations build now (`TemplateBuilder.check`): each
  /// difference, such as a migration it lacks or one whose file was edited since.
  case templateStale(path: String, differences: [String])
  /// The database has versions the app's migrations don't know: the app must not run on a
  /// schema it does not understand.
  case databaseIsNewer(path: String, versions: [MigrationVersion], newestKnown: MigrationVersion?)
  /// Copying the template failed; no database was created. `underlying`: the system's error.
  case copyFailed(path: String, reason: String, underlying: UnderlyingError? = nil)
  /// The Data Protection class (`DatabaseSetup.fileProtection`) could not be given to the
  /// database's folder or the template's copy; no database was created or changed.
  /// `underlying`: the system's error.
  case protectionNotSet(
    path: String,
    protection: FileProtection,
    reason: String,
    underlying: UnderlyingError? = nil
  )
  /// Building a template could not write its output; an older template there is unchanged.
  /// `underlying`: the system's error.
  case templateNotWritten(path: String, reason: String, underlying: UnderlyingError? = nil)
  /// The database was set up (created, migrated: at `version`) but loading the seeds failed
  /// (`error` says how, at its `file:line`); no seed row was written. Never thrown by the
  /// launch: `SetupReport.seedProblem` carries it, and the database is usable (a bundled seed
  /// file cannot lock an app out); the next launch tries the seed files again.
  case seedingFailed(path: String, created: Bool, version: MigrationVersion, error: SeedError)

  /// What failed, and what state the database is in (usually: not created or not changed).
  public var message: String {
    switch self {
    case .resourceMissing(let name, let bundle):
      "the resource \(name) is not in the bundle \(bundle); no database was created or changed"
    case .folderFlattened(let name, let container, let loose):
      "the folder \(name) is not in \(container), but files it should hold ("
        + Self.listed(loose) + ") are loose there: the folder was flattened when it was "
        + "bundled; no database was created or changed"
    case .dryRunNotSupported:
      "a setup cannot do a dry run (it would have to create the database to plan it); "
        + "no database was created or changed"
    case .templateMissing(let path):
      "template \(path) does not exist; no database was created"
    case .templateInvalid(let path, let reason, _):
      "template \(path) is not a usable SQLite database (\(reason)); no database was created"
    case .templateDisagrees(let path, let problem):
      "template \(path) was built from other migrations: \(problem); no database was created"
    case .templateStale(let path, let differences):
      "template \(path) is stale against the migrations: "
        + differences.joined(separator: "; ")
    case .databaseIsNewer(let path, let versions, let newestKnown):
      "\(path) has migration version(s) \(versions.map(\.text).joined(separator: ", ")) "
        + "that this app does not know (its newest is \(newestKnown.map(String.init) ?? "none")): "
        + "the database was written by a newer version of the app; it was not changed"
    case .copyFailed(let path, let reason, _):
      "could not copy the template to \(path): \(reason); no database was created"
    case .protectionNotSet(let path, let protection, let reason, _):
      "could not give \(path) the file protection \(protection.rawValue): \(reason); no "
        + "database was created or changed"
    case .templateNotWritten(let path, let reason, _):
      "could not write the template \(path): \(reason); an existing template there is unchanged"
    case .seedingFailed(let path, let created, let version, let error):
      // One sentence for an alert: what failed, the version, that the data is safe.
      "\(error.problem); no seed rows were written (the bundled data is as before this launch, "
        + "and the next launch tries again), and \(path) is \(created ? "created, " : "")at "
        + "version \(version) and usable, with the user's data safe"
    }
  }

  /// What to do next, for this kind of failure.
  public var help: String { help { $0.description } }

  /// The error this one wraps: the seed failure, or the system's or SQLite's error.
  public var underlyingError: (any Error)? {
    switch self {
    case .seedingFailed(_, _, _, let error): error
    case .templateInvalid(_, _, let underlying), .copyFailed(_, _, let underlying),
      .templateNotWritten(_, _, let underlying), .protectionNotSet(_, _, _, let underlying):
      underlying?.error
    case .resourceMissing, .folderFlattened, .dryRunNotSupported, .templateMissing,
      .templateDisagrees, .templateStale, .databaseIsNewer:
      nil
    }
  }
}

extension SetupError: RemedialError {
  /// The help, with each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .resourceMissing(let name, _):
      "Add \(name) to the target's resources (resources: [.copy(\"\(name)\")] in Package.swift, "
        + "or the app target's Copy Bundle Resources) and build again."
    case .folderFlattened(let name, _, _):
      "Bundle the folder itself: resources: [.copy(\"\(name)\")] in Package.swift (.process "
        + "copies its files loose into the bundle), or in Xcode add it as a folder reference "
        + "(not a group); then build again."
    case .dryRunNotSupported:
      "Plan on a connection instead: Migrator.migrate(_:options:) with MigrateOptions.dryRun; "
        + "or leave dryRun off."
    case .templateMissing:
      sentence(say(.buildTemplate)) + ", or \(say(.withoutTemplate))."
    case .templateInvalid:
      sentence(say(.rebuildTemplate)) + " (or check the file you bundled)."
    case .templateDisagrees:
      sentence(say(.rebuildTemplate)) + "."
    case .templateStale:
      sentence(say(.rebuildTemplate)) + ", and bundle or commit the new file."
    case .databaseIsNewer:
      "Update the app (or \(say(.useMigrationsFolder)) with the newer migrations); do not "
        + "downgrade the data."
    case .seedingFailed(_, _, _, let error) where Self.isPassing(error):
      "\(error.help(saying: say)) Then \(say(.runAgain(.setUp))): it loads the seed files not "
        + "loaded yet."
    case .seedingFailed(_, _, _, let error):
      "\(error.help(saying: say)) " + sentence(say(.fixSeedFile)) + "."
    case .copyFailed, .templateNotWritten:
      "Check that the folder is writable and has free space, then try again."
    case .protectionNotSet:
      "Check that the folder is the app's own (its container or an App Group's) and writable, "
        + "and that the device supports the class; or leave DatabaseSetup.fileProtection nil "
        + "to keep the system's default."
    }
  }

  /// Whether a seeding failure passes by itself (a lock held too long, a full disk), so that
  /// the setup run again succeeds; any other failure is in the seed file.
  private static func isPassing(_ error: SeedError) -> Bool {
    switch error {
    case .rowFailed(_, _, _, let cause), .batchFailed(_, _, _, let cause),
      .database(_, let cause):
      cause.isBusy || cause.isFull
    default: false
    }
  }

  /// The first few names, then how many more.
  private static func listed(_ names: [String]) -> String {
    let shown = names.prefix(3).joined(separator: ", ")
    return names.count > 3 ? "\(shown) and \(names.count - 3) more" : shown
  }
}
