import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct DatabaseLocationTests {
  @Test func explicitPathWinsAndRelativeIsResolvedAgainstTheCurrentDirectory() throws {
    let location = try DatabaseLocation.resolve(
      explicit: "data/app.sqlite3",
      environment: ["STRATA_DATABASE": "/elsewhere.sqlite3", "HOME": "/home/u"],
      currentDirectory: "/work/project"
    )
    #expect(location.url.path == "/work/project/data/app.sqlite3")
    #expect(!location.isDefault)
  }

  @Test func theLibraryReadsNoVariableOfTheCLI() throws {
    // The library reads no variable of the CLI's: `$STRATA_DATABASE` is the CLI's to pass.
    let location = try DatabaseLocation.resolve(
      explicit: nil,
      environment: ["STRATA_DATABASE": "db.sqlite3", "HOME": "/home/u"],
      currentDirectory: "/work"
    )
    #expect(location.isDefault)
    #expect(location.url.path != "/work/db.sqlite3")
  }

  @Test func defaultIsHomeDocumentsFromTheEnvironment() throws {
    let home = try TemporaryDirectory()
    let location = try DatabaseLocation.resolve(
      explicit: nil,
      environment: ["HOME": home.url.path],
      currentDirectory: "/"
    )
    #expect(location.isDefault)
    #expect(location.url.path == home.url.path + "/Documents/data.sqlite3")
  }

  @Test func xdgDocumentsDirVariable() throws {
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: [
      "HOME": "/home/u", "XDG_DOCUMENTS_DIR": "$HOME/Papers",
    ])
    #expect(url.path == "/home/u/Papers")
  }

  /// The standard line every Ubuntu and Fedora desktop writes, which Foundation misreads.
  @Test func userDirsFileWithQuotesAndHome() throws {
    let home = try TemporaryDirectory()
    try home.write(
      ".config/user-dirs.dirs",
      """
      # This file is written by xdg-user-dirs-update
      XDG_DESKTOP_DIR="$HOME/Desktop"
      XDG_DOCUMENTS_DIR="$HOME/Dokumente"
      """
    )
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: ["HOME": home.url.path])
    #expect(url.path == home.url.path + "/Dokumente")
  }

  @Test func userDirsFileUnderXDGConfigHome() throws {
    let home = try TemporaryDirectory()
    try home.write("cfg/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"/srv/docs\"\n")
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: [
      "HOME": home.url.path, "XDG_CONFIG_HOME": home.path("cfg").path,
    ])
    #expect(url.path == "/srv/docs")
  }

  @Test func fallsBackToHomeDocuments() throws {
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: [
      "HOME": "/nonexistent-home", "XDG_CONFIG_HOME": "/nonexistent-config",
    ])
    #expect(url.path == "/nonexistent-home/Documents")
  }
}
