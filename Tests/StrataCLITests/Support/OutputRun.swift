import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the real `strata` with its output somewhere other than a pipe: a pseudo-terminal, as a
/// person at a terminal runs it, or a file, as `strata … > file` saves it. Both give the bytes
/// exactly as strata wrote them.
enum OutputRun {
  /// What a run wrote and how it ended.
  struct Result {
    let exitCode: Int32
    /// Standard output's bytes (on a terminal, standard error's are in them too).
    let output: [UInt8]
    /// Standard error's text; empty for a terminal run, where it is in `output`.
    let standardError: String
  }

  /// `strata arguments…` with standard output and standard error on one pseudo-terminal in raw
  /// mode (no `\n` made `\r\n`), so that every byte read is one strata wrote.
  static func onTerminal(_ arguments: [String], in directory: URL) throws -> Result {
    let master = PseudoTerminal.openMaster(O_RDWR | O_NOCTTY)
    guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
      let name = PseudoTerminal.name(master)
    else { throw POSIXError(.ENOTTY) }
    defer { close(master) }
    let terminal = open(name, O_RDWR | O_NOCTTY)
    guard terminal >= 0 else { throw POSIXError(.ENOTTY) }
    var settings = termios()
    tcgetattr(terminal, &settings)
    cfmakeraw(&settings)
    tcsetattr(terminal, TCSANOW, &settings)
    let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
    let process = makeProcess(arguments, in: directory)
    process.standardOutput = handle
    process.standardError = handle
    do {
      try process.run()
    } catch {
      close(terminal)
      throw error
    }
    // Only the child holds the terminal now: a read gives EIO (Linux) or 0 once it has exited.
    close(terminal)
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 1000)
      if ready == 0 {
        if !process.isRunning { break }
        continue
      }
      let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      if count > 0 {
        output += buffer[0..<count]
      } else if count < 0, errno == EINTR {
        continue
      } else {
        break
      }
    }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return Result(exitCode: process.terminationStatus, output: output, standardError: "")
  }

  /// `strata arguments…` with standard output written to `file` (created or emptied), as a
  /// shell's `> file` does, and standard error to a pipe.
  static func toFile(_ arguments: [String], in directory: URL, file: URL) throws -> Result {
    guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown)
    }
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    let process = makeProcess(arguments, in: directory)
    let errors = Pipe()
    process.standardOutput = handle
    process.standardError = errors
    try process.run()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      exitCode: process.terminationStatus,
      output: Array(try Data(contentsOf: file)),
      standardError: String(decoding: errorData, as: UTF8.self)
    )
  }

  /// As `StrataProcess` runs strata: a clean environment, the tests' cache folder.
  private static func makeProcess(_ arguments: [String], in directory: URL) -> Process {
    let process = Process()
    process.executableURL = StrataProcess.executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = [
      "PATH": "/usr/bin:/bin", "HOME": directory.path, "NO_COLOR": "1",
      "XDG_CACHE_HOME": StrataProcess.cacheFolder,
    ]
    process.standardInput = FileHandle.nullDevice
    return process
  }
}

/// The C library's pseudo-terminal calls. Glibc's module leaves them out (they need
/// `_XOPEN_SOURCE`), so on Linux they are looked up in the C library by name.
private enum PseudoTerminal {
  #if canImport(Darwin)
  static func openMaster(_ flags: Int32) -> Int32 { posix_openpt(flags) }
  static func grant(_ master: Int32) -> Int32 { grantpt(master) }
  static func unlock(_ master: Int32) -> Int32 { unlockpt(master) }
  static func name(_ master: Int32) -> UnsafeMutablePointer<CChar>? { ptsname(master) }
  #else
  private static func function<T>(_ name: String, as type: T.Type) -> T {
    guard let symbol = dlsym(nil, name) else { fatalError("\(name) is not in the C library") }
    return unsafeBitCast(symbol, to: type)
  }
  static let openMaster = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
  static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
  static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
  static let name = function(
    "ptsname",
    as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self
  )
  #endif
}
