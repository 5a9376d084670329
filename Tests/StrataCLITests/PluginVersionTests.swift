import Foundation
import Strata
import StrataArguments
import StrataTestSupport
import Testing

/// A prebuilt plugin tool (`StrataTemplatePrebuiltPlugin`) is a separate build of strata: the
/// plugin passes its version, and a tool of another version refuses, writing nothing, as a
/// template must be built by the strata the app links (docs/build-plugin.md).
@Suite struct PluginVersionTests {
  let dir: TemporaryDirectory

  init() throws {
    dir = try TemporaryDirectory()
    _ = try dir.write("migrations/0001_init.sql", "CREATE TABLE person_info (name TEXT);\n")
    try FileManager.default.createDirectory(
      at: dir.path("out"),
      withIntermediateDirectories: true
    )
  }

  func step(expecting version: String) throws -> (status: Int32, error: String) {
    try PluginTool.run([
      "template", "--quiet", "--force", "--migrations", dir.path("migrations").path,
      "--output", dir.path("out/template.sqlite3").path, "--expect-version", version,
    ])
  }

  /// The plugin cannot import StrataArguments: its copy of the version is read from its source.
  @Test func thePluginPassesTheVersionOfThisStrata() throws {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Plugins/StrataTemplatePlugin/TemplateCommands.swift")
    let text = try String(contentsOf: source, encoding: .utf8)
    #expect(text.contains("static let strataVersion = \"\(strataVersion)\"\n"))
  }

  @Test func aToolOfAnotherVersionRefusesAndWritesNothing() throws {
    let result = try step(expecting: "0.4.0")
    #expect(result.status == 1)
    #expect(
      result.error.hasPrefix(
        "Error: this StrataPluginTool is strata \(strataVersion), the app builds with strata "
          + "0.4.0: a template is built only by the strata the app links; nothing was written\n"
          + "Help: Build the tool of strata 0.4.0 (swift build -c release --product "
          + "StrataPluginTool in its checkout)"
      ),
      "\(result.error)"
    )
    #expect(!FileManager.default.fileExists(atPath: dir.path("out/template.sqlite3").path))
  }

  @Test func aToolOfTheSameVersionBuildsTheTemplate() throws {
    let result = try step(expecting: strataVersion)
    #expect(result.status == 0, "\(result.error)")
    let versions = try DatabaseProbe.rows(
      dir.path("out/template.sqlite3"),
      "SELECT version FROM strata_migrations"
    )
    #expect(versions.count == 1)
  }
}
