/// Where a repeatable migration (Flyway's `R__<description>.sql`) stands against a database.
package struct RepeatableStatus: Hashable, Sendable, Codable {
  /// The states `strata status` reports for a repeatable migration.
  package enum State: String, Hashable, Sendable, Codable {
    /// Applied, and its file is unchanged since.
    case applied
    /// Never applied: the next `migrate` applies it.
    case pending
    /// Applied, but its file changed since: the next `migrate` applies it again.
    case changed
  }

  /// Its description, which identifies it.
  package let name: String
  /// Applied, pending or changed.
  package let state: State
  /// Its file, as the user named it.
  package let file: String
  /// When it was last applied.
  package let appliedAt: String?
  /// The file's checksum now.
  package let checksum: String
  /// The checksum recorded when it was last applied.
  package let recordedChecksum: String?
}

extension RepeatableMigration {
  /// The repeatable migration as a migration a run can carry: its version is
  /// `R__<description>`, which is how steps and messages name it (it has no version of its own).
  var asMigration: Migration {
    Migration(
      version: (try? MigrationVersion(text: "R__" + name, ordering: .text)) ?? .zero,
      name: name,
      up: script,
      down: nil,
      checksum: checksum
    )
  }
}

extension Migrator {
  /// The state of each repeatable migration of the folder against the history.
  static func repeatableStatuses(
    _ repeatables: [RepeatableMigration],
    applied: [AppliedRepeatable]
  ) -> [RepeatableStatus] {
    let byName = Dictionary(applied.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    return repeatables.map { repeatable in
      let record = byName[repeatable.name]
      return RepeatableStatus(
        name: repeatable.name,
        state: record == nil
          ? .pending : record?.checksum == repeatable.checksum ? .applied : .changed,
        file: repeatable.script.file,
        appliedAt: record?.appliedAt,
        checksum: repeatable.checksum,
        recordedChecksum: record?.checksum
      )
    }
  }

  /// The repeatable migrations a run applies after its versioned ones: the pending and changed
  /// ones, when the run reaches the folder's newest version (a `target` below it leaves them
  /// for later, since they may use what the later migrations create).
  func repeatableParts(_ plan: MigrationPlan, target: MigrationVersion?) -> [MigrationPart] {
    if let target, let newest = migrations.migrations.last?.version, target < newest {
      return []
    }
    let due = Set(plan.repeatables.filter { $0.state != .applied }.map(\.name))
    return migrations.repeatables.filter { due.contains($0.name) }.map {
      MigrationPart(repeatable: $0)
    }
  }
}

extension MigrationPart {
  /// A repeatable migration's SQL, to apply it (again).
  init(repeatable: RepeatableMigration) {
    self.init(repeatable.asMigration, repeatable.script, .up)
    isRepeatable = true
  }
}
