import Foundation

/// `--format json`: stable keys, sorted, pretty-printed.
enum JSONOutput {
  static func render<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

/// `--format`.
enum OutputFormat: String {
  case text
  case json
}
