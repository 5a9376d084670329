import Foundation
import Testing

/// Every relative link in the repository's Markdown pages leads to a file that exists, and a
/// `#section` in it to a heading of that file (GitHub's anchors), so that moving a section
/// cannot leave a link behind. Links to other sites are not followed.
@Suite struct DocLinkTests {
  static let pages: [String] = {
    let docs = DocSamples.repository.appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    return ["README.md", "BENCHMARKS.md"]
      + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
  }()

  @Test("relative links lead to a file and a heading", arguments: pages)
  func linksResolve(path: String) throws {
    let url = DocSamples.repository.appendingPathComponent(path)
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    let page = DocPage(path: path, text: try String(contentsOf: url, encoding: .utf8))
    for (line, target) in try Self.links(in: page) {
      guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
      let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let file =
        parts[0].isEmpty
        ? url : url.deletingLastPathComponent().appendingPathComponent(String(parts[0]))
      guard FileManager.default.fileExists(atPath: file.path) else {
        Issue.record("\(path):\(line): the link \(target) leads to no file")
        continue
      }
      guard parts.count == 2, file.pathExtension == "md" else { continue }
      let headings = Self.anchors(of: try String(contentsOf: file, encoding: .utf8))
      if !headings.contains(String(parts[1])) {
        Issue.record("\(path):\(line): the link \(target) names no heading of \(parts[0])")
      }
    }
  }

  @Test("a heading's anchor is GitHub's")
  func anchors() {
    #expect(Self.anchor("What stops `migrate`") == "what-stops-migrate")
    #expect(
      Self.anchor("Drift: `--diff` and `strata validate`") == "drift---diff-and-strata-validate"
    )
    #expect(Self.anchor("Where the database lives") == "where-the-database-lives")
  }

  /// `[text](target)` links outside fences, with their 1-based line.
  static func links(in page: DocPage) throws -> [(Int, String)] {
    let fenced = Set(page.blocks.flatMap { Array($0.body) + [$0.line - 1, $0.body.upperBound] })
    let lines = page.text.components(separatedBy: "\n")
    var found: [(Int, String)] = []
    let pattern = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
    for (index, line) in lines.enumerated() where !fenced.contains(index) {
      let range = NSRange(line.startIndex..., in: line)
      for match in pattern.matches(in: line, range: range) {
        if let target = Range(match.range(at: 1), in: line) {
          found.append((index + 1, String(line[target])))
        }
      }
    }
    return found
  }

  /// The anchors of a page's headings, outside fences.
  static func anchors(of text: String) -> Set<String> {
    let page = DocPage(path: "", text: text)
    let fenced = Set(page.blocks.flatMap { Array($0.body) })
    var anchors = Set<String>()
    for (index, line) in text.components(separatedBy: "\n").enumerated()
    where !fenced.contains(index) && line.hasPrefix("#") {
      anchors.insert(anchor(String(line.drop { $0 == "#" })))
    }
    return anchors
  }

  /// GitHub's rule: lowercase; drop what is not a letter, a digit, a space, `-` or `_`;
  /// spaces become `-`.
  static func anchor(_ heading: String) -> String {
    String(
      heading.trimmingCharacters(in: .whitespaces).lowercased()
        .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
        .map { $0 == " " ? "-" : $0 }
    )
  }
}
