import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A relative `HOME` cannot locate the documents folder: taken from the current directory, the
/// default database would move with `cd` (as a relative XDG_DOCUMENTS_DIR would).
@Suite struct RelativeHomeTests {
  @Test(arguments: ["relative", "./home", "home/user"])
  func aRelativeHomeIsAnErrorNamingHome(_ home: String) throws {
    #expect(throws: DatabaseOpenError.self) {
      _ = try DatabaseLocation.resolve(explicit: nil, environment: ["HOME": home])
    }
    do {
      _ = try DatabaseLocation.documentsDirectory(environment: ["HOME": home])
      Issue.record("a relative HOME located a documents folder")
    } catch let error as DatabaseOpenError {
      #expect(error.message.contains("HOME (\(home)) is not an absolute path"))
      #expect(!error.message.contains("--"))
      #expect(!error.message.contains("STRATA_"))
    }
  }

  @Test func anAbsoluteXDGDocumentsDirNeedsNoHome() throws {
    let url = try DatabaseLocation.documentsDirectory(environment: [
      "HOME": "relative", "XDG_DOCUMENTS_DIR": "/srv/docs",
    ])
    #expect(url.path == "/srv/docs")
  }

  @Test func anExplicitPathNeedsNoHome() throws {
    let location = try DatabaseLocation.resolve(
      explicit: "app.sqlite3",
      environment: ["HOME": "relative"],
      currentDirectory: "/work"
    )
    #expect(location.url.path == "/work/app.sqlite3")
  }
}
