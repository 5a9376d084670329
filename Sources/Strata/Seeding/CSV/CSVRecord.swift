/// One field of a record, as the file has it.
package struct CSVField: Hashable, Sendable {
  /// The field's bytes: quotes removed, doubled quotes undoubled, line breaks inside quotes
  /// kept byte for byte. Always valid UTF-8.
  package let bytes: [UInt8]
  /// Whether the field was quoted: a quoted `""` is the empty string, an unquoted empty
  /// field is NULL.
  package let isQuoted: Bool

  /// A field with its bytes, and whether it was quoted (which tells NULL from the empty string).
  package init(bytes: [UInt8], isQuoted: Bool) {
    self.bytes = bytes
    self.isQuoted = isQuoted
  }

  /// The field as text.
  package var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// One record, with the physical line it starts on.
package struct CSVRecord: Hashable, Sendable {
  /// The physical line on which the record starts (1-based).
  package let line: Int
  /// The record's fields, in header order.
  package let fields: [CSVField]
}
