import Foundation
import Strata
import StrataTestSupport
import Testing

/// The build plugin's tool with an earlier release's template (`--releases`, which the plugin
/// passes for `releases/*.sqlite3` beside `migrations`): each release is set up as the app's
/// launch would set it up, seeds and settings included, and a seed file that would fail on it
/// fails the step with its file:line, before any template or stamp is written (issue 31).
/// `.ci/plugin-check` runs the same through a real `swift build`.
@Suite struct PluginReleaseCheckTests {
  let dir: TemporaryDirectory

  init() throws {
    dir = try TemporaryDirectory()
    _ = try dir.write(
      "migrations/0001_init.sql",
      "CREATE TABLE contact (id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT);\n"
    )
    try FileManager.default.createDirectory(
      at: dir.path("releases"),
      withIntermediateDirectories: true
    )
    let v1 = dir.path("releases/v1.sqlite3")
    try TemplateBuilder.build(try MigrationSet(directory: dir.path("migrations")), to: v1)
    _ = try dir.write(
      "migrations/0002_telephone.sql",
      "ALTER TABLE contact RENAME COLUMN phone TO telephone;\n"
    )
    _ = try dir.write("seeds/contact.csv", "id,name,phone\n1,Ann,555\n")
  }

  func tool(_ arguments: [String]) throws -> (status: Int32, error: String) {
    try PluginTool.run(arguments)
  }

  var arguments: [String] {
    [
      "template", "--quiet", "--migrations", dir.path("migrations").path,
      "--releases", dir.path("releases").path, "--seeds", dir.path("seeds").path,
    ]
  }

  @Test func aSeedFileThePreviousReleaseCannotLoadFailsTheStep() throws {
    let output = dir.path("out/template.sqlite3")
    try FileManager.default.createDirectory(
      at: output.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    let bytes = try Data(contentsOf: dir.path("releases/v1.sqlite3"))
    let built = try tool(arguments + ["--force", "--output", output.path])
    #expect(built.status == 1)
    let lines = built.error.split(separator: "\n")
    #expect(lines.count == 2, "\(built.error)")
    #expect(
      lines.first?.hasPrefix(
        "Error: after upgrading the earlier release's template "
          + "\(dir.path("releases/v1.sqlite3").path) to version 2, the launch's seed step fails: "
          + "\(dir.path("seeds/contact.csv").path):1"
      ) == true,
      "\(built.error)"
    )
    #expect(lines.first?.contains("phone") == true)
    #expect(lines.last?.hasPrefix("Help: ") == true)
    #expect(lines.last?.contains("must load on a database of every earlier release") == true)
    #expect(!FileManager.default.fileExists(atPath: output.path))
    #expect(try Data(contentsOf: dir.path("releases/v1.sqlite3")) == bytes)

    // The check of a committed template fails the same way, and writes no stamp.
    try TemplateBuilder.build(try MigrationSet(directory: dir.path("migrations")), to: output)
    let stamp = dir.path("out/Stamp.swift")
    let checked = try tool(
      arguments + ["--check", "--output", output.path, "--stamp", stamp.path]
    )
    #expect(checked.status == 1 && checked.error == built.error)
    #expect(!FileManager.default.fileExists(atPath: stamp.path))

    // The settings the app bundles map the old header: the release launches, the step passes.
    _ = try dir.write(
      "strata.toml",
      "[seeds.\"contact.csv\"]\ncolumns = { phone = \"telephone\" }\n"
    )
    let settings = ["--settings", dir.path("strata.toml").path]
    let passed = try tool(
      arguments + settings + ["--check", "--output", output.path, "--stamp", stamp.path]
    )
    #expect(passed.status == 0, "\(passed.error)")
    #expect(FileManager.default.fileExists(atPath: stamp.path))
  }
}
