import Foundation
import Strata
import StrataTestSupport
import Testing

/// `--load-extension PATH[:ENTRY]` on every command that opens a database, with a real
/// extension built by gcc, through the real `strata`.
@Suite(.canBuildExtensions) struct LoadExtensionTests {
  /// The extension, and migrations that call its `half()` (see `FunctionMigrations`).
  private static func project() throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    let library = try TestExtension.build(in: folder)
    try FunctionMigrations.write(in: folder, calling: "half")
    return (folder, library)
  }

  @Test func migrateStatusValidateInspectAndRollbackLoadTheExtension() throws {
    let (folder, library) = try Self.project()
    let db = ["--database", "app.sqlite3"]
    let load = ["--load-extension", library]
    let without = try StrataProcess.run(["migrate"] + db, in: folder.url)
    #expect(without.exitCode == 1)
    #expect(without.standardError.contains("no such function: half"))
    let migrate = try StrataProcess.run(["migrate"] + db + load + ["--to", "1"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT x, y FROM computed")
        == [[.integer(2), .real(1)]]
    )
    // validate replays the applied and the pending migrations; without the extension the
    // replay fails on half().
    let invalid = try StrataProcess.run(["validate"] + db, in: folder.url)
    #expect(invalid.exitCode == 1)
    #expect(invalid.standardError.contains("half"))
    let validate = try StrataProcess.run(["validate"] + db + load, in: folder.url)
    #expect(validate.exitCode == 0, "\(validate.standardError)")
    #expect(!validate.standardError.contains("Warning"))
    let diff = try StrataProcess.run(["inspect", "--diff"] + db + load, in: folder.url)
    #expect(diff.exitCode == 0, "\(diff.standardError)")
    let status = try StrataProcess.run(["status"] + db + load, in: folder.url)
    #expect(status.exitCode == 0, "\(status.standardError)")
    let rest = try StrataProcess.run(["migrate"] + db + load, in: folder.url)
    #expect(rest.exitCode == 0, "\(rest.standardError)")
    let rollback = try StrataProcess.run(
      ["rollback", "--steps", "2"] + db + load,
      in: folder.url
    )
    #expect(rollback.exitCode == 0, "\(rollback.standardError)")
    #expect(try DatabaseProbe.tables(folder.path("app.sqlite3")) == ["strata_migrations"])
  }

  @Test func filesOnlyValidateAndTemplateAndInitLoadTheExtension() throws {
    let (folder, library) = try Self.project()
    let load = ["--load-extension", library]
    let filesOnly = try StrataProcess.run(["validate", "--files-only"] + load, in: folder.url)
    #expect(filesOnly.exitCode == 0, "\(filesOnly.standardError)")
    let refused = try StrataProcess.run(["template", "--output", "t.sqlite3"], in: folder.url)
    #expect(refused.exitCode == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path("t.sqlite3").path))
    let template = try StrataProcess.run(
      ["template", "--output", "t.sqlite3"] + load,
      in: folder.url
    )
    #expect(template.exitCode == 0, "\(template.standardError)")
    // Replacing it rebuilds the migrations it records, which needs the extension again.
    let again = try StrataProcess.run(
      ["template", "--output", "t.sqlite3", "--force"] + load,
      in: folder.url
    )
    #expect(again.exitCode == 0, "\(again.standardError)")
    let initialize = try StrataProcess.run(
      ["init", "--database", "app.sqlite3", "--template", "t.sqlite3"] + load,
      in: folder.url
    )
    #expect(initialize.exitCode == 0, "\(initialize.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT x, y FROM computed ORDER BY x")
        == [[.integer(2), .real(1)], [.integer(5), .real(2.5)]]
    )
    try folder.write("seeds/computed.csv", "x,y\n10,5.0\n")
    let seed = try StrataProcess.run(
      ["seed", "--database", "app.sqlite3", "--mode", "append"] + load,
      in: folder.url
    )
    #expect(seed.exitCode == 0, "\(seed.standardError)")
    #expect(
      try DatabaseProbe.integer(folder.path("app.sqlite3"), "SELECT count(*) FROM computed") == 3
    )
  }

  @Test func anEntryPointNamesTheFunctionToStartFrom() throws {
    let (folder, library) = try Self.project()
    try FileManager.default.removeItem(at: folder.path("migrations"))
    try folder.write(
      "migrations/0001_quarters.sql",
      "-- migrate:up\nCREATE TABLE quarters AS SELECT quarter(10) AS q, half(10) AS h;\n"
        + "-- migrate:down\nDROP TABLE quarters;\n"
    )
    let migrate = try StrataProcess.run(
      [
        "migrate", "--database", "app.sqlite3", "--load-extension",
        "\(library):strata_quarter_init", "--load-extension", library,
      ],
      in: folder.url
    )
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    #expect(
      try DatabaseProbe.rows(folder.path("app.sqlite3"), "SELECT q, h FROM quarters") == [
        [.real(2.5), .real(5)]
      ]
    )
    let missing = try StrataProcess.run(
      ["migrate", "--database", "b.sqlite3", "--load-extension", "\(library):no_such_entry"],
      in: folder.url
    )
    #expect(missing.exitCode == 1)
    #expect(missing.standardError.contains("\(library) (entry point no_such_entry)"))
    #expect(missing.standardError.contains("no_such_entry"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("b.sqlite3").path))
  }

  @Test func aMissingOrBadExtensionIsAnErrorAndChangesNothing() throws {
    let (folder, _) = try Self.project()
    let missingPath = folder.path("nowhere/none.so").path
    let missing = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3", "--load-extension", missingPath],
      in: folder.url
    )
    #expect(missing.exitCode == 1)
    #expect(missing.standardError.contains("cannot load the SQLite extension \(missingPath): "))
    #expect(missing.standardError.contains("nothing was changed"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("app.sqlite3").path))
    let bad = try folder.write("bad.so", "not a shared library\n")
    let migrated = try StrataProcess.run(
      ["migrate", "--database", "m.sqlite3", "--load-extension", folder.path("half.so").path],
      in: folder.url
    )
    #expect(migrated.exitCode == 0)
    let before = try Data(contentsOf: folder.path("m.sqlite3"))
    for command in [["rollback"], ["migrate"], ["status"], ["validate"], ["inspect", "--diff"]] {
      let result = try StrataProcess.run(
        command + ["--database", "m.sqlite3", "--load-extension", bad.path],
        in: folder.url
      )
      #expect(result.exitCode == 1, "\(command)")
      #expect(
        result.standardError.contains("cannot load the SQLite extension \(bad.path): "),
        "\(command): \(result.standardError)"
      )
    }
    #expect(try Data(contentsOf: folder.path("m.sqlite3")) == before)
    let template = try StrataProcess.run(
      ["template", "--output", "t.sqlite3", "--load-extension", bad.path],
      in: folder.url
    )
    #expect(template.exitCode == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path("t.sqlite3").path))
    let empty = try StrataProcess.run(["migrate", "--load-extension", ""], in: folder.url)
    #expect(empty.exitCode == 64)
  }

  @Test func aColonInThePathIsPartOfThePathUnlessANameFollowsIt() throws {
    let (folder, library) = try Self.project()
    let odd = folder.path("v:2/half.so")
    try FileManager.default.createDirectory(
      at: odd.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try FileManager.default.copyItem(atPath: library, toPath: odd.path)
    let migrate = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3", "--load-extension", odd.path],
      in: folder.url
    )
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
  }
}
