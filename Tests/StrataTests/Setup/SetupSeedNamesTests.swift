import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// An app's launch names its seed files as they sit in the bundle (`seeds/b.csv`), in its
/// progress, its report and its errors, by default: never by the absolute path of the bundle on
/// the machine that built or runs it, which means nothing in an app's log or alert.
@Suite struct SetupSeedNamesTests {
  /// The seeds folder deep inside a build folder, as a bundle's resources are.
  private func setup(
    _ fixture: SetupFixture,
    seed: String = "id,a_x\n1,one\n2,two\n"
  ) throws -> DatabaseSetup {
    try fixture.dir.write(".build/release/App_App.resources/seeds/b.csv", seed)
    var setup = fixture.setup(template: fixture.template)
    setup.seeds = fixture.dir.path(".build/release/App_App.resources/seeds")
    return setup
  }

  @Test func theReportAndTheProgressNameAFileInItsSeedsFolder() throws {
    let fixture = try SetupFixture()
    var setup = try setup(fixture)
    let log = ProgressLog()
    setup.progress = { log.record($0) }
    #expect(setup.seedsDisplayPath == nil)
    let report = try setup.run()
    #expect(report.seedFilesLoaded == ["seeds/b.csv"])
    let seeding = log.all.compactMap { event -> SeedProgress? in
      if case .seeding(let seed) = event { return seed }
      return nil
    }
    #expect(!seeding.isEmpty)
    #expect(seeding.allSatisfy { $0.file == "seeds/b.csv" })
  }

  @Test func aSeedErrorAtLaunchNamesTheFileInItsSeedsFolder() throws {
    let fixture = try SetupFixture()
    let setup = try setup(fixture, seed: "id,nope\n1,one\n")
    // Reported, not thrown (the launch rule of docs/library.md).
    let error = try setup.run().seedProblem
    let message = error?.message ?? ""
    #expect(message.contains("seeds/b.csv"), "\(message)")
    // The database is named by its path (it is the device's file); the seeds folder is not.
    #expect(!message.contains("App_App.resources"), "\(message)")
    #expect(try Connection(path: fixture.database.path).rows("SELECT count(*) FROM b") == [[0]])
  }

  @Test func aDisplayPathGivenStillWins() throws {
    let fixture = try SetupFixture()
    var setup = try setup(fixture)
    setup.seedsDisplayPath = "Resources/seeds"
    #expect(try setup.run().seedFilesLoaded == ["Resources/seeds/b.csv"])
  }
}
