import Foundation
import StrataDqlite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A dqlite cluster of `dqlite-demo` nodes on free loopback ports, in a temporary folder:
/// started, waited on until every node is a voter, and stopped (SIGTERM, then SIGKILL) when
/// released or when the test process exits, so that no node outlives the tests.
public final class DqliteCluster: @unchecked Sendable {
  /// `dqlite-demo` on the PATH, or nil (the cluster tests are then skipped, saying why).
  public static let demoExecutable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/dqlite-demo" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()
  public static var isAvailable: Bool { demoExecutable != nil }
  public static let skipReason = "dqlite-demo is not installed (apt-get install go-dqlite)"

  /// One three-node cluster for every suite that only needs a cluster (each test on its own
  /// database name), started at first use: clusters started at once slow each other's
  /// elections on a small machine.
  public static let shared: Result<DqliteCluster, any Error> = Result {
    try DqliteCluster.started(size: 3)
  }

  /// A cluster of `size` nodes, started again on new ports and in a new folder when a start
  /// fails: under a full test run, a port found free can be taken before a node binds it, and a
  /// busy machine can hold a node's promotion to voter past the timeout.
  ///
  /// - Throws: The last attempt's `ClusterError`.
  public static func started(size: Int, attempts: Int = 3) throws -> DqliteCluster {
    var failure: any Error = ClusterError("not started")
    for _ in 0..<attempts {
      do {
        return try DqliteCluster(size: size, timeout: 90)
      } catch {
        failure = error
      }
    }
    throw failure
  }

  public let folder: URL
  /// Each node's database address (`--db`), in start order.
  public let addresses: [String]
  private var processes: [Process?]

  /// Starts `size` nodes (the first bootstraps, the others join it) and waits until a leader
  /// answers and all of them are voters.
  public init(size: Int, timeout: Double = 60) throws {
    guard let executable = Self.demoExecutable else { throw ClusterError("no dqlite-demo") }
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-dqlite-\(UUID().uuidString)")
    let ports = try freePorts(2 * size)
    addresses = (0..<size).map { "127.0.0.1:\(ports[2 * $0])" }
    processes = []
    arguments = []
    self.executable = executable
    for index in 0..<size {
      let directory = folder.appendingPathComponent("node\(index + 1)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var arguments = [
        "--api", "127.0.0.1:\(ports[2 * index + 1])", "--db", addresses[index],
        "-D", directory.path,
      ]
      if index > 0 { arguments += ["--join", addresses[0]] }
      self.arguments.append(arguments)
      processes.append(try launch(node: index))
    }
    do {
      try waitUntilReady(voters: size, timeout: timeout)
    } catch {
      stop()
      throw error
    }
  }

  deinit { stop() }

  private let executable: String
  /// Each node's command line, to start it again as it was.
  private var arguments: [[String]]

  /// Starts node `index` with its command line, its output appended to its log.
  private func launch(node index: Int) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments[index]
    let log = folder.appendingPathComponent("node\(index + 1).log")
    if !FileManager.default.fileExists(atPath: log.path) {
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    }
    let handle = try FileHandle(forWritingTo: log)
    handle.seekToEndOfFile()
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    ChildProcesses.shared.add(process.processIdentifier, folder: folder)
    return process
  }

  /// Starts node `index` again, killed before, on its own data folder: it rejoins the
  /// cluster and catches up with what it missed.
  public func restart(node index: Int) throws {
    guard processes[index] == nil else { return }
    processes[index] = try launch(node: index)
  }

  /// Polls until a leader answers and lists `voters` voters.
  private func waitUntilReady(voters: Int, timeout: Double) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var last = "nothing yet"
    var configuration = DqliteConfiguration()
    configuration.leaderTimeout = 1
    configuration.requestTimeout = 2
    while Date() < deadline {
      if let exited = processes.firstIndex(where: { $0?.isRunning == false }) {
        let log = folder.appendingPathComponent("node\(exited + 1).log").path
        let said = (try? String(contentsOfFile: log, encoding: .utf8))?.suffix(300) ?? ""
        throw ClusterError("node \(exited + 1) exited before the cluster was ready: \(said)")
      }
      do {
        let connection = try LeaderDiscovery.connect(to: addresses, configuration: configuration)
        defer { connection.close() }
        let nodes = try connection.cluster()
        if nodes.filter(\.isVoter).count >= voters { return }
        last = "\(nodes.filter(\.isVoter).count) of \(voters) voters"
      } catch {
        last = "\(error)"
      }
      usleep(100_000)
    }
    throw ClusterError("the cluster was not ready within \(timeout) s: \(last)")
  }

  /// The index of the node at `address`.
  public func index(of address: String) -> Int? { addresses.firstIndex(of: address) }

  /// Kills node `index` at once (SIGKILL), as a crash or a power loss would.
  public func kill(node index: Int) {
    guard let process = processes[index] else { return }
    signalProcess(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    ChildProcesses.shared.remove(process.processIdentifier)
    processes[index] = nil
  }

  /// Stops every node: SIGTERM, then SIGKILL after two seconds; removes the folder.
  public func stop() {
    for process in processes.compactMap({ $0 }) where process.isRunning {
      process.terminate()
    }
    for (index, process) in processes.enumerated() {
      guard let process else { continue }
      let deadline = Date().addingTimeInterval(2)
      while process.isRunning && Date() < deadline { usleep(20_000) }
      if process.isRunning { signalProcess(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      ChildProcesses.shared.remove(process.processIdentifier)
      processes[index] = nil
    }
    try? FileManager.default.removeItem(at: folder)
    ChildProcesses.shared.removeFolder(folder)
  }
}

public struct ClusterError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Every node started and not yet stopped: killed when the test process exits, whatever
/// happened to the test that started it.
public final class ChildProcesses: @unchecked Sendable {
  public static let shared: ChildProcesses = {
    atexit { ChildProcesses.shared.killAll() }
    return ChildProcesses()
  }()
  private let lock = NSLock()
  private var identifiers: Set<Int32> = []
  private var folders: Set<URL> = []

  public func add(_ identifier: Int32, folder: URL) {
    lock.withLock {
      _ = identifiers.insert(identifier)
      _ = folders.insert(folder)
    }
  }
  public func remove(_ identifier: Int32) { lock.withLock { _ = identifiers.remove(identifier) } }
  public func removeFolder(_ folder: URL) { lock.withLock { _ = folders.remove(folder) } }
  func killAll() {
    lock.withLock {
      for identifier in identifiers {
        kill(identifier, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(identifier, &status, 0)
      }
      for folder in folders { try? FileManager.default.removeItem(at: folder) }
      identifiers = []
      folders = []
    }
  }
}

/// `count` TCP ports on 127.0.0.1 that were free a moment ago (bound to port 0, read, closed).
public func freePorts(_ count: Int) throws -> [Int] {
  var sockets: [Int32] = []
  defer { sockets.forEach { _ = close($0) } }
  var ports: [Int] = []
  for _ in 0..<count {
    let (descriptor, port) = try listeningSocket()
    sockets.append(descriptor)
    ports.append(port)
  }
  return ports
}

/// A TCP socket listening on 127.0.0.1 at a free port.
public func listeningSocket() throws -> (descriptor: Int32, port: Int) {
  #if canImport(Glibc)
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
  let descriptor = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  let size = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) }
  }
  guard bound == 0, listen(descriptor, 16) == 0 else { throw ClusterError("cannot listen") }
  var length = size
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
  }
  return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// kill(2), under a name the cluster's own `kill(node:)` does not hide.
public func signalProcess(_ identifier: Int32, _ signal: Int32) {
  _ = kill(identifier, signal)
}
