import Foundation
import Testing

/// The build plugin's tool, `StrataPluginTool`, as the plugin runs it: a process of the
/// executable built beside the test bundle.
enum PluginTool {
  static func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary: URL? = [products, products.deletingLastPathComponent()]
      .map { $0.appendingPathComponent("StrataPluginTool") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    guard let binary else {
      Issue.record("StrataPluginTool is not built beside \(products.path)")
      throw NotBuilt()
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  struct NotBuilt: Error {}
}
