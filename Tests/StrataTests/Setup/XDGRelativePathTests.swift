import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// The XDG spec says relative paths are invalid and must be ignored. `XDG_DOCUMENTS_DIR=docs`
/// used to be taken from the current directory (so the default database moved with `cd`),
/// while the same value in `user-dirs.dirs` was ignored.
@Suite struct XDGRelativePathTests {
  @Test(arguments: ["docs", "./docs", "../docs", "docs/sub"])
  func aRelativeVariableIsIgnored(_ value: String) throws {
    let home = try TemporaryDirectory()
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: [
      "HOME": home.url.path, "XDG_DOCUMENTS_DIR": value,
    ])
    #expect(url.path == home.url.path + "/Documents")
  }

  @Test func aRelativeVariableFallsBackToTheFileLikeAnUnsetOne() throws {
    let home = try TemporaryDirectory()
    try home.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/Papiere\"\n")
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: [
      "HOME": home.url.path, "XDG_DOCUMENTS_DIR": "docs",
    ])
    #expect(url.path == home.url.path + "/Papiere")
  }

  @Test func aRelativeValueInTheFileIsIgnoredTheSameWay() throws {
    let home = try TemporaryDirectory()
    try home.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"docs\"\n")
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: ["HOME": home.url.path])
    #expect(url.path == home.url.path + "/Documents")
  }

  @Test func aRelativeConfigHomeIsIgnored() throws {
    let home = try TemporaryDirectory()
    try home.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/Papiere\"\n")
    let url = try DatabaseLocation.xdgDocumentsDirectory(environment: [
      "HOME": home.url.path, "XDG_CONFIG_HOME": "cfg",
    ])
    #expect(url.path == home.url.path + "/Papiere")
  }

  /// End to end: the default database does not move with the working directory.
  @Test func theDefaultDatabaseDoesNotMoveWithTheCurrentDirectory() throws {
    let home = try TemporaryDirectory()
    let first = home.path("a")
    let second = home.path("b")
    for folder in [first, second] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    for cwd in [first, second] {
      let location = try DatabaseLocation.resolve(
        explicit: nil,
        environment: ["HOME": home.url.path, "XDG_DOCUMENTS_DIR": "docs"],
        currentDirectory: cwd.path
      )
      #expect(location.url.path == home.url.path + "/Documents/data.sqlite3")
    }
  }
}
