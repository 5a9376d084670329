import Dispatch

extension Array where Element: Sendable {
  /// `transform` of every element, spread over the cores, in the elements' order. Each
  /// element's error is kept in its place, so a caller can report the first one in order
  /// exactly as a sequential loop would.
  func concurrentMap<Mapped: Sendable>(
    _ transform: @Sendable (Element) throws -> Mapped
  ) -> [Result<Mapped, any Error>] {
    guard count > 1 else { return map { element in Result { try transform(element) } } }
    var results = [Result<Mapped, any Error>?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { buffer in
      // Each iteration writes only its own slot, so the writes never overlap.
      nonisolated(unsafe) let slots = buffer
      let elements = self
      DispatchQueue.concurrentPerform(iterations: elements.count) { index in
        slots[index] = Result { try transform(elements[index]) }
      }
    }
    return results.map { $0 ?? .failure(CancellationError()) }
  }
}
