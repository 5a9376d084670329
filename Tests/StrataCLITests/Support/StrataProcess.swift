import Foundation

/// The result of running the built `strata` binary.
struct ProcessResult {
  let exitCode: Int32
  let standardOutput: String
  let standardError: String
  /// The run took longer than its timeout and was killed: a hang, which a test must report
  /// as a failure rather than wait for forever.
  var timedOut = false
}

/// Runs the real `strata` executable, built next to the test bundle, in a folder.
enum StrataProcess {
  /// The built binary: `swift build` and `swift test` put it beside the test bundle. Worked
  /// out once (asking Foundation for its bundles each time leaks under AddressSanitizer).
  static let executable: URL = {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // Under some runners argv[0] is the binary inside the .xctest bundle.
    let candidates = [
      products.appendingPathComponent("strata"),
      products.deletingLastPathComponent().appendingPathComponent("strata"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[0]
  }()

  /// Where the runs of this test process keep `status`'s copies of folders.
  static let cacheFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("strata-tests-cache-\(getpid())").path

  /// Runs `strata arguments…` in `directory` with a clean environment (plus `environment`).
  ///
  /// - Parameter launcher: a command that runs strata, such as `setpriv --reuid=65534 …` to run
  ///   it as another user; the binary's path and `arguments` follow it.
  /// - Parameter timeout: seconds after which the process is killed (SIGKILL) and the result
  ///   says `timedOut`, so a hang fails the test instead of stopping the suite.
  @discardableResult
  static func run(
    _ arguments: [String],
    in directory: URL,
    environment: [String: String] = [:],
    launcher: [String] = [],
    timeout: Double = 120
  ) throws -> ProcessResult {
    let process = makeProcess(arguments, in: directory, environment: environment)
    if let command = launcher.first {
      process.executableURL = URL(fileURLWithPath: command)
      process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let killer = Killer(pid: process.processIdentifier)
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { killer.fire() }
    defer { killer.cancel() }
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    DispatchQueue.global().async(group: group) {
      outData = out.fileHandleForReading.readDataToEndOfFile()
    }
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    killer.cancel()
    return ProcessResult(
      exitCode: process.terminationStatus,
      standardOutput: String(decoding: outData, as: UTF8.self),
      standardError: String(decoding: errData, as: UTF8.self),
      timedOut: killer.fired
    )
  }

  /// Starts `strata` without waiting, for kill and concurrency tests.
  static func start(
    _ arguments: [String],
    in directory: URL,
    environment: [String: String] = [:]
  ) throws -> Process {
    let process = makeProcess(arguments, in: directory, environment: environment)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// The process for `strata arguments…` in `directory`, with a clean environment (plus
  /// `environment`).
  private static func makeProcess(
    _ arguments: [String],
    in directory: URL,
    environment: [String: String]
  ) -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    // `status` keeps its copy of a folder under XDG_CACHE_HOME: one folder for the whole run,
    // outside every project, so that a copy never shows among a project's files.
    var env = [
      "PATH": "/usr/bin:/bin", "HOME": directory.path, "NO_COLOR": "1",
      "XDG_CACHE_HOME": cacheFolder,
    ]
    env.merge(environment) { $1 }
    process.environment = env
    return process
  }
}

/// Kills a process once its time is up, unless cancelled first (it exited).
private final class Killer: @unchecked Sendable {
  private let lock = NSLock()
  private let pid: Int32
  private var done = false
  private(set) var fired = false

  init(pid: Int32) { self.pid = pid }

  func fire() {
    lock.withLock {
      guard !done else { return }
      done = true
      fired = true
      kill(pid, SIGKILL)
    }
  }

  func cancel() { lock.withLock { done = true } }
}
