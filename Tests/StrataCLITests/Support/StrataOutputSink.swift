import Foundation

/// Runs the real `strata` with standard output going somewhere that fails: /dev/full, a pipe
/// whose reader has already left, or a closed descriptor.
enum StrataOutputSink {
  enum Destination {
    /// Every write fails with ENOSPC.
    case full
    /// A pipe with no reader: EPIPE, or SIGPIPE where its default action applies.
    case closedPipe
  }

  struct Result {
    let exitCode: Int32
    /// Set when strata died by a signal (its number then is `exitCode`).
    let killedBySignal: Bool
    let standardError: String
  }

  /// - Parameter ignoringSIGPIPE: start strata with SIGPIPE ignored, as many CI runners do;
  ///   otherwise with its default action, as a shell does. `env` sets it either way, so the
  ///   test runner's own disposition does not matter.
  static func run(
    _ arguments: [String],
    in directory: URL,
    to destination: Destination,
    ignoringSIGPIPE: Bool
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [ignoringSIGPIPE ? "--ignore-signal=PIPE" : "--default-signal=PIPE"]
      + [StrataProcess.executable.path] + arguments
    process.currentDirectoryURL = directory
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "NO_COLOR": "1"]
    let reader = Pipe()
    switch destination {
    case .full:
      guard let handle = FileHandle(forWritingAtPath: "/dev/full") else {
        throw CocoaError(.fileNoSuchFile)
      }
      process.standardOutput = handle
    case .closedPipe:
      try reader.fileHandleForReading.close()
      process.standardOutput = reader.fileHandleForWriting
    }
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if destination == .closedPipe { try reader.fileHandleForWriting.close() }
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      exitCode: process.terminationStatus,
      killedBySignal: process.terminationReason == .uncaughtSignal,
      standardError: String(decoding: data, as: UTF8.self)
    )
  }
}
