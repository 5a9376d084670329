import Foundation
import Strata
import StrataTestSupport
import Testing

/// The library's help names remedies as values; the CLI says each as its own flags and
/// commands, also where one error carries another (a seed failure inside `init`) and in
/// `validate`'s problems.
@Suite struct RemedyWordsCommandTests {
  @Test func aSeedFailureDuringInitNamesTheSeedFlagsAndInitAgain() throws {
    let project = try Project(["0001_person.sql": "CREATE TABLE person_info (name TEXT);"])
    try project.dir.write("seeds/people.csv", "name\nAnn\n")
    let result = try project.strata("init", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    let error = result.standardError
    #expect(
      error.contains(
        "Help: Name the file after its table (person_info.csv), pass --table NAME, or run 'strata migrate' first. Fix the seed file, then run 'strata init' again"
      ),
      "\(error)"
    )
    #expect(!error.contains("SeedFile's table"), "\(error)")
    #expect(try DatabaseProbe.integer(project.database, "SELECT count(*) FROM person_info") == 0)
  }

  @Test func driftInValidateNamesNewAndInspectDiff() throws {
    let project = try Project(["0001_person.sql": "CREATE TABLE person_info (name TEXT);"])
    #expect(try project.strata("migrate", "--database", "app.sqlite3").exitCode == 0)
    let db = try Connection(url: project.database)
    try db.execute("CREATE TABLE extra (x)")
    let result = try project.strata("validate", "--database", "app.sqlite3")
    #expect(result.exitCode == 1)
    let error = result.standardError
    #expect(error.contains("a new migration ('strata new NAME')"), "\(error)")
    #expect(error.contains("'strata inspect --diff' lists every difference"), "\(error)")
    #expect(!error.contains("drift report"), "\(error)")
  }
}
