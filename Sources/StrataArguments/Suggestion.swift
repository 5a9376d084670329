/// The candidate within two edits of `name`, for "did you mean".
public func closestName(to name: String, in candidates: [String]) -> String? {
  candidates.map { ($0, editDistance(name, $0)) }
    .filter { $0.1 <= 2 }
    .min { $0.1 < $1.1 }?.0
}

/// Levenshtein distance, in characters.
private func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
    }
    previous = current
  }
  return previous[b.count]
}
