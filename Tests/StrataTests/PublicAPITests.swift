import Foundation
import Testing

/// The public API is for apps and integrators: what only strata's own targets (the CLI, the
/// fuzzer, the benchmarks, the tests) need is `package`. These read Sources/Strata as text, so
/// a type made public by accident fails here, not in an app that starts to depend on it.
@Suite struct PublicAPITests {
  /// The most public types `Strata` may declare, nested ones included (docs/api.md).
  static let maximumPublicTypes = 63

  @Test func noMorePublicTypesThanTheListAllows() throws {
    let types = try PublicTypes.declared()
    #expect(
      types.count <= Self.maximumPublicTypes,
      "\(types.count) public types: \(types.sorted().joined(separator: ", "))"
    )
  }

  /// docs/api.md gives each public type its one-line reason, and lists nothing that is not
  /// public (nested types by their full name, `Connection.OpenMode`).
  @Test func everyPublicTypeIsListedInTheAPIPage() throws {
    let declared = Set(try PublicTypes.declared())
    let listed = try PublicTypes.listed()
    #expect(declared.subtracting(listed).sorted() == [], "public but not in docs/api.md")
    #expect(listed.subtracting(declared).sorted() == [], "in docs/api.md but not public")
  }

  /// `@_spi` is gone: what the CLI needs is `package`, which SwiftPM keeps inside this package.
  @Test func noSPIInSources() throws {
    var offenders: [String] = []
    for (path, text) in try PublicTypes.swiftFiles(under: "Sources") {
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where line.contains("@_spi") {
        offenders.append("\(path):\(number + 1)")
      }
    }
    #expect(offenders == [])
  }

  /// The reader finds nested types by their full name and skips those inside a type that is
  /// not public.
  @Test func readerNamesNestedTypes() {
    let text = """
      public struct Outer {
        public enum Inner: Sendable {
          case a
        }
        package struct Hidden {
          public struct Deep {}
        }
      }
      package enum Other {
        public enum Shown {}
      }
      extension Outer {
        public struct Added {}
      }
      @usableFromInline
      public final class Last {}
      """
    #expect(
      PublicTypes.declared(in: text) == ["Outer", "Outer.Inner", "Outer.Added", "Last"]
    )
  }
}

/// Public type declarations read from source text.
enum PublicTypes {
  /// The repository's root, from this file's path.
  static var root: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Every `.swift` file under `folder` (relative to the root), with its text.
  static func swiftFiles(under folder: String) throws -> [(String, String)] {
    let base = root.appendingPathComponent(folder)
    let enumerator = try #require(FileManager.default.enumerator(atPath: base.path))
    var files: [(String, String)] = []
    for case let file as String in enumerator where file.hasSuffix(".swift") {
      let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
      files.append(("\(folder)/\(file)", text))
    }
    #expect(!files.isEmpty)
    return files
  }

  /// The public types of `Strata`, nested ones by their full name (`Connection.OpenMode`).
  static func declared() throws -> [String] {
    publicNames(try swiftFiles(under: "Sources/Strata").flatMap { declarations(in: $0.1) })
  }

  /// The public types `text` declares, as `declared()` reads them.
  static func declared(in text: String) -> [String] {
    publicNames(declarations(in: text))
  }

  /// A type declaration: its full name, whether it says `public` itself, and the type it is
  /// nested in (declared around it, or named by the extension around it).
  struct Declaration {
    var name: String
    var saysPublic: Bool
    var parent: String?
  }

  /// The type declarations of `text`. Nesting is read from the indentation (swift-format's):
  /// a type declaration or an `extension X {` opens a level.
  static func declarations(in text: String) -> [Declaration] {
    let declaration =
      /^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*(?:(public|package|private|fileprivate|internal)(?:\([a-z]+\))?\s+)?(?:final\s+)?(?:indirect\s+)?(struct|class|enum|protocol|actor|typealias|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)/
    let notTypes: Set<String> = ["func", "var", "let", "init", "subscript"]
    var open: [(indent: Int, name: String)] = []
    var found: [Declaration] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard let match = line.firstMatch(of: declaration), !notTypes.contains(String(match.4))
      else { continue }
      let indent = match.1.count
      while let last = open.last, last.indent >= indent { open.removeLast() }
      let parent = open.last?.name
      let name = parent.map { "\($0).\(match.4)" } ?? String(match.4)
      open.append((indent, match.3 == "extension" ? String(match.4) : name))
      if match.3 != "extension" {
        found.append(Declaration(name: name, saysPublic: match.2 == "public", parent: parent))
      }
    }
    return found
  }

  /// The declarations that are public: those that say so, nested in a public type or none.
  static func publicNames(_ declarations: [Declaration]) -> [String] {
    var names: Set<String> = []
    var added = true
    while added {
      added = false
      for item in declarations where item.saysPublic && !names.contains(item.name) {
        if item.parent.map(names.contains) ?? true {
          names.insert(item.name)
          added = true
        }
      }
    }
    return declarations.map(\.name).filter(names.contains)
  }

  /// The types docs/api.md lists for `Strata` (its tables' first column, up to the
  /// StrataTesting section).
  static func listed() throws -> Set<String> {
    let page = try String(
      contentsOf: root.appendingPathComponent("docs/api.md"),
      encoding: .utf8
    )
    var names: Set<String> = []
    for line in page.split(separator: "\n") {
      if line.hasPrefix("## StrataTesting") { break }
      if let match = line.firstMatch(of: /^\| `([A-Za-z0-9_.]+)` \|/) {
        names.insert(String(match.1))
      }
    }
    return names
  }
}
