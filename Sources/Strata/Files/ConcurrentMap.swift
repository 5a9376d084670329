import Dispatch

extension Array where Element: Sendable {
  /// `transform` of every element, spread over the cores, in the elements' order. Each
  /// element's error is kept in its place, so a caller can report the first one in order
  /// exactly as a sequential loop would.
  func concurrentMap<Mapped: Sendable>(
    _ transform: @Sendable (Element) throws -> Mapped
  ) -> [Result<Mapped, any Error>] {
    guard count > 1 else { return map { element in Result { try transform(element) } } }
    // Each iteration initializes only its own slot, so the writes never overlap, and
    // `concurrentPerform` returns once every iteration has run, so every slot is initialized.
    // (An array of optional results, filled in and unwrapped after, cost a generic copy and
    // destroy of each result.)
    return [Result<Mapped, any Error>](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      nonisolated(unsafe) let slots = base
      let elements = self
      DispatchQueue.concurrentPerform(iterations: elements.count) { index in
        (slots + index).initialize(to: Result { try transform(elements[index]) })
      }
      initialized = elements.count
    }
  }
}
