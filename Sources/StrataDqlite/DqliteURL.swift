/// A database of a dqlite cluster as strata names it: `dqlite://HOST:PORT[,HOST:PORT…]/NAME`.
/// Any listed node will do: the leader is found from them (`LeaderDiscovery`).
package struct DqliteURL: Hashable, Sendable, CustomStringConvertible {
  /// The scheme, as `--database` and `STRATA_DATABASE` are told apart from a file's path.
  package static let scheme = "dqlite://"

  /// Each node's address, `HOST:PORT` or `[IPv6]:PORT`, as listed.
  package let nodes: [String]
  /// The database's name in the cluster.
  package let name: String

  /// True when `text` is meant as a cluster's address (and not a file's path).
  package static func names(_ text: String) -> Bool {
    text.lowercased().hasPrefix(scheme)
  }

  /// Reads `dqlite://HOST:PORT[,HOST:PORT…]/NAME`.
  ///
  /// - Throws: `DqliteError.badURL` saying what is missing or wrong.
  package init(_ text: String) throws(DqliteError) {
    guard Self.names(text) else {
      throw .badURL(text, reason: "it does not start with \(Self.scheme)")
    }
    let rest = text.dropFirst(Self.scheme.count)
    guard let slash = rest.firstIndex(of: "/") else {
      throw .badURL(text, reason: "no database name follows the nodes (…/NAME)")
    }
    guard slash != rest.startIndex else { throw .badURL(text, reason: "no node is listed") }
    let name = String(rest[rest.index(after: slash)...])
    guard !name.isEmpty else { throw .badURL(text, reason: "the database name is empty") }
    guard !name.contains("/"), !name.contains("?"), !name.contains("#") else {
      throw .badURL(text, reason: "the database name '\(name)' holds '/', '?' or '#'")
    }
    let listed = rest[..<slash].split(separator: ",", omittingEmptySubsequences: false)
    var nodes: [String] = []
    for node in listed.map(String.init) {
      guard !node.isEmpty else { throw .badURL(text, reason: "an empty node in the list") }
      guard !node.hasPrefix("/"), !node.hasPrefix("@") else {
        throw .badURL(text, reason: "'\(node)' is a Unix socket, which the address cannot list")
      }
      do {
        _ = try NodeAddress(node)
      } catch {
        throw .badURL(text, reason: "'\(node)' is not HOST:PORT or [IPv6]:PORT")
      }
      nodes.append(node)
    }
    self.nodes = nodes
    self.name = name
  }

  package var description: String {
    Self.scheme + nodes.joined(separator: ",") + "/" + name
  }
}
