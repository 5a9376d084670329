import Foundation
import Testing

@testable import StrataFuzzChecks

/// The project target's checks, shown what they must catch.
@Suite struct ProjectPropertyCheckTests {
  @Test func projectEntriesDecodeLinksFIFOsAndEscapedNames() {
    let entries = ProjectProperties.decode(
      Array(
        ("m/0001_a.sql\nSELECT 1;\u{0}\u{0}m/0002_b.sql -> ../x\u{0}\u{0}s/p.csv|fifo\u{0}\u{0}"
          + "m/0003_c\\n\\e.sql\n\u{0}\u{0}x/ignored\n\u{0}\u{0}m/0001_a.sql\nagain").utf8
      )
    )
    #expect(entries.map(\.name) == ["0001_a.sql", "0002_b.sql", "p.csv", "0003_c\n\u{1B}.sql"])
    #expect(entries.map(\.folder) == ["migrations", "migrations", "seeds", "migrations"])
    #expect(entries[0].kind == .file(Array("SELECT 1;".utf8)))
    #expect(entries[1].kind == .link("../x"))
    #expect(entries[2].kind == .fifo)
  }

  @Test func outputChecksCatchControlCharactersAndTheSecret() {
    #expect(throws: Never.self) {
      try ProjectRun.checkOutput(Array("Applied a\tb\n".utf8), of: "strata x", stream: "out")
    }
    for bad in ["\u{1B}[31mError", "a\rb", "\u{202E}cod.sql", ProjectProperties.secret] {
      #expect(throws: PropertyViolation.self) {
        try ProjectRun.checkOutput(Array(bad.utf8), of: "strata x", stream: "out")
      }
    }
  }

  @Test func snapshotsSeeAWrittenFileButNotAFolderTime() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-snapshot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try Data("a".utf8).write(to: root.appendingPathComponent("kept"))
    let before = FolderSnapshot(root)
    try Data("b".utf8).write(to: root.appendingPathComponent("scratch"))
    try FileManager.default.removeItem(at: root.appendingPathComponent("scratch"))
    #expect(FolderSnapshot(root).changes(since: before).isEmpty)
    try Data("b".utf8).write(to: root.appendingPathComponent("kept"))
    try Data("c".utf8).write(to: root.appendingPathComponent("new"))
    #expect(FolderSnapshot(root).changes(since: before) == ["kept", "new"])
  }
}
