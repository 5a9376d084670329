import Foundation
import Strata
import StrataDqlite
import StrataTestSupport
import Testing

/// The migrator's guarantees when a cluster's node dies: each test on its own cluster.
/// The suites that start clusters of their own, one at a time: clusters started at once slow
/// each other's elections on a small machine.
@Suite(
  .serialized,
  .enabled(if: DqliteCluster.isAvailable, Comment(rawValue: DqliteCluster.skipReason))
)
enum OwnClusters {}

extension OwnClusters {
  @Suite(.serialized) struct DqliteLeaderLossMigrationTests {
    /// A folder of `count` migrations; each creates a table and logs its number in `applied`,
    /// which has no key, so a migration applied twice would show as a duplicate there.
    func folder(_ count: Int) throws -> (TemporaryDirectory, MigrationSet) {
      let folder = try TemporaryDirectory()
      try folder.write(
        "migrations/0001_applied.sql",
        "-- migrate:up\nCREATE TABLE applied (n INTEGER NOT NULL);\nINSERT INTO applied VALUES (1);\n"
          + "-- migrate:down\nDROP TABLE applied;\n"
      )
      for number in 2...count {
        try folder.write(
          String(format: "migrations/%04d_t%d.sql", number, number),
          "-- migrate:up\nCREATE TABLE t\(number) (id INTEGER PRIMARY KEY, note TEXT);\n"
            + "INSERT INTO applied VALUES (\(number));\n"
            + "-- migrate:down\nDROP TABLE t\(number);\nDELETE FROM applied WHERE n = \(number);\n"
        )
      }
      return (folder, try MigrationSet(directory: folder.path("migrations")))
    }

    func configuration() -> DqliteConfiguration {
      var configuration = DqliteConfiguration()
      configuration.requestTimeout = 5
      configuration.leaderTimeout = 30
      return configuration
    }

    @Test func killingTheLeaderMidRunStopsSayingTheVersionAndARerunFinishes() throws {
      let cluster = try DqliteCluster.started(size: 3)
      let (_, set) = try folder(300)
      let database = try DqliteDatabase(
        nodes: cluster.addresses,
        name: "big",
        configuration: configuration()
      )
      let leader = try #require(cluster.index(of: database.leader))
      var caught: DqliteRunError?
      do {
        try DqliteMigrator(Migrator(set), on: database).migrate { _, number, _ in
          // A few milliseconds after part 120 starts: the kill lands inside a migration's
          // transaction or between two, wherever the run is then.
          if number == 120 {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(3)) {
              cluster.kill(node: leader)
            }
          }
        }
        Issue.record("the run went on through a killed leader")
      } catch let error as DqliteRunError {
        caught = error
      }
      guard case .leaderLost(_, _, let completed, let version, _)? = caught else {
        Issue.record("expected the leader's loss, got \(String(describing: caught))")
        return
      }
      let message = try #require(caught?.message)
      #expect(message.contains("was lost mid-run"), "\(message)")
      #expect(message.contains("never half-applied"))
      let reported = try #require(version, "\(message)")
      #expect(message.contains("at version \(reported)"))
      // What the new leader holds: the history and the log agree with the version said.
      let survivor = try DqliteDatabase(
        nodes: cluster.addresses,
        name: "big",
        configuration: configuration()
      )
      #expect(survivor.leader != cluster.addresses[leader])
      let recorded = try survivor.scalar("SELECT count(*) FROM strata_migrations", [])
      #expect(recorded == .integer(Int64(reported.text) ?? -1))
      #expect(try survivor.scalar("SELECT count(*) FROM applied", []) == recorded)
      #expect(completed.count >= 119 && completed.count <= Int(reported.text) ?? 0)

      // The rerun finishes the rest, and nothing ran twice.
      let report = try DqliteMigrator(Migrator(set), on: survivor).migrate()
      #expect(report.toVersion == MigrationVersion(integer: 300))
      #expect(report.steps.count == 300 - (Int(reported.text) ?? 0))
      #expect(try survivor.scalar("SELECT count(*) FROM applied", []) == .integer(300))
      #expect(try survivor.scalar("SELECT count(DISTINCT n) FROM applied", []) == .integer(300))
      #expect(try survivor.scalar("SELECT count(*) FROM strata_migrations", []) == .integer(300))
    }

    @Test func aRestartedNodeCatchesUpWithWhatItMissed() throws {
      let cluster = try DqliteCluster.started(size: 3)
      let (_, set) = try folder(20)
      let database = try DqliteDatabase(
        nodes: cluster.addresses,
        name: "catch",
        configuration: configuration()
      )
      let leader = try #require(cluster.index(of: database.leader))
      let follower = (leader + 1) % 3
      cluster.kill(node: follower)
      try DqliteMigrator(Migrator(set), on: database).migrate()
      try cluster.restart(node: follower)
      // DUMP answers from the node asked: the restarted node's own copy of the database.
      let deadline = Date().addingTimeInterval(20)
      var applied: SQLValue?
      while Date() < deadline {
        let folder = try TemporaryDirectory()
        if let connection = try? NodeConnection(
          try NodeAddress(cluster.addresses[follower]),
          configuration: configuration()
        ), let files = try? connection.dump("catch"), files.first?.bytes.isEmpty == false {
          for file in files {
            try Data(file.bytes).write(
              to: folder.path(file.name.replacingOccurrences(of: "catch", with: "copy"))
            )
          }
          let copy = try Connection(path: folder.path("copy").path, mode: .readOnly)
          applied = try? copy.scalar("SELECT count(*) FROM strata_migrations")
          if applied == .integer(20) { break }
        }
        usleep(200_000)
      }
      #expect(applied == .integer(20))
    }

    @Test func aClusterOfOneIsMigratedAsAFileIs() throws {
      let cluster = try DqliteCluster.started(size: 1)
      let (folder, set) = try folder(5)
      let database = try DqliteDatabase(nodes: cluster.addresses, name: "alone")
      let report = try DqliteMigrator(Migrator(set), on: database).migrate()
      #expect(report.toVersion == MigrationVersion(integer: 5))
      let file = try Connection(path: folder.path("truth.sqlite3").path)
      try Migrator(set).migrate(file)
      let sql = "SELECT name, sql FROM sqlite_schema WHERE name NOT LIKE 'strata%' ORDER BY name"
      #expect(try database.rows(sql, []) == file.rows(sql, []))
    }
  }
}
