/// Values a command leaves for the process's exit to reclaim.
///
/// Freeing a thousand migrations (their files' text, names and checksums) and their plan one
/// allocation at a time took 2.2 M instructions, about 0.7 ms, at the end of `status`
/// (BENCHMARKS.md); the process ends a moment later and gives the memory back at once. Only
/// for what the command holds until it returns anyway: nothing kept here is ever read again.
enum UntilExit {
  nonisolated(unsafe) private static var kept: [Any] = []

  /// Called on the command's own thread only.
  static func keep(_ value: Any) {
    kept.append(value)
  }
}
