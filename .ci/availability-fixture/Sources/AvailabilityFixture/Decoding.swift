#if canImport(Darwin)
import Darwin
#endif

/// Decodes bytes as UTF-8, nil when they are not: `String(validating:as:)` came with macOS 15 /
/// iOS 18, above this package's floors (macOS 13, iOS 16): .ci/availability-check must name it.
public func decode(_ bytes: [UInt8]) -> String? {
  String(validating: bytes, as: UTF8.self)  // self-test: above the floor
}

/// The same call under `if #available`: allowed, and the check must not name it.
public func decodeWhenAvailable(_ bytes: [UInt8]) -> String? {
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    return String(validating: bytes, as: UTF8.self)
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// `ContinuousClock` and `Duration` came with macOS 13 / iOS 16: at the floor, allowed.
public func elapsed(_ work: () -> Void) -> Duration {
  ContinuousClock().measure(work)
}

/// Code that Linux never compiles: the check counts these lines as unseen.
public func pageSize() -> Int {
  #if canImport(Darwin)
  return Int(getpagesize())
  #else
  return 4096
  #endif
}
