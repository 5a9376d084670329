import Foundation
import Testing

@testable import Strata
@testable import StrataCLI

/// On macOS the default database is in `~/Documents`, which the system guards with a prompt:
/// strata says why before it touches it, and says nothing when a path was given or elsewhere.
@Suite struct DocumentsPromptNoteTests {
  private static let defaultLocation = DatabaseLocation(
    url: URL(fileURLWithPath: "/Users/ann/Documents/data.sqlite3"),
    isDefault: true
  )

  @Test func theDefaultOnMacOSIsExplainedBeforeItIsTouched() throws {
    let note = try #require(
      CommonOptions.documentsPromptNote(for: Self.defaultLocation, onMacOS: true)
    )
    #expect(note.contains("/Users/ann/Documents/data.sqlite3"))
    #expect(note.contains("macOS may ask"))
    #expect(note.contains("--database"))
  }

  @Test func aGivenPathOrAnotherSystemSaysNothing() {
    let given = DatabaseLocation(url: URL(fileURLWithPath: "/tmp/app.sqlite3"), isDefault: false)
    #expect(CommonOptions.documentsPromptNote(for: given, onMacOS: true) == nil)
    #expect(CommonOptions.documentsPromptNote(for: Self.defaultLocation, onMacOS: false) == nil)
  }

  #if os(Linux)
  /// Linux's `strata` never prints it, whichever location it uses.
  @Test func theLinuxToolPrintsNoNote() throws {
    #expect(!CommonOptions.isMacOS)
  }
  #endif
}
