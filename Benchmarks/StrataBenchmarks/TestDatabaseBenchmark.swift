import Foundation
import Strata
import StrataTesting

/// `StrataTesting`'s fresh database per test: a copy of a template built from 200 migrations
/// (open it, read a row), against running the same migrations into an empty database.
enum TestDatabaseBenchmark {
  static let count = 200
  static let runs = 21

  static func run() throws {
    let folder = try Bench.scratch("test-database")
    defer { try? FileManager.default.removeItem(at: folder) }
    let migrationsFolder = folder.appendingPathComponent("migrations")
    _ = try Bench.writeMigrations(count: count, to: migrationsFolder)
    let migrations = try MigrationSet(directory: migrationsFolder)
    let template = folder.appendingPathComponent("template.sqlite3")
    try TemplateBuilder.build(migrations, to: template)
    print("test-database: \(count) migrations, median of \(runs) runs each")
    let fromTemplate = try Bench.median(runs: runs) { _ in
      try timed {
        let database = try TestDatabase.fresh(template: template)
        _ = try database.connection().scalar("SELECT count(*) FROM strata_migrations")
      }
    }
    let fromSetup = try Bench.median(runs: runs) { _ in
      try timed {
        let database = try TestDatabase.fresh(
          setup: DatabaseSetup(database: template, migrations: migrationsFolder)
        )
        _ = try database.connection().scalar("SELECT count(*) FROM strata_migrations")
      }
    }
    print(
      "  fresh database from template   \(Bench.format(fromTemplate))"
        + "   fresh database from migrations   \(Bench.format(fromSetup))"
    )
  }

  /// Seconds `body` took, the temporary folder's removal included.
  private static func timed(_ body: () throws -> Void) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }
}
