import Foundation
import Strata
import StrataPluginFixture
import Testing

/// The build plugin's output, as an app's tests find it: `template.sqlite3` in the fixture
/// target's bundle, built from the target's `migrations/` at build time.
@Suite struct PluginTemplateTests {
  /// The bundled template is what the bundled migrations build now: every migration applied,
  /// the checksums those of the files (`TemplateBuilder.check`, as `strata template --check`).
  @Test func bundledTemplateIsCurrent() throws {
    let bundle = PluginFixture.bundle
    let template = try DatabaseSetup.resource("template", withExtension: "sqlite3", in: bundle)
    let migrations = try MigrationSet(
      directory: try DatabaseSetup.resource("migrations", in: bundle)
    )
    try TemplateBuilder.check(template, against: migrations)
    let connection = try Connection(path: template.path, mode: .immutable)
    let recorded = try connection.rows(
      "SELECT version, checksum FROM strata_migrations ORDER BY version"
    ).map { $0.map(\.description) }
    #expect(recorded == migrations.migrations.map { [$0.version.text, $0.checksum] })
    #expect(recorded.count == 2)
    #expect(
      try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'student'")
        == .integer(1)
    )
  }
}
