import Foundation

/// One database of a fleet finished: its result, and how far the fleet has got. A fleet reports
/// it through the launch call's progress type (`SetupProgress.databaseFinished`), so an app or
/// server shows one kind of progress whether it set up one database or migrates many.
public struct FleetProgress: Hashable, Sendable {
  /// What the fleet did to this database (its error, when it failed).
  public let result: FleetDatabaseResult
  /// How many databases have finished, this one included.
  public let finished: Int
  /// How many databases the fleet has.
  public let total: Int
  /// How many of the finished databases failed, this one included.
  public let failed: Int

  /// The database that finished.
  public var database: URL { result.database }

  /// Equal when they report the same database at the same point of the same fleet (a result's
  /// error is not comparable).
  public static func == (a: Self, b: Self) -> Bool {
    a.database == b.database && a.finished == b.finished && a.total == b.total
      && a.failed == b.failed
  }

  /// Hashes what `==` compares: the database and the counts.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(database)
    hasher.combine(finished)
    hasher.combine(total)
    hasher.combine(failed)
  }
}
