/// Any JSON value: a generic walk over an `Encodable` value's JSON (`SchemaDisplay` escapes
/// every string of a schema this way). Read by `JSONTreeReader` and written by `JSONEncoder`,
/// not by `JSONSerialization` (whose bridging through `NSDictionary`) or by `JSONDecoder` into
/// this enum (which must try each type in turn, a thrown error per miss): either made `inspect`
/// of a schema with a thousand tables take seconds.
enum JSONTree: Encodable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The tree with every string replaced by `transform(string, key)`, where `key` is the name
  /// of the object member the string is (or is in an array of), nil at the top.
  func mappingStrings(key: String? = nil, _ transform: (String, String?) -> String) -> JSONTree {
    switch self {
    case .string(let text): .string(transform(text, key))
    case .array(let items): .array(items.map { $0.mappingStrings(key: key, transform) })
    case .object(let members):
      .object(
        members.reduce(into: [:]) { $0[$1.key] = $1.value.mappingStrings(key: $1.key, transform) }
      )
    case .null, .bool, .integer, .number: self
    }
  }
}
