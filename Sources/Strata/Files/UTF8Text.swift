/// `bytes` as a String when they are valid UTF-8, or nil.
///
/// `String(validating:as:)` does this but needs macOS 15 / iOS 18, above the floors
/// Package.swift declares (docs/apple-platforms.md).
func utf8Text(_ bytes: [UInt8]) -> String? {
  isUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
}

/// Whether `bytes` are valid UTF-8, without building a String.
func isUTF8(_ bytes: [UInt8]) -> Bool {
  // ASCII is UTF-8: most files are decided in one cheap pass.
  if bytes.allSatisfy({ $0 < 0x80 }) { return true }
  var iterator = bytes.makeIterator()
  var decoder = UTF8()
  while true {
    switch decoder.decode(&iterator) {
    case .scalarValue: continue
    case .emptyInput: return true
    case .error: return false
    }
  }
}
