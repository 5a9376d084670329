/// Where one migration stands against a database.
package struct MigrationStatus: Hashable, Sendable, Codable {
  /// The states `strata status` reports.
  package enum State: String, Hashable, Sendable, Codable {
    /// Applied, and the file is unchanged.
    case applied
    /// In the folder, not applied yet.
    case pending
    /// Applied, but the file's checksum differs from the recorded one.
    case changed
    /// Applied, but no file has this version: the database is newer than the folder.
    case unknown
    /// Pending, but older than the newest applied version (merged out of order).
    case outOfOrder = "out-of-order"
    /// Not in strata's history, but another tool's history records it as applied: adopting
    /// that history makes it applied (see ``Migrator/adopt(_:from:folder:allowChanged:)``).
    case otherTool = "other-tool"
  }

  /// The migration's version.
  package let version: MigrationVersion
  /// The migration's name (from its file, or from the history when there is no file).
  package let name: String
  /// Applied, pending, changed, unknown or out of order.
  package let state: State
  /// The file, when the folder has one.
  package let file: String?
  /// When it was applied, for applied, changed and unknown migrations.
  package let appliedAt: String?
  /// The file's checksum now.
  package let checksum: String?
  /// The checksum recorded when it was applied.
  package let recordedChecksum: String?
}

/// Every migration's state against one database, by version.
package struct MigrationPlan: Hashable, Sendable, Codable {
  /// Sorted by version.
  package let migrations: [MigrationStatus]
  /// The newest applied version; 0 when none is applied.
  package let currentVersion: MigrationVersion
  /// Other tools' histories that record applied migrations, when strata's history is empty.
  package let otherToolHistories: [ForeignHistory]
  /// Flyway's repeatable migrations, by name; empty for every other format.
  package internal(set) var repeatables: [RepeatableStatus] = []

  init(set: MigrationSet, applied: [AppliedMigration], otherTools: [ForeignHistory] = []) {
    let otherTool = otherTools.first?.covered(in: set) ?? []
    // Each version's row by its place in `applied` (a map of the rows themselves copied each).
    let appliedByVersion = Dictionary(
      uniqueKeysWithValues: applied.indices.lazy.map { (applied[$0].version, $0) }
    )
    let newestApplied = applied.map(\.version).max() ?? .zero
    var entries: [MigrationStatus] = []
    entries.reserveCapacity(set.migrations.count + applied.count)
    for migration in set.migrations {
      if let row = appliedByVersion[migration.version] {
        let record = applied[row]
        entries.append(
          MigrationStatus(
            version: migration.version,
            name: migration.name,
            state: record.checksum == migration.checksum ? .applied : .changed,
            file: migration.up.file,
            appliedAt: record.appliedAt,
            checksum: migration.checksum,
            recordedChecksum: record.checksum
          )
        )
      } else {
        entries.append(
          MigrationStatus(
            version: migration.version,
            name: migration.name,
            state: otherTool.contains(migration.version)
              ? .otherTool : migration.version < newestApplied ? .outOfOrder : .pending,
            file: migration.up.file,
            appliedAt: nil,
            checksum: migration.checksum,
            recordedChecksum: nil
          )
        )
      }
    }
    // Every row matched a file (as in a folder that is up to date): none is unknown, and the
    // entries are in the folder's order already.
    let matched = entries.count { $0.recordedChecksum != nil }
    guard matched < applied.count else {
      migrations = entries
      currentVersion = newestApplied
      otherToolHistories = otherTools
      return
    }
    let known = Set(set.migrations.map(\.version))
    for record in applied where !known.contains(record.version) {
      entries.append(
        MigrationStatus(
          version: record.version,
          name: record.name,
          state: .unknown,
          file: nil,
          appliedAt: record.appliedAt,
          checksum: nil,
          recordedChecksum: record.checksum
        )
      )
    }
    migrations = entries.sorted { $0.version < $1.version }
    currentVersion = newestApplied
    otherToolHistories = otherTools
  }

  /// The migrations in `state`.
  package func migrations(in state: MigrationStatus.State) -> [MigrationStatus] {
    migrations.filter { $0.state == state }
  }

  /// How many migrations are in `state` (what ``migrations(in:)`` would list, without copying
  /// them).
  package func count(in state: MigrationStatus.State) -> Int {
    migrations.indices.count { migrations[$0].state == state }
  }

  /// Nothing pending, changed, unknown or out of order.
  package var isUpToDate: Bool {
    migrations.allSatisfy { $0.state == .applied }
      && repeatables.allSatisfy { $0.state == .applied }
  }
}
