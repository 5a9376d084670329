import Foundation
import Strata
import StrataDqlite

/// A command given a dqlite cluster's database (`--database dqlite://…`, or
/// `STRATA_DATABASE`): commands that change it run through the seam on the leader; commands
/// that only read run on a snapshot, the leader's DUMP as a local file (docs/dqlite.md).
extension DatabaseOptions {
  /// The cluster's database the command was given, or nil for a file.
  ///
  /// - Throws: `DqliteError.badURL` for an address that does not parse.
  func cluster(_ context: CommandContext) throws -> DqliteURL? {
    guard let named = named(context), DqliteURL.names(named) else { return nil }
    return try DqliteURL(named)
  }

  /// Connects to the cluster's leader and opens the database; `--busy-timeout` is how long a
  /// write waits for another client's transaction.
  ///
  /// - Throws: `DqliteError` when no leader answers.
  func open(_ url: DqliteURL) throws -> DqliteDatabase {
    var configuration = DqliteConfiguration()
    configuration.busyTimeout = Double(busyTimeout) / 1000
    return try DqliteDatabase(nodes: url.nodes, name: url.name, configuration: configuration)
  }

  /// `resolve(_:)` for a command that only reads: a cluster's database is read from a snapshot
  /// (its DUMP, written to a temporary folder removed at exit) and named by its address.
  func resolveReading(_ context: CommandContext) throws -> ResolvedDatabase {
    guard let url = try cluster(context) else { return try resolve(context) }
    return try ResolvedDatabase.snapshot(of: try open(url), url)
  }
}

extension ResolvedDatabase {
  /// The cluster's database as a snapshot file, named by its address.
  static func snapshot(of database: DqliteDatabase, _ url: DqliteURL) throws -> ResolvedDatabase {
    let folder = try ClusterSnapshotFolder.make()
    // A database that holds nothing (a name the cluster never wrote to) reads as a missing
    // file: no snapshot is written.
    let file =
      try database.holdsNothing()
      ? folder.appendingPathComponent("snapshot.sqlite3") : try database.snapshot(in: folder)
    return ResolvedDatabase(
      location: DatabaseLocation(url: file, isDefault: false),
      shown: url.description,
      isClusterSnapshot: true
    )
  }
}

/// The temporary folders of a command's snapshots, removed when the command ends
/// (`CommandLineTool.run`).
enum ClusterSnapshotFolder {
  nonisolated(unsafe) private static var made: [URL] = []

  /// A new empty folder. Called on the command's own thread only.
  static func make() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-snapshot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    made.append(url)
    return url
  }

  static func removeAll() {
    for url in made { try? FileManager.default.removeItem(at: url) }
    made = []
  }
}

/// A cluster's address given to a command that runs on a file only.
struct ClusterRefusal: Error {
  let url: String
  /// Why this command cannot run on a cluster; nil for the general reason.
  let reason: String?
  /// What runs on a file only: the command, or one of its options.
  var what = "this command"
}

extension ClusterRefusal: StrataError {
  var message: String {
    "'\(url)' is a dqlite cluster's database, and \(what) runs on a database file only: "
      + (reason ?? "it writes or reads the file itself") + "; nothing was changed."
  }

  var help: String {
    "Run migrate, rollback, status, validate, baseline, seed, inspect, lint, schema or backup "
      + "against the cluster; give --database a file's path for this one."
  }
}
