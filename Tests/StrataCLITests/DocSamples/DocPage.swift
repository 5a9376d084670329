import Foundation

/// A Markdown page of the docs, read as its fenced blocks and the sample markers before them.
///
/// The rules the docs keep (`DocSampleTests` checks them):
/// - Every fence says what it holds: it has a language. `sh` is commands to type; `sql`,
///   `csv`, `swift` are files or code a reader writes; `tree` is a folder listing.
/// - A fence tagged `console` (commands after `$ `, each followed by its output), `text`,
///   `json` or `mermaid` is an output of strata, and must be marked: the line before it is
///   `<!-- sample: NAME -->`, and NAME is a producer in `DocSamples.all`. A fence of another
///   language may be marked too (the SQL dump and the Markdown output are), and is then checked
///   the same way.
/// - A marker stands right before a fence, and a name is used once in all the docs.
struct DocPage {
  /// A fenced block: where it is, its language, its marker if any, and its text.
  struct Block {
    let language: String
    let marker: String?
    /// The 1-based line of the opening fence.
    let line: Int
    /// The indexes, in `lines`, of the lines between the fences.
    let body: Range<Int>
  }

  /// The languages whose fences are strata's output, and so must be marked.
  static let outputLanguages: Set<String> = ["console", "text", "json", "mermaid"]
  static let markerPrefix = "<!-- sample: "
  static let markerSuffix = " -->"

  let path: String
  private(set) var lines: [String]
  private(set) var blocks: [Block] = []
  /// Problems with the page's own shape: a marker before no fence, an unterminated fence.
  private(set) var problems: [String] = []

  init(path: String, text: String) {
    self.path = path
    lines = text.components(separatedBy: "\n")
    parse()
  }

  var text: String { lines.joined(separator: "\n") }

  func body(of block: Block) -> String {
    lines[block.body].joined(separator: "\n")
  }

  /// Puts `newBody` between the block's fences. Blocks after it move: parse again.
  mutating func replaceBody(of block: Block, with newBody: String) {
    lines.replaceSubrange(block.body, with: newBody.components(separatedBy: "\n"))
    blocks = []
    problems = []
    parse()
  }

  private mutating func parse() {
    var index = 0
    var pendingMarker: (name: String, line: Int)?
    while index < lines.count {
      let line = lines[index]
      if let name = Self.markerName(line) {
        if let pending = pendingMarker {
          problems.append(
            "\(path):\(pending.line): marker '\(pending.name)' stands before no fence"
          )
        }
        pendingMarker = (name, index + 1)
        index += 1
        continue
      }
      guard let fence = Self.openingFence(line) else {
        if let pending = pendingMarker {
          problems.append(
            "\(path):\(pending.line): marker '\(pending.name)' stands before no fence"
          )
          pendingMarker = nil
        }
        index += 1
        continue
      }
      let start = index + 1
      var end = start
      while end < lines.count, !Self.closes(lines[end], fence.marker) { end += 1 }
      if end == lines.count {
        problems.append("\(path):\(index + 1): the fence is never closed")
      }
      blocks.append(
        Block(
          language: fence.language,
          marker: pendingMarker?.name,
          line: index + 1,
          body: start..<end
        )
      )
      pendingMarker = nil
      index = end + 1
    }
    if let pending = pendingMarker {
      problems.append("\(path):\(pending.line): marker '\(pending.name)' stands before no fence")
    }
  }

  static func markerName(_ line: String) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix(markerPrefix), trimmed.hasSuffix(markerSuffix) else { return nil }
    return String(trimmed.dropFirst(markerPrefix.count).dropLast(markerSuffix.count))
      .trimmingCharacters(in: .whitespaces)
  }

  /// A line that opens a fence (three or more backticks or tildes at the start), with its
  /// run of fence characters and its language (the first word after them).
  static func openingFence(_ line: String) -> (marker: String, language: String)? {
    guard let first = line.first, first == "`" || first == "~" else { return nil }
    let run = line.prefix { $0 == first }
    guard run.count >= 3 else { return nil }
    let info = line.dropFirst(run.count).trimmingCharacters(in: .whitespaces)
    let language = info.split(separator: " ").first.map(String.init) ?? ""
    return (String(run), language)
  }

  /// CommonMark: a fence closes with a run of the same character at least as long, alone.
  static func closes(_ line: String, _ marker: String) -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard let character = marker.first, trimmed.count >= marker.count else { return false }
    return trimmed.allSatisfy { $0 == character }
  }
}
