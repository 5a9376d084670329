import Foundation
import Strata
import StrataTestSupport
import Testing

/// `strata init --template`: what the new database is, whatever the template is.
@Suite struct TemplateInstallTests {
  private static func fileType(_ url: URL) throws -> FileAttributeType? {
    try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
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
}
