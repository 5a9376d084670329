import Foundation
import Testing

/// Every sample output in README.md and the user guide in docs/ is what the built `strata`
/// prints today, byte for byte, so the docs cannot drift from the code.
///
/// What an output block is, and how a page marks one, is in `DocPage`. Each marked block is
/// made again by its producer in `DocSamples` (a fixture folder, commands run there with the
/// real binary) and compared with the page. After a change to an output:
///
///     STRATA_UPDATE_DOC_SAMPLES=1 swift test --filter DocSample
///
/// rewrites the blocks in place (review the diff). docs/RELIABILITY.md and docs/decisions.md
/// are not checked: they are records of past runs (fuzzing figures, errors as found) and of
/// decisions, not a guide to today's output.
@Suite struct DocSampleTests {
  static let checkedPages: [String] = {
    let docs = DocSamples.repository.appendingPathComponent("docs")
    let pages = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    let records: Set<String> = ["RELIABILITY.md", "decisions.md"]
    return ["README.md"]
      + pages.filter { $0.hasSuffix(".md") && !records.contains($0) }.sorted().map { "docs/\($0)" }
  }()

  static let updating = ProcessInfo.processInfo.environment["STRATA_UPDATE_DOC_SAMPLES"] == "1"

  static func page(_ path: String) throws -> DocPage {
    let url = DocSamples.repository.appendingPathComponent(path)
    return DocPage(path: path, text: try String(contentsOf: url, encoding: .utf8))
  }

  @Test("the pages checked include the README and the user guide")
  func checkedPagesAreFound() {
    for page in ["README.md", "docs/migrations.md", "docs/seeding.md", "docs/inspect.md"] {
      #expect(Self.checkedPages.contains(page), "\(page) is not checked")
    }
  }

  @Test(
    "every fence has a language, every output is marked, every marker has a producer",
    arguments: checkedPages
  )
  func pageFollowsTheRules(path: String) throws {
    let page = try Self.page(path)
    for problem in page.problems { Issue.record(Comment(rawValue: problem)) }
    for block in page.blocks {
      let place = "\(path):\(block.line)"
      if block.language.isEmpty {
        Issue.record(
          "\(place): a fence without a language: say what it holds (sh for commands, text or console for output, …)"
        )
      }
      if let name = block.marker {
        if DocSamples.named(name) == nil {
          Issue.record("\(place): marker '\(name)' has no producer in DocSamples.all")
        }
      } else if DocPage.outputLanguages.contains(block.language) {
        Issue.record(
          "\(place): a \(block.language) block is output: mark it '<!-- sample: NAME -->' and add its producer to DocSamples.all"
        )
      }
    }
  }

  @Test("each producer's sample is used once in the docs")
  func everyProducerIsUsedOnce() throws {
    var uses: [String: [String]] = [:]
    for path in Self.checkedPages {
      let page = try Self.page(path)
      for block in page.blocks {
        if let name = block.marker { uses[name, default: []].append("\(path):\(block.line)") }
      }
    }
    var names = Set<String>()
    for sample in DocSamples.all {
      #expect(names.insert(sample.name).inserted, "two producers are named \(sample.name)")
      let places = uses[sample.name] ?? []
      #expect(places.count == 1, "sample \(sample.name) is used \(places.count) times: \(places)")
    }
  }

  @Test("each marked block is the output strata prints", arguments: checkedPages)
  func samplesMatch(path: String) throws {
    var page = try Self.page(path)
    var changed = false
    // Blocks are compared in order; a rewrite moves the ones after it, so find each again.
    for position in page.blocks.indices {
      let block = page.blocks[position]
      guard let name = block.marker, let sample = DocSamples.named(name) else { continue }
      let expected = try sample.produce()
      let actual = page.body(of: block)
      if expected == actual { continue }
      if Self.updating {
        page.replaceBody(of: block, with: expected)
        changed = true
      } else {
        Issue.record(
          """
          \(path):\(block.line): sample '\(name)' differs from what strata prints \
          (STRATA_UPDATE_DOC_SAMPLES=1 swift test --filter DocSample rewrites it).
          In the docs:
          \(actual)
          strata prints:
          \(expected)
          """
        )
      }
    }
    if changed {
      try Data(page.text.utf8).write(to: DocSamples.repository.appendingPathComponent(path))
    }
  }

  @Test("a fence closes only with its own run, and markers pair with the next fence")
  func pageParsing() {
    let page = DocPage(
      path: "t.md",
      text: """
        <!-- sample: outer -->
        ````markdown
        ```sql
        SELECT 1;
        ```
        ````
        <!-- sample: lost -->
        text

        ```
        """
    )
    #expect(page.blocks.count == 2)
    #expect(page.blocks[0].marker == "outer")
    #expect(page.body(of: page.blocks[0]) == "```sql\nSELECT 1;\n```")
    #expect(page.blocks[1].language.isEmpty)
    #expect(page.problems.count == 2)  // a marker before no fence, an unclosed fence
  }

  @Test("what varies is written as the docs show it")
  func normalization() {
    #expect(
      DocSample.normalized("student  seeds/student.csv  4  4  12 ms")
        == "student  seeds/student.csv  4  4  0 ms"
    )
    #expect(
      DocSample.normalized("busy timeout (200 ms); nothing was changed")
        == "busy timeout (200 ms); nothing was changed"
    )
  }
}
