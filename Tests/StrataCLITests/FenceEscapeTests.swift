import Foundation
import Strata
import StrataTestSupport
import Testing

/// Review of issue 10, item 3: an `ATTACH` whose file name is an expression (SQLite reports no
/// name for it when it is prepared) must not run in the replay of `validate` and
/// `inspect --diff`: it is reported as not checked, with file:line, and no file is created or
/// changed. Through the binary.
@Suite struct FenceEscapeTests {
  /// A folder with other.db (one precious row) and app.sqlite3 at version 1.
  private func project() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    let other = try Connection(path: folder.path("other.db").path)
    try other.execute("CREATE TABLE t (v); INSERT INTO t VALUES ('precious')")
    try folder.write("migrations/0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n")
    let migrate = try StrataProcess.run(["migrate", "--database", "app.sqlite3"], in: folder.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)")
    return folder
  }

  private func listing(_ folder: TemporaryDirectory) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    where !name.hasPrefix("migrations") {
      files[name] = try Data(contentsOf: folder.path(name))
    }
    return files
  }

  @Test(arguments: [
    "'oth' || 'er.db'",
    "'oth' || 'er' || '.db'",
    "printf('%s.db', 'other')",
    "(VALUES('other.db'))",
    "(SELECT 'other.db')",
    "replace('otherXdb', 'X', '.')",
    "char(111,116,104,101,114,46,100,98)",
  ])
  func aComputedAttachNeverReachesAFile(name: String) throws {
    let folder = try project()
    try folder.write(
      "migrations/0002_b.sql",
      "-- migrate:up\nATTACH \(name) AS o;\nDELETE FROM o.t;\n"
    )
    let before = try listing(folder)
    for arguments in [
      ["validate", "--database", "app.sqlite3"],
      ["validate", "--files-only"],
      ["inspect", "--diff", "--database", "app.sqlite3"],
    ] {
      let result = try StrataProcess.run(arguments, in: folder.url)
      #expect(try listing(folder) == before, "\(arguments) changed a file")
      if arguments[1] == "--diff" { continue }
      let err = result.standardError
      #expect(
        err.contains(
          "migrations/0002_b.sql:2 `ATTACH \(name) AS o;`: not checked: attaches a "
            + "database whose file name is computed"
        ),
        "\(arguments): \(err)"
      )
      #expect(!err.contains("Error:"), "\(err)")
    }
    let other = try Connection(path: folder.path("other.db").path)
    #expect(try other.rows("SELECT v FROM t").count == 1)
  }

  @Test func aComputedAttachCreatesNoFileAndLaterChecksStayTrue() throws {
    let folder = try project()
    let target = folder.url.path + "/"
    try folder.write(
      "migrations/0002_b.sql",
      "-- migrate:up\nATTACH '\(target)' || 'o1.db' AS o;\ncreate table o.t(x);\n"
    )
    for _ in 0..<2 {
      let result = try StrataProcess.run(["validate", "--database", "app.sqlite3"], in: folder.url)
      #expect(result.exitCode == 0, "\(result.standardError)")
      #expect(!result.standardError.contains("already exists"), "\(result.standardError)")
      #expect(!FileManager.default.fileExists(atPath: folder.path("o1.db").path))
    }
  }
}
