import Foundation

extension TemplateBuilder {
  /// Checks that the template at `template` is exactly what `migrations` build now, so that a
  /// stale template is caught where it is built (a build plugin, CI, an app's tests) rather
  /// than on a user's first launch. The history is read as `Migrator.plan` reads a database's
  /// (a migration the template lacks, one whose file was edited, one whose file is gone), and
  /// a template whose history is current is rebuilt and compared table by table, as
  /// `build(_:to:replacing:configuration:)` does before it replaces one (rows written into a
  /// template are a difference too). Seed files are not part of a template.
  ///
  /// - Throws: `SetupError.templateStale` listing every difference,
  ///   `SetupError.templateMissing` or `SetupError.templateInvalid` when there is no usable
  ///   SQLite database at `template`, or what `configuration` throws.
  public static func check(
    _ template: URL,
    against migrations: MigrationSet,
    configuration: ConnectionConfiguration = .none
  ) throws {
    try TemplateInstaller.verify(template, configuration: configuration)
    let path = template.path
    let plan: MigrationPlan
    do {
      plan = try Migrator(migrations).plan(configuration.open(path: path, mode: .immutable))
    } catch let error as SQLiteError {
      throw SetupError.templateInvalid(path: path, reason: error.message)
    }
    let differences = staleness(of: plan, in: migrations)
    if !differences.isEmpty {
      throw SetupError.templateStale(path: path, differences: differences)
    }
    do {
      try TemplateVerification.verify(path, against: migrations, configuration: configuration)
    } catch OutputFileError.notReplaceable(_, let reason) {
      throw SetupError.templateStale(path: path, differences: ["it \(reason)"])
    }
  }

  /// What the plan says the template lacks or records differently, one phrase each.
  private static func staleness(of plan: MigrationPlan, in migrations: MigrationSet) -> [String] {
    var differences: [String] = []
    for entry in plan.migrations {
      let shown = "migration \(entry.version) (\(entry.name))"
      switch entry.state {
      case .applied: break
      case .pending, .outOfOrder, .otherTool:
        differences.append("it lacks \(shown)")
      case .changed:
        differences.append(
          "it records \(shown) with a checksum that differs from \(entry.file ?? entry.name) now "
            + "(the file was edited)"
        )
      case .unknown:
        differences.append(
          "it records \(shown), whose file is not in \(migrations.directory)"
        )
      }
    }
    for entry in plan.repeatables {
      switch entry.state {
      case .applied: break
      case .pending: differences.append("it lacks the repeatable migration \(entry.file)")
      case .changed:
        differences.append(
          "it records the repeatable migration \(entry.file) with a checksum that differs from "
            + "the file now (the file was edited)"
        )
      }
    }
    return differences
  }
}
