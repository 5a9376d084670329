import Foundation
import StrataTestSupport
import Testing

/// `validate` warns about versions that order differently as numbers and as text, and still
/// exits 0 when nothing else is wrong.
@Suite struct VersionWidthCommandTests {
  @Test func validateWarnsInTextAndJSONAndExitsZero() throws {
    let project = try Project(["9_a.sql": "CREATE TABLE a (x);", "10_b.sql": "CREATE TABLE b (x);"])
    let text = try project.strata("validate", "--files-only")
    #expect(text.exitCode == 0, "\(text.standardError)")
    #expect(
      text.standardError.contains(
        "Warning: migrations/9_a.sql (version 9) runs before migrations/10_b.sql (version 10), "
          + "but sorted as text '10_b.sql' comes before '9_a.sql'"
      ),
      "\(text.standardError)"
    )
    #expect(text.standardOutput.contains("OK: 2 migrations"), "\(text.standardOutput)")
    let json = try project.strata("validate", "--files-only", "--format", "json")
    #expect(json.exitCode == 0)
    #expect(json.standardOutput.contains("\"versionWidthWarnings\" : ["), "\(json.standardOutput)")
    #expect(json.standardOutput.contains("\"earlier\" : \"migrations/9_a.sql\""))
    // With another problem the exit code is that problem's.
    try project.write("0011_c.sql", "-- migrate:up\n-- strata:todo\n")
    #expect(try project.strata("validate", "--files-only").exitCode == 1)
  }

  @Test func paddedVersionsGetNoWarning() throws {
    let project = try Project(["09_a.sql": "CREATE TABLE a (x);", "10_b.sql": "SELECT 1;"])
    let text = try project.strata("validate", "--files-only")
    #expect(text.exitCode == 0)
    #expect(!text.standardError.contains("Warning"), "\(text.standardError)")
    let json = try project.strata("validate", "--files-only", "--format", "json")
    #expect(json.standardOutput.contains("\"versionWidthWarnings\" : ["))
  }
}
