import Foundation
import Testing

/// The README's app section (and any docs page) is copied from the examples, so its code
/// compiles and runs: each block after `<!-- example: NAME -->` must equal the lines between
/// `// example: NAME` and `// end example` in Examples/ (indentation removed).
@Suite struct ReadmeExampleTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func everyExampleBlockInTheReadmeMatchesItsSource() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"),
      encoding: .utf8
    )
    #expect(
      !Self.exampleBlocks(in: readme).isEmpty,
      "README.md has no <!-- example: NAME --> block"
    )
    let regions = try Self.exampleRegions()
    let docs = try FileManager.default.contentsOfDirectory(
      at: Self.root.appendingPathComponent("docs"),
      includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "md" }
    for page in [Self.root.appendingPathComponent("README.md")] + docs {
      let text = try String(contentsOf: page, encoding: .utf8)
      for (name, block) in Self.exampleBlocks(in: text) {
        let region = try #require(
          regions[name],
          "\(page.lastPathComponent) names example \(name), which no source has"
        )
        #expect(
          block == region,
          "\(page.lastPathComponent)'s example \(name) differs from its source"
        )
      }
    }
  }

  /// The README's fenced blocks, by the example name in the comment just before each.
  static func exampleBlocks(in text: String) -> [(String, String)] {
    var found: [(String, String)] = []
    let lines = text.components(separatedBy: "\n")
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if line.hasPrefix("<!-- example: "), line.hasSuffix(" -->") {
        let name = String(line.dropFirst("<!-- example: ".count).dropLast(" -->".count))
        var body: [String] = []
        var cursor = index + 2  // past the opening fence
        while cursor < lines.count, lines[cursor] != "```" {
          body.append(lines[cursor])
          cursor += 1
        }
        found.append((name, body.joined(separator: "\n")))
        index = cursor
      }
      index += 1
    }
    return found
  }

  /// Each `// example: NAME` region of the Swift files under Examples/, dedented.
  static func exampleRegions() throws -> [String: String] {
    var regions: [String: String] = [:]
    let examples = root.appendingPathComponent("Examples")
    let files = FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil)
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
      var name: String?
      var body: [String] = []
      for line in lines {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("// example: ") {
          name = String(trimmed.dropFirst("// example: ".count))
          body = []
        } else if trimmed == "// end example", let current = name {
          regions[current] = dedent(body)
          name = nil
        } else if name != nil {
          body.append(line)
        }
      }
    }
    return regions
  }

  static func dedent(_ lines: [String]) -> String {
    let indent =
      lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
      .joined(separator: "\n")
  }
}
