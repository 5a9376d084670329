import Foundation
import Testing

/// A run of the real binary whose peak memory is measured, for the tests that bound it: under
/// `/usr/bin/time` when there is one (the command's own peak), else `wait4`'s figure, which
/// includes this test process's own peak.
struct PeakMemoryRun {
  let process: SpawnedProcess
  /// The figure is the command's own (from `/usr/bin/time`), not `wait4`'s.
  let isCommandsOwn: Bool

  /// Runs `strata arguments…` in `directory`.
  static func strata(
    _ arguments: [String],
    in directory: URL,
    timeout: Duration = .seconds(120)
  ) throws -> PeakMemoryRun {
    let executable = StrataProcess.executable.path
    if let measured = try SpawnedProcess.measuringPeakMemory(
      executable,
      arguments,
      in: directory,
      timeout: timeout
    ) {
      return PeakMemoryRun(process: measured, isCommandsOwn: true)
    }
    let run = try SpawnedProcess.run(executable, arguments, in: directory, timeout: timeout)
    return PeakMemoryRun(process: run, isCommandsOwn: false)
  }

  /// Expects the peak under `bound` bytes where the bound is strata's: not under a sanitizer
  /// (its shadow memory counts too), and with a figure that is the command's own or, from
  /// `wait4`, with this test process's own peak below the bound.
  func expectPeak(
    below bound: Int,
    _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard !Sanitizer.isActive, isCommandsOwn || Self.ownPeakMemoryBytes() < bound else { return }
    #expect(
      process.peakMemoryBytes < bound,
      "\(context)peak RSS \(process.peakMemoryBytes >> 20) MiB",
      sourceLocation: sourceLocation
    )
  }

  /// This test process's peak resident set size, in bytes.
  static func ownPeakMemoryBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
  }
}
