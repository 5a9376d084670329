import Foundation
import Testing

@testable import StrataFuzzChecks

/// Every seed input of `Fuzz/Corpus` and every input a fuzzer once broke a property with
/// (`Fuzz/Regressions`), through the checks of its target: what the fuzzer found stays fixed.
@Suite struct CorpusReplayTests {
  static let fuzzFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz")

  static func inputs(_ kind: String, _ target: FuzzTarget) -> [URL] {
    let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test(arguments: FuzzTarget.allCases)
  func seedCorpusPasses(_ target: FuzzTarget) throws {
    let files = Self.inputs("Corpus", target)
    #expect(files.count >= 5, "a seed corpus of at least five inputs for \(target.rawValue)")
    for file in files {
      #expect(throws: Never.self, "\(file.lastPathComponent)") {
        try target.check(Array(try Data(contentsOf: file)))
      }
    }
  }

  @Test(arguments: FuzzTarget.allCases)
  func regressionsPass(_ target: FuzzTarget) throws {
    let files = Self.inputs("Regressions", target)
    #expect(!files.isEmpty, "Fuzz/Regressions/\(target.rawValue) holds what fuzzing found")
    for file in files {
      #expect(throws: Never.self, "\(file.lastPathComponent)") {
        try target.check(Array(try Data(contentsOf: file)))
      }
    }
  }
}
