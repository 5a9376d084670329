import Foundation
import StrataDqlite
import StrataTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny local server that is not a well-behaved dqlite node: on each connection it reads
/// the handshake and the first request, then does what `behaviour` says (say nothing, write
/// garbage, cut a message short). Listens on TCP, or on a Unix socket when given a path.
final class HostileServer: @unchecked Sendable {
  enum Behaviour: Sendable {
    /// Accepts and never answers.
    case silent
    /// Answers with these bytes, then keeps the connection open.
    case answer([UInt8])
    /// Answers with these bytes, then closes the connection.
    case answerThenClose([UInt8])
  }

  let address: String
  private let listener: Int32
  private let behaviour: Behaviour
  private let lock = NSLock()
  private var connections: [Int32] = []
  private var stopped = false
  private let done = DispatchSemaphore(value: 0)

  init(_ behaviour: Behaviour, unixPath: String? = nil) throws {
    self.behaviour = behaviour
    if let unixPath {
      listener = try unixListeningSocket(unixPath)
      address = unixPath
    } else {
      let (descriptor, port) = try listeningSocket()
      listener = descriptor
      address = "127.0.0.1:\(port)"
    }
    let thread = Thread { [self] in serve() }
    thread.start()
  }

  deinit { stop() }

  private func serve() {
    defer { done.signal() }
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 { return }
      let keep = lock.withLock { () -> Bool in
        if stopped { return false }
        connections.append(connection)
        return true
      }
      if !keep {
        _ = close(connection)
        return
      }
      // The handshake word and a request's header: enough to be asked something.
      var buffer = [UInt8](repeating: 0, count: 16)
      var got = 0
      while got < 16 {
        let read = buffer[got...].withUnsafeMutableBytes { rest in
          guard let start = rest.baseAddress else { return 0 }
          return recv(connection, start, rest.count, 0)
        }
        if read <= 0 { break }
        got += read
      }
      switch behaviour {
      case .silent: break
      case .answer(let bytes): write(bytes, to: connection)
      case .answerThenClose(let bytes):
        write(bytes, to: connection)
        lock.withLock { connections.removeAll { $0 == connection } }
        _ = close(connection)
      }
    }
  }

  private func write(_ bytes: [UInt8], to connection: Int32) {
    _ = bytes.withUnsafeBytes { all in
      guard let start = all.baseAddress else { return 0 }
      return send(connection, start, all.count, 0)
    }
  }

  func stop() {
    let open = lock.withLock { () -> [Int32] in
      if stopped { return [] }
      stopped = true
      defer { connections = [] }
      return connections
    }
    open.forEach { _ = close($0) }
    _ = shutdown(listener, Int32(SHUT_RDWR))
    _ = close(listener)
  }
}

/// A Unix socket listening at `path`.
func unixListeningSocket(_ path: String) throws -> Int32 {
  #if canImport(Glibc)
  let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  #else
  let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
  #endif
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  // `@name`: Linux's abstract namespace (a leading NUL, no final one).
  var bytes = Array(path.utf8)
  let isAbstract = bytes.first == UInt8(ascii: "@")
  if isAbstract { bytes[0] = 0 }
  withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
  let size = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (isAbstract ? 0 : 1))
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) }
  }
  guard bound == 0, listen(descriptor, 16) == 0 else { throw ClusterError("cannot listen") }
  return descriptor
}

/// One response message: the header (words, type, schema) and the body, padded.
func responseBytes(type: UInt8, body: [UInt8]) -> [UInt8] {
  var padded = body
  while padded.count % 8 != 0 { padded.append(0) }
  let words = UInt32(padded.count / 8)
  return withUnsafeBytes(of: words.littleEndian) { Array($0) } + [type, 0, 0, 0] + padded
}

/// A little-endian u64's bytes.
func word(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

/// Text as the protocol writes it: UTF-8, a NUL, padding to 8.
func wireText(_ text: String) -> [UInt8] {
  var bytes = Array(text.utf8) + [0]
  while bytes.count % 8 != 0 { bytes.append(0) }
  return bytes
}
