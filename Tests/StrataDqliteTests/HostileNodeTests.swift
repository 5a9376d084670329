import Foundation
import StrataDqlite
import StrataTestSupport
import Testing

/// Nodes that are down, silent, or not dqlite at all: each gives its own typed error within
/// the configured time, never a hang or a crash. No cluster needed.
@Suite struct HostileNodeTests {
  static func configuration(timeout: Double = 1) -> DqliteConfiguration {
    var configuration = DqliteConfiguration()
    configuration.connectTimeout = timeout
    configuration.requestTimeout = timeout
    configuration.leaderTimeout = timeout
    return configuration
  }

  @Test func aSilentNodeTimesOutWithinTheConfiguredTime() throws {
    let server = try HostileServer(.silent)
    let started = Date()
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    #expect(
      throws: DqliteError.timedOut(
        node: server.address,
        waitingFor: "the answer to LEADER",
        seconds: 1
      )
    ) {
      _ = try connection.leader()
    }
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed >= 0.9 && elapsed < 3, "timed out after \(elapsed) s")
    #expect(!connection.isUsable)
  }

  @Test func discoveryOverASilentNodeSaysWhatEachNodeAnswered() throws {
    let server = try HostileServer(.silent)
    let started = Date()
    do {
      _ = try LeaderDiscovery.connect(to: [server.address], configuration: Self.configuration())
      Issue.record("a silent node was taken for the leader")
    } catch {
      #expect(error.message.hasPrefix("No dqlite node is the leader or knows one: "))
      #expect(
        error.message.contains(
          "\(server.address): Timed out after 1.0 s waiting for the answer to LEADER"
        )
      )
    }
    #expect(Date().timeIntervalSince(started) < 5)
  }

  @Test func anHTTPServerIsRefusedAsTooLargeWithoutReadingIt() throws {
    let server = try HostileServer(.answer(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)))
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    // "HTTP" as a little-endian word count: 0x50545448 words, 10.8 GB.
    #expect(
      throws: DqliteError.tooLarge(
        node: server.address,
        bytes: 0x5054_5448 * 8,
        limit: 1 << 30
      )
    ) {
      _ = try connection.leader()
    }
  }

  @Test func garbageOfAPlausibleSizeIsMalformed() throws {
    let server = try HostileServer(
      .answer([1, 0, 0, 0, 99, 0, 0, 0] + [UInt8](repeating: 7, count: 8))
    )
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    do {
      _ = try connection.leader()
      Issue.record("garbage was read as an answer")
    } catch {
      #expect(
        error
          == .malformed(
            node: server.address,
            detail: "a message of the unknown type 99 (8 bytes announced)"
          )
      )
      #expect(
        error.message == "dqlite node \(server.address) answered something that is not "
          + "dqlite's protocol: a message of the unknown type 99 (8 bytes announced)."
      )
    }
  }

  @Test func batchesWithoutRowsWithoutEndAreRefusedNotFollowedForever() throws {
    // ROWS: one column named "a", no row, the marker "more rows follow"; sent 1,100 times.
    var batch: [UInt8] = [3, 0, 0, 0, 7, 0, 0, 0]
    batch += [1, 0, 0, 0, 0, 0, 0, 0]
    batch += [UInt8(ascii: "a"), 0, 0, 0, 0, 0, 0, 0]
    batch += Array(repeating: 0xEE, count: 8)
    let server = try HostileServer(
      .answer(Array([[UInt8]](repeating: batch, count: 1_100).joined()))
    )
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration(timeout: 5)
    )
    let started = Date()
    #expect(throws: DqliteError.self) {
      _ = try connection.queryAll(database: 0, "SELECT a FROM t", [])
    }
    do {
      _ = try NodeConnection(NodeAddress(server.address), configuration: Self.configuration())
        .queryAll(database: 0, "SELECT a FROM t", [])
    } catch {
      #expect("\(error)".contains("batches of rows in a row without a row"), "\(error)")
    }
    #expect(Date().timeIntervalSince(started) < 4)
  }

  @Test func aWrongResponseTypeIsMalformed() throws {
    // A RESULT where a SERVER was asked for.
    let server = try HostileServer(.answer(responseBytes(type: 6, body: word(1) + word(2))))
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    #expect(
      throws: DqliteError.malformed(
        node: server.address,
        detail: "expected a response of type 1 (server), got type 6"
      )
    ) {
      _ = try connection.leader()
    }
  }

  @Test func aNodeClosingMidMessageIsReportedSo() throws {
    // A header announcing 64 bytes, then 10 of them, then the connection closed.
    let cut = [8, 0, 0, 0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 10)
    let server = try HostileServer(.answerThenClose(cut))
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    do {
      _ = try connection.leader()
      Issue.record("a cut message was read")
    } catch {
      #expect(
        error
          == .closed(
            node: server.address,
            waitingFor: "the answer to LEADER",
            midMessage: true
          )
      )
      #expect(error.message.contains("closed the connection in the middle of its answer to"))
      #expect(error.isLeaderGone)
    }
  }

  @Test func aNodeClosingBeforeAnsweringIsReportedSo() throws {
    let server = try HostileServer(.answerThenClose([]))
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    #expect(
      throws: DqliteError.closed(
        node: server.address,
        waitingFor: "the answer to LEADER",
        midMessage: false
      )
    ) {
      _ = try connection.leader()
    }
  }

  @Test func aPortWithNothingListeningIsUnreachable() throws {
    let port = try freePorts(1)[0]
    do {
      _ = try NodeConnection(
        NodeAddress("127.0.0.1:\(port)"),
        configuration: Self.configuration()
      )
      Issue.record("connected to nothing")
    } catch {
      #expect(error == .unreachable(node: "127.0.0.1:\(port)", reason: "Connection refused"))
    }
  }

  @Test func aFailureAnswerBecomesDqlitesCodeAndMessage() throws {
    let body = word(1) + wireText("no such thing")
    let server = try HostileServer(.answer(responseBytes(type: 0, body: body)))
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    #expect(
      throws: DqliteError.failure(
        code: 1,
        message: "no such thing",
        sql: nil,
        node: server.address
      )
    ) {
      _ = try connection.leader()
    }
  }

  @Test func aUnixSocketNodeIsReached() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path("node.sock").path
    let leader = responseBytes(type: 1, body: word(7) + wireText(path))
    let server = try HostileServer(.answer(leader), unixPath: path)
    let connection = try NodeConnection(NodeAddress(path), configuration: Self.configuration())
    #expect(try connection.leader() == path)
    _ = server
  }

  #if os(Linux)
  @Test func anAbstractUnixSocketNodeIsReached() throws {
    let name = "@strata-dqlite-\(UUID().uuidString)"
    let leader = responseBytes(type: 1, body: word(3) + wireText(name))
    let server = try HostileServer(.answer(leader), unixPath: name)
    let connection = try NodeConnection(NodeAddress(name), configuration: Self.configuration())
    #expect(try connection.leader() == name)
    _ = server
  }
  #endif

  @Test(arguments: ["", "host", "host:", "host:0", "host:70000", ":80", "[::1]"])
  func aBadAddressIsRefused(_ address: String) {
    #expect(throws: DqliteError.badAddress(address)) { _ = try NodeAddress(address) }
  }

  @Test func addressesParseAsDqliteWritesThem() throws {
    #expect(try NodeAddress("127.0.0.1:9001") == .tcp(host: "127.0.0.1", port: 9001))
    #expect(try NodeAddress("[::1]:9001") == .tcp(host: "::1", port: 9001))
    #expect(try NodeAddress("[::1]:9001").description == "[::1]:9001")
    #expect(try NodeAddress("@dqlite") == .unix(path: "@dqlite"))
  }

  @Test func textWithANulByteIsRefusedBeforeSending() {
    #expect(
      throws: DqliteError.cannotEncode(
        detail: "text holds a NUL byte, which dqlite's protocol cannot carry"
      )
    ) {
      _ = try WireRequest.sql(.execSQL, database: 0, sql: "SELECT ?", parameters: [.text("a\0b")])
    }
  }

  @Test func aNodeThatClosesWhileBatchesAreSentAheadGivesClosedNotAHang() throws {
    // One RESULT (a batch of two rows), then the node is gone: the answers owed to the other
    // batches sent ahead never come.
    let server = try HostileServer(
      .answerThenClose(responseBytes(type: 6, body: word(0) + word(2)))
    )
    let connection = try NodeConnection(
      NodeAddress(server.address),
      configuration: Self.configuration()
    )
    let started = Date()
    do {
      for _ in 0..<3 {
        try connection.execLater(database: 0, statement: 1, sql: "INSERT …", [.integer(1)])
      }
      _ = try connection.answersToLater()
      Issue.record("the answers of a node that closed were taken as read")
    } catch {
      guard case .closed = error else {
        Issue.record("\(error)")
        return
      }
    }
    #expect(!connection.isUsable)
    #expect(Date().timeIntervalSince(started) < 3)
  }
}
