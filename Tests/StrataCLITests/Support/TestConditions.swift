import Foundation
import Testing

/// Whether this run's `strata` is built with a sanitizer: `.ci/sanitize` sets STRATA_SANITIZER
/// to the sanitizer's name. What is checked of strata's own build (its peak memory, the
/// system calls strace sees) does not hold under a sanitizer's runtime.
enum Sanitizer {
  static let isActive = ProcessInfo.processInfo.environment["STRATA_SANITIZER"] != nil
}

extension Trait where Self == ConditionTrait {
  /// Runs the test on strata's own build only, not under a sanitizer (`.ci/sanitize`).
  static var notUnderSanitizer: Self {
    .enabled(if: !Sanitizer.isActive, "strata is built with a sanitizer (STRATA_SANITIZER)")
  }

  /// Runs the test only where `/usr/bin/strace` is installed.
  static var straceInstalled: Self {
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: SystemCallTrace.strace),
      "no \(SystemCallTrace.strace)"
    )
  }
}
