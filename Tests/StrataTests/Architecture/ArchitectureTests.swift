import Foundation
import Testing

/// The library's folders depend only downward: a folder names only what the folders of lower
/// layers declare. The table is here and nowhere else; docs/architecture.md draws it.
@Suite struct ArchitectureTests {
  /// The layers of `Sources/Strata`, lowest first. A folder may use any folder of a lower layer,
  /// never one of its own layer or a higher one. A subfolder counts as its top-level folder.
  static let layers: [[String]] = [
    ["Errors", "Checksum", "Time", "Versions"],
    ["SQLText"],
    ["SQLite"],
    ["TOML", "Files"],
    ["Backup"],
    ["Migrations"],
    ["Inspection"],
    ["Seeding", "Linting", "Validation", "Restore"],
    ["Settings", "Diff"],
    ["Setup"],
    ["Fleet", "Access"],
  ]

  /// Upward edges known and not yet removed, each with the reason it is still there. The test
  /// fails when one is no longer found, so that it leaves this list with its edge. Empty since
  /// issue 32: an edge found is a failure.
  static let knownUpwardEdges: [(from: String, to: String, reason: String)] = []

  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/Strata")

  /// Each reference from a folder to a folder the table does not let it use, by edge.
  static func upwardEdges(
    _ references: [SourceIndex.Reference],
    layers: [[String]]
  ) -> [String: [SourceIndex.Reference]] {
    var layerOf: [String: Int] = [:]
    for (number, folders) in layers.enumerated() {
      for folder in folders { layerOf[folder] = number }
    }
    var found: [String: [SourceIndex.Reference]] = [:]
    for reference in references {
      if let from = layerOf[reference.folder], let to = layerOf[reference.declaringFolder],
        to < from
      {
        continue
      }
      found["\(reference.folder) → \(reference.declaringFolder)", default: []].append(reference)
    }
    return found
  }

  @Test func foldersDependOnlyDownward() throws {
    let index = try SourceIndex(root: Self.sources)
    let edges = Self.upwardEdges(index.references(), layers: Self.layers)
    let known = Set(Self.knownUpwardEdges.map { "\($0.from) → \($0.to)" })
    for (edge, references) in edges.sorted(by: { $0.key < $1.key }) where !known.contains(edge) {
      let places = references.map { "\($0.file):\($0.line) (\($0.name))" }
      let placesText = places.joined(separator: "\n  ")
      Issue.record("\(edge) goes up or sideways in the layer table, at:\n  \(placesText)")
    }
    for edge in known where edges[edge] == nil {
      Issue.record("\(edge) is gone: take it out of knownUpwardEdges")
    }
  }

  @Test func everyFolderHasOneLayer() throws {
    let index = try SourceIndex(root: Self.sources)
    let placed = Self.layers.flatMap { $0 }
    #expect(placed.count == Set(placed).count, "a folder is in two layers")
    #expect(index.filesOutsideFolders == [], "every file of Sources/Strata is in a folder")
    let unplaced = index.folders.subtracting(placed).subtracting([""]).sorted()
    #expect(unplaced == [], "folders the layer table does not place")
    let gone = Set(placed).subtracting(index.folders).sorted()
    #expect(gone == [], "folders in the layer table that hold no Swift file")
  }

  /// The check itself: a folder naming a higher folder's type is found, with its file and line,
  /// and comments, strings and a folder's own names are not taken for references.
  @Test func anUpwardReferenceIsFoundWhereItIs() {
    let index = SourceIndex(files: [
      ("Low/Fence.swift", "struct Fence {\n  let table = History.table\n}\n"),
      (
        "Low/Quiet.swift",
        "// History\nlet text = \"History \\(1)\"\nlet note = \"\"\"\n History\n\"\"\"\n"
      ),
      ("High/History.swift", "enum History { static let table = \"strata_migrations\" }\n"),
      ("High/Uses.swift", "let fence = Fence()\nfunc check() { let x = \"\\(Fence())\" }\n"),
    ])
    let references = index.references()
    let edges = Self.upwardEdges(references, layers: [["Low"], ["High"]])
    #expect(edges.keys.sorted() == ["Low → High"])
    #expect(edges["Low → High"]?.map { "\($0.file):\($0.line)" } == ["Low/Fence.swift:2"])
    // The higher folder names the lower one twice, once inside an interpolation.
    #expect(references.filter { $0.folder == "High" }.map(\.line) == [1, 2])
  }

  @Test func aLowercaseFunctionCountsWhereItIsCalled() {
    let index = SourceIndex(files: [
      ("A/Path.swift", "func checkPath(_ p: String) {}\n"),
      ("B/Use.swift", "func f(checkPath: Int) {\n  let path = checkPath\n  checkPath(\"x\")\n}\n"),
    ])
    #expect(index.references().map { "\($0.file):\($0.line)" } == ["B/Use.swift:3"])
  }
}
