/// Writes a `nil` optional as JSON `null` instead of leaving its key out, so every object of
/// the inspect and drift JSON always has the same keys (a reader can tell "none" from an older
/// layout). Decoding accepts a missing key as `nil`, as a plain optional does.
@propertyWrapper
package struct ExplicitNull<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
  /// The optional value.
  package var wrappedValue: Value?

  /// Wraps `wrappedValue`.
  package init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  /// Reads `null` as `nil`, anything else as a `Value`.
  ///
  /// - Throws: The decoder's `DecodingError` when the value is neither `null` nor a `Value`.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }

  /// Writes the value, or `null` for `nil`.
  ///
  /// - Throws: The encoder's `EncodingError`.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}

extension KeyedDecodingContainer {
  /// A missing key decodes as `nil`, as it does for a plain optional property.
  func decode<Value>(
    _ type: ExplicitNull<Value>.Type,
    forKey key: Key
  ) throws -> ExplicitNull<Value> {
    ExplicitNull(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
  }
}
