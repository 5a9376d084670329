import Strata
import StrataArguments

/// `--format json`: the library's JSON configuration (`JSONSchemaRenderer`: stable keys,
/// sorted, pretty-printed), with what a terminal acts on escaped.
enum JSONOutput {
  static func render<Value: Encodable>(_ value: Value) throws -> String {
    escapingHiddenControls(try JSONSchemaRenderer.render(value))
  }

  /// `json` with every hidden control (`isHiddenControl`) that is still raw written as a
  /// `\uXXXX` escape. Outside strings JSON holds only ASCII punctuation, digits, letters and
  /// white space, so a raw control can only be inside a string, where the escape means the same
  /// character: the JSON is unchanged for a parser, and safe for a terminal. The white space
  /// between tokens (newline, tab, carriage return) is kept.
  static func escapingHiddenControls(_ json: String) -> String {
    guard
      json.unicodeScalars.contains(where: {
        isHiddenControl($0) && $0 != "\n" && $0 != "\t" && $0 != "\r"
      })
    else { return json }
    var safe = ""
    safe.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
    for scalar in json.unicodeScalars {
      if isHiddenControl(scalar), scalar != "\n", scalar != "\t", scalar != "\r" {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        safe += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        safe.unicodeScalars.append(scalar)
      }
    }
    return safe
  }
}
