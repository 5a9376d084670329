#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the cluster's leader from any listed node: asks each in turn (LEADER), follows the
/// address it names, and keeps asking while the cluster elects one, until
/// `DqliteConfiguration.leaderTimeout`. A node that is down or answers garbage is skipped.
package enum LeaderDiscovery {
  /// A connection to the leader, registered (CLIENT).
  ///
  /// - Throws: `DqliteError.noLeader` saying what each node answered, when none leads within
  ///   the time; `.badAddress` for an address that does not parse.
  package static func connect(
    to nodes: [String],
    configuration: DqliteConfiguration
  ) throws(DqliteError) -> NodeConnection {
    var addresses: [NodeAddress] = []
    for node in nodes { addresses.append(try NodeAddress(node)) }
    guard !addresses.isEmpty else { throw .noLeader(attempts: ["no node was listed"]) }
    let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.leaderTimeout * 1000))
    while true {
      var attempts: [String] = []
      for address in addresses {
        switch attempt(address, configuration: configuration) {
        case .leader(let connection): return connection
        case .failed(let reason): attempts.append("\(address): \(reason)")
        }
      }
      if ContinuousClock.now >= deadline { throw .noLeader(attempts: attempts) }
      usleep(100_000)
    }
  }

  private enum Attempt {
    case leader(NodeConnection)
    case failed(String)
  }

  /// Asks one node; follows the leader it names once.
  private static func attempt(
    _ address: NodeAddress,
    configuration: DqliteConfiguration
  )
    -> Attempt
  {
    // A live node answers LEADER and CLIENT at once; a silent one is passed over after the
    // connect timeout, not a whole request's.
    let quick = min(configuration.connectTimeout, configuration.requestTimeout)
    do {
      let connection = try NodeConnection(address, configuration: configuration)
      connection.answerTimeout = quick
      let leader = try connection.leader()
      if leader.isEmpty {
        connection.close()
        return .failed("knows no leader")
      }
      if leader == address.description {
        try connection.register()
        connection.answerTimeout = configuration.requestTimeout
        return .leader(connection)
      }
      connection.close()
      let leaderAddress = try NodeAddress(leader)
      let redirected = try NodeConnection(leaderAddress, configuration: configuration)
      redirected.answerTimeout = quick
      guard try redirected.leader() == leader else {
        redirected.close()
        return .failed("names \(leader) as the leader, which does not lead")
      }
      try redirected.register()
      redirected.answerTimeout = configuration.requestTimeout
      return .leader(redirected)
    } catch {
      return .failed(error.message)
    }
  }
}
