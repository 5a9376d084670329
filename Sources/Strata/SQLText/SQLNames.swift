/// SQLite's name comparison: case-insensitive for ASCII letters only.
func sameName(_ a: String, _ b: String) -> Bool {
  asciiLowercased(a) == asciiLowercased(b)
}

/// `text` with its ASCII letters lower-cased and nothing else changed: how SQLite folds the
/// case of names and keywords. The one case folding of the library.
func asciiLowercased(_ text: String) -> String {
  String(
    decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 },
    as: UTF8.self
  )
}

/// The order every list of names is sorted in: case-insensitively, then exactly.
func namesInOrder(_ a: String, _ b: String) -> Bool {
  let (la, lb) = (asciiLowercased(a), asciiLowercased(b))
  return la != lb ? la < lb : a < b
}
