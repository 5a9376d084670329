import Foundation
import StrataTestSupport

@testable import Strata

/// A migrations folder whose first migration (`0001_base.sql`) creates `person` and `pet`
/// (`pet.owner` references `person` with ON DELETE CASCADE, and is indexed), for the linter's
/// tests; each test's own migration is `0002_change.sql`.
struct LintFixture {

  let migrations: MigrationFixture

  /// The base migration and `0002_change.sql` with `up` as its up part (starting on line 2)
  /// and `down` as its down part.
  init(up: String, down: String = "SELECT 1;", upMarker: String = "-- migrate:up") throws {
    migrations = try MigrationFixture([
      "0001_base.sql": LintMigrations.base,
      "0002_change.sql": "\(upMarker)\n\(up)\n-- migrate:down\n\(down)\n",
    ])
  }

  func set() throws -> MigrationSet {
    try MigrationSet(directory: migrations.dir.path("migrations"), displayPath: "migrations")
  }

  /// Lints every migration as pending (no database).
  func lint() throws -> LintResult {
    try MigrationLinter(set()).lint(nil)
  }

  /// The findings as "file:line rule", for compact expectations.
  func found() throws -> [String] {
    try lint().findings.map {
      "\($0.file.split(separator: "/").last ?? ""):\($0.line) \($0.rule.rawValue)"
    }
  }
}
