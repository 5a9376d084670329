import Foundation

// strata-bench: generated workloads, timed against the sqlite3 CLI in the same run.
// Run with: swift run -c release strata-bench <workload>

let workloads: [String: () throws -> Void] = [
  "migrate": MigrateBenchmark.run,
  "init": InitBenchmark.run,
  "seed": SeedBenchmark.run,
  "seed-limit": SeedLimitBenchmark.run,
  "seed-flights": FlightsBenchmark.run,
  "seed-sync": SeedSyncBenchmark.run,
  "seed-sync-keyless": KeylessSyncBenchmark.run,
  "inspect": InspectBenchmark.run,
  "inspect-formats": InspectFormatsBenchmark.run,
  "large-migration": LargeMigrationBenchmark.run,
  "test-database": TestDatabaseBenchmark.run,
  "queue": QueueBenchmark.run,
  "encode": EncodeBenchmark.run,

  "pool": PoolBenchmark.run,
  "fleet": FleetBenchmark.run,
  "dqlite": DqliteBenchmark.run,
  "startup": StartupBenchmark.run,
]

let arguments = CommandLine.arguments.dropFirst()
let chosen = arguments.isEmpty ? ["migrate", "init", "seed", "inspect"] : Array(arguments)
for name in chosen {
  guard let workload = workloads[name] else {
    FileHandle.standardError.write(
      Data("unknown workload '\(name)'; choose from \(workloads.keys.sorted())\n".utf8)
    )
    exit(64)
  }
  do {
    try workload()
  } catch {
    FileHandle.standardError.write(Data("\(name) failed: \(error)\n".utf8))
    exit(1)
  }
}
