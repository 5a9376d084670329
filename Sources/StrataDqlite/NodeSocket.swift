#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A dqlite node's address: `HOST:PORT`, `[IPv6]:PORT`, or a Unix socket (a path, or on Linux
/// `@name` for an abstract socket).
package enum NodeAddress: Hashable, Sendable, CustomStringConvertible {
  case tcp(host: String, port: UInt16)
  case unix(path: String)

  /// Parses an address as dqlite writes them.
  ///
  /// - Throws: `DqliteError.badAddress` for anything else.
  package init(_ text: String) throws(DqliteError) {
    if text.hasPrefix("/") || text.hasPrefix("@") {
      self = .unix(path: text)
      return
    }
    guard let colon = text.lastIndex(of: ":"),
      let port = UInt16(text[text.index(after: colon)...]), port > 0
    else { throw .badAddress(text) }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty else { throw .badAddress(text) }
    self = .tcp(host: host, port: port)
  }

  /// The address as dqlite writes it (what LEADER answers).
  package var description: String {
    switch self {
    case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    case .unix(let path): path
    }
  }
}

/// A connected stream socket with deadlines: every wait is a `poll` bounded by the time left,
/// so a silent node is a `timedOut` error, a closed one `closed`, never a hang. Writes never
/// raise SIGPIPE.
package final class NodeSocket {
  private var descriptor: Int32
  /// The node, as messages name it.
  package let node: String

  #if canImport(Glibc)
  private static let stream = Int32(SOCK_STREAM.rawValue)
  private static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
  private static let stream = SOCK_STREAM
  private static let sendFlags: Int32 = 0
  #endif

  /// Connects within `timeout` seconds.
  ///
  /// - Throws: `DqliteError.unreachable` or `.timedOut`.
  package init(connectingTo address: NodeAddress, timeout: Double) throws(DqliteError) {
    node = address.description
    descriptor = -1
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    switch address {
    case .unix(let path): try connectUnix(path, deadline: deadline, timeout: timeout)
    case .tcp(let host, let port):
      try connectTCP(host, port, deadline: deadline, timeout: timeout)
    }
  }

  deinit { close() }

  package func close() {
    if descriptor >= 0 { _ = systemClose(descriptor) }
    descriptor = -1
  }

  private func connectTCP(
    _ host: String,
    _ port: UInt16,
    deadline: ContinuousClock.Instant,
    timeout: Double
  ) throws(DqliteError) {
    var hints = addrinfo()
    hints.ai_socktype = Self.stream
    hints.ai_family = AF_UNSPEC
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw .unreachable(node: node, reason: String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(first) }
    var lastError: DqliteError = .unreachable(node: node, reason: "no address for \(host)")
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let info = entry {
      entry = info.pointee.ai_next
      do {
        try open(
          family: info.pointee.ai_family,
          address: info.pointee.ai_addr,
          length: info.pointee.ai_addrlen,
          deadline: deadline,
          timeout: timeout
        )
        var one: Int32 = 1
        _ = setsockopt(
          descriptor,
          Int32(IPPROTO_TCP),
          TCP_NODELAY,
          &one,
          socklen_t(MemoryLayout<Int32>.size)
        )
        return
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  private func connectUnix(
    _ path: String,
    deadline: ContinuousClock.Instant,
    timeout: Double
  )
    throws(DqliteError)
  {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var bytes = Array(path.utf8)
    // Linux's abstract namespace: a leading NUL, and the name's length without a final NUL.
    let isAbstract = bytes.first == UInt8(ascii: "@")
    if isAbstract { bytes[0] = 0 }
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      throw .unreachable(node: node, reason: "the socket's path is longer than \(capacity - 1)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (isAbstract ? 0 : 1))
    try withUnsafePointer(to: &address) { (pointer) throws(DqliteError) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw) throws(DqliteError) in
        try open(
          family: AF_UNIX,
          address: raw,
          length: length,
          deadline: deadline,
          timeout: timeout
        )
      }
    }
  }

  /// A non-blocking socket connected to `address`, waiting for the connection until `deadline`.
  private func open(
    family: Int32,
    address: UnsafePointer<sockaddr>?,
    length: socklen_t,
    deadline: ContinuousClock.Instant,
    timeout: Double
  ) throws(DqliteError) {
    close()
    let socketDescriptor = socket(family, Self.stream, 0)
    guard socketDescriptor >= 0 else { throw .unreachable(node: node, reason: Self.errorText()) }
    descriptor = socketDescriptor
    #if canImport(Darwin)
    var one: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    if connect(descriptor, address, length) == 0 { return }
    guard errno == EINPROGRESS || errno == EINTR else {
      let reason = Self.errorText()
      close()
      throw .unreachable(node: node, reason: reason)
    }
    guard try wait(for: Int16(POLLOUT), until: deadline) else {
      close()
      throw .timedOut(node: node, waitingFor: "the connection to be accepted", seconds: timeout)
    }
    var failure: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size)
    if failure != 0 {
      close()
      throw .unreachable(node: node, reason: String(cString: strerror(failure)))
    }
  }

  /// Sends every byte before `deadline`.
  ///
  /// - Throws: `DqliteError.closed` when the node went away, `.timedOut` when it stopped
  ///   reading.
  package func send(
    _ bytes: [UInt8],
    until deadline: ContinuousClock.Instant,
    waitingFor: String,
    timeout: Double
  ) throws(DqliteError) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { rest in
        guard let start = rest.baseAddress else { return 0 }
        return systemSend(descriptor, start, rest.count, Self.sendFlags)
      }
      if count > 0 {
        sent += count
        continue
      }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        guard try wait(for: Int16(POLLOUT), until: deadline) else {
          throw .timedOut(node: node, waitingFor: waitingFor, seconds: timeout)
        }
        continue
      }
      throw .closed(node: node, waitingFor: waitingFor, midMessage: false)
    }
  }

  /// Reads exactly `count` bytes before `deadline`, growing the buffer only as bytes arrive
  /// (a node announcing a huge message and sending nothing costs no memory).
  ///
  /// - Throws: `DqliteError.timedOut` or `.closed` (`midMessage` when `started` or some bytes
  ///   of this read had arrived).
  package func receive(
    _ count: Int,
    until deadline: ContinuousClock.Instant,
    waitingFor: String,
    timeout: Double,
    started: Bool
  ) throws(DqliteError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: min(count, 1 << 16))
    while bytes.count < count {
      let wanted = min(chunk.count, count - bytes.count)
      let read = chunk.withUnsafeMutableBytes { buffer in
        guard let start = buffer.baseAddress else { return 0 }
        return systemReceive(descriptor, start, wanted, 0)
      }
      if read > 0 {
        bytes.append(contentsOf: chunk[0..<read])
        continue
      }
      if read < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        guard try wait(for: Int16(POLLIN), until: deadline) else {
          throw .timedOut(node: node, waitingFor: waitingFor, seconds: timeout)
        }
        continue
      }
      throw .closed(node: node, waitingFor: waitingFor, midMessage: started || !bytes.isEmpty)
    }
    return bytes
  }

  /// Waits until the socket is ready for `events`; false when `deadline` passed first.
  private func wait(
    for events: Int16,
    until deadline: ContinuousClock.Instant
  )
    throws(DqliteError) -> Bool
  {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      if left <= .zero { return false }
      let milliseconds =
        left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
      var poller = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&poller, 1, Int32(clamping: max(1, milliseconds)))
      if ready > 0 { return true }  // readable, writable, or hung up: the next call says which
      if ready < 0 && errno != EINTR {
        throw .unreachable(node: node, reason: Self.errorText())
      }
    }
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}

// The C calls, under names that do not clash with this type's methods.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemSend(
  _ descriptor: Int32,
  _ buffer: UnsafeRawPointer,
  _ count: Int,
  _ flags: Int32
) -> Int { send(descriptor, buffer, count, flags) }
private func systemReceive(
  _ descriptor: Int32,
  _ buffer: UnsafeMutableRawPointer,
  _ count: Int,
  _ flags: Int32
) -> Int { recv(descriptor, buffer, count, flags) }
