import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata init --template`: what the new database is, whatever the template is.
@Suite struct TemplateInstallTests {
  private static func fileType(_ url: URL) throws -> FileAttributeType? {
    try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
  }

  private static func mode(_ url: URL) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?
      .intValue ?? -1
  }

  /// A template that is a symlink (absolute or relative): the database is a copy of its
  /// content, a regular file of its own; writes to it never reach the template.
  @Test(arguments: [false, true])
  func aTemplateThatIsASymlinkIsCopiedNotLinked(relative: Bool) throws {
    let project = try Project(threeMigrations)
    try FileManager.default.createDirectory(
      at: project.dir.path("bundle"),
      withIntermediateDirectories: true
    )
    let built = try project.strata("template", "--output", "bundle/real.sqlite3")
    try #require(built.exitCode == 0, "\(built.standardError)")
    let real = project.dir.path("bundle/real.sqlite3")
    try FileManager.default.createSymbolicLink(
      atPath: project.dir.path("link.sqlite3").path,
      withDestinationPath: relative ? "bundle/real.sqlite3" : real.path
    )
    let before = try Data(contentsOf: real)

    let result = try project.strata(
      "init",
      "--database",
      "app.sqlite3",
      "--template",
      "link.sqlite3"
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("from the template"), "\(result.standardOutput)")
    #expect(try Self.fileType(project.database) == .typeRegular)
    try Connection(path: project.database.path).execute("INSERT INTO a VALUES ('app row')")
    #expect(try Data(contentsOf: real) == before, "the write went into the template")
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM a") == 1)
    #expect(try DatabaseProbe.integer(real, "SELECT count(*) FROM a") == 0)
  }

  /// A WAL template whose -wal holds committed rows: the file alone is stale, so init refuses
  /// it clearly and creates nothing, rather than say "Created … from the template".
  @Test func aTemplateWithCommittedChangesInItsWALIsRefused() throws {
    let project = try Project(threeMigrations)
    try project.write(
      "0004_wal.sql",
      "-- migrate:up transaction:false\nPRAGMA journal_mode = WAL;\n"
    )
    let built = try project.strata("template", "--output", "t.sqlite3")
    try #require(built.exitCode == 0, "\(built.standardError)")
    let template = project.dir.path("t.sqlite3")
    let bundle = project.dir.path("bundle")
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    do {
      // A snapshot taken while a writer has a committed row only in -wal.
      let writer = try Connection(path: template.path)
      try writer.execute("PRAGMA wal_autocheckpoint = 0; INSERT INTO a VALUES ('committed')")
      for suffix in ["", "-wal"] {
        try FileManager.default.copyItem(
          atPath: template.path + suffix,
          toPath: bundle.appendingPathComponent("t.sqlite3").path + suffix
        )
      }
    }
    let result = try project.strata(
      "init",
      "--database",
      "app.sqlite3",
      "--template",
      "bundle/t.sqlite3"
    )
    #expect(result.exitCode == 1, "\(result.standardOutput)")
    #expect(
      result.standardError.contains("t.sqlite3-wal holds committed changes"),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("no database was created"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: project.database.path))
  }

  /// Under `umask 077`, a database copied from a template is private, as an empty database is;
  /// it is never wider than the template, and always writable by its owner.
  @Test(arguments: [
    (umask: "077", template: 0o600, expected: 0o600),
    (umask: "077", template: 0o644, expected: 0o600),
    (umask: "022", template: 0o600, expected: 0o600),
    (umask: "022", template: 0o444, expected: 0o644),
    (umask: "022", template: 0o666, expected: 0o644),
  ])
  func aDatabaseFromATemplateFollowsTheUmask(
    _ umask: String,
    template templateMode: Int,
    expected: Int
  ) throws {
    let project = try Project(threeMigrations)
    try #require(try project.strata("template", "--output", "t.sqlite3").exitCode == 0)
    let template = project.dir.path("t.sqlite3")
    try FileManager.default.setAttributes(
      [.posixPermissions: templateMode],
      ofItemAtPath: template.path
    )
    let launcher = ["/bin/sh", "-c", "umask \(umask); exec \"$0\" \"$@\""]
    for (database, arguments) in [
      ("copy.sqlite3", ["--template", "t.sqlite3"]), ("empty.sqlite3", ["--migrations", "none"]),
    ] {
      try FileManager.default.createDirectory(
        at: project.dir.path("none"),
        withIntermediateDirectories: true
      )
      let result = try StrataProcess.run(
        ["init", "--database", database] + arguments,
        in: project.dir.url,
        launcher: launcher
      )
      #expect(result.exitCode == 0, "\(result.standardError)")
      let mode = try Self.mode(project.dir.path(database))
      let wanted = database == "copy.sqlite3" ? expected : (umask == "077" ? 0o600 : 0o644)
      #expect(mode == wanted, "\(database): \(String(mode, radix: 8))")
    }
  }
}
