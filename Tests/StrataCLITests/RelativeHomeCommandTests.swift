import Foundation
import Strata
import StrataTestSupport
import Testing

/// A relative HOME cannot locate the default database: it would move with `cd`.
@Suite struct RelativeHomeCommandTests {
  // MARK: - Defect 4: a relative HOME

  @Test(arguments: ["status", "migrate", "init"])
  func aRelativeHomeCannotLocateTheDefaultDatabase(_ command: String) throws {
    let project = try Project.sample()
    let result = try StrataProcess.run(
      [command],
      in: project.dir.url,
      environment: ["HOME": "relative"],
      timeout: 60
    )
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains(
        "the default database location cannot be found: HOME (relative) is not an absolute path"
      ),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("--database"))
    #expect(!FileManager.default.fileExists(atPath: project.dir.path("relative").path))
  }

  @Test func aRelativeHomeWithAnExplicitDatabaseIsFine() throws {
    let project = try Project.sample()
    let result = try StrataProcess.run(
      ["migrate", "--database", "app.sqlite3"],
      in: project.dir.url,
      environment: ["HOME": "relative"],
      timeout: 60
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
  }
}
