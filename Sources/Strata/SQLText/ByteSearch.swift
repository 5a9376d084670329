/// Whether `needle`'s bytes occur in `haystack`: a plain scan for its first byte and a compare.
/// Generic `contains`/`firstRange(of:)` on strings and collections cost several per cent of
/// `strata status` on a thousand files; these checks run on every migration file.
func containsBytes<Haystack: Collection>(_ haystack: Haystack, _ needle: [UInt8]) -> Bool
where Haystack.Element == UInt8 {
  guard let first = needle.first else { return true }
  var start = haystack.startIndex
  while let found = haystack[start...].firstIndex(of: first) {
    if haystack[found...].starts(with: needle) { return true }
    start = haystack.index(after: found)
  }
  return false
}
