import Foundation
import Strata
import StrataTestSupport
import Testing

/// Standard input is recorded as `stdin` in the ledger whatever name reaches it.
@Suite struct StandardInputNameTests {
  // MARK: - Defect 6: standard input by another name

  @Test(arguments: ["/dev/fd/0", "/proc/self/fd/0", "/dev/stdin", "-"])
  func standardInputByAnyNameIsRecordedAsStdin(_ file: String) throws {
    let project = try Project.sample()
    let migrate = try project.strata("migrate", "--database", "app.sqlite3")
    try #require(migrate.exitCode == 0, "\(migrate.standardError)")
    try project.dir.write("people.csv", "name,age\nAda,36\n")
    let run = try SpawnedProcess.shell(
      "cat people.csv | \"$STRATA\" seed \(file) --table person_info --database app.sqlite3",
      in: project.dir.url
    )
    #expect(run.finished)
    #expect(run.exitCode == 0, "\(run.standardError)")
    #expect(
      try DatabaseProbe.rows(project.database, "SELECT file FROM strata_seeds")
        == [[.text("stdin")]]
    )
  }
}
