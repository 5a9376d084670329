import Foundation
import StrataTestSupport
import Testing

/// The real folders themselves, unchanged, where a copy is at hand: `STRATA_REAL_FOLDERS`
/// names a folder holding them under the names in Tests/Fixtures/RealFolders/README.md
/// (they are not kept in this repository; the README says where each comes from).
@Suite(
  "Real project folders, unchanged",
  .enabled(if: ProcessInfo.processInfo.environment["STRATA_REAL_FOLDERS"] != nil)
)
struct UnpackedRealFolderTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let format: ReferenceFormat
    var options: [String] = []
    let applied: Int
    let rolledBack: Int
    var reapplied = true
    /// What strata says when it does not read the folder yet (docs/real-folders.md, "What
    /// strata still does not read"): the test then checks that it refuses, changing nothing.
    var refusal: String? = nil
    /// false: the folder's migrations write random values or the clock into rows (a
    /// `DEFAULT CURRENT_TIMESTAMP` column filled while migrating), so only the schemas are
    /// compared.
    var comparesRows = true
    var testDescription: String { name }
  }

  /// Each project's folder, and how far its down parts go.
  static let cases: [Case] = [
    Case(name: "goose-mjrwtf", format: .goose, applied: 3, rolledBack: 3),
    Case(name: "goose-url-shortener", format: .goose, applied: 2, rolledBack: 2),
    Case(name: "golang-migrate-url-shortener", format: .golangMigrate, applied: 1, rolledBack: 1),
    Case(
      name: "golang-migrate-sdxtra",
      format: .golangMigrate,
      applied: 1,
      rolledBack: 1,
      reapplied: false
    ),
    Case(name: "sqlx-Y", format: .sqlx, applied: 1, rolledBack: 0, comparesRows: false),
    Case(name: "bundle-sqlitemigrationmanager-example", format: .bundle, applied: 1, rolledBack: 0),
    Case(
      name: "dbmate-sematic",
      format: .dbmate,
      options: ["--exclude", "*.py"],
      applied: 41,
      rolledBack: 24,
      reapplied: false
    ),
    Case(
      name: "sql-migrate-go-ssb-room",
      format: .sqlMigrate,
      applied: 5,
      rolledBack: 4,
      reapplied: false
    ),
    Case(
      name: "bundle-sqlitemigrationmanager-tests",
      format: .bundle,
      applied: 3,
      rolledBack: 0,
      refusal: "malformed.sql: file name must start with a version number and a name"
    ),
    Case(
      name: "diesel-wealthfolio",
      format: .diesel,
      applied: 29,
      rolledBack: 19,
      reapplied: false,
      comparesRows: false
    ),
    Case(name: "flyway-flywaytest", format: .flyway, applied: 3, rolledBack: 0),
  ]

  @Test(arguments: cases)
  func appliesRollsBackAndReapplies(_ entry: Case) throws {
    let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["STRATA_REAL_FOLDERS"]!)
    let folder = root.appendingPathComponent(entry.name)
    try #require(FileManager.default.fileExists(atPath: folder.path), "\(folder.path) is missing")
    if let refusal = entry.refusal {
      let dir = try TemporaryDirectory()
      let run = try StrataProcess.run(
        ["migrate", "--database", "app.sqlite3", "--migrations", folder.path] + entry.options,
        in: dir.url
      )
      #expect(run.exitCode == 1)
      #expect(run.standardError.contains(refusal), "\(run.standardError)")
      #expect(!FileManager.default.fileExists(atPath: dir.path("app.sqlite3").path))
      return
    }
    let outcome = try RealFolderCheck(
      folder: folder,
      format: entry.format,
      options: entry.options,
      comparesRows: entry.comparesRows
    ).run()
    #expect(
      outcome
        == .init(applied: entry.applied, rolledBack: entry.rolledBack, reapplied: entry.reapplied)
    )
  }
}
