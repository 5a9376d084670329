import Strata

/// What went wrong talking to a dqlite node: the node's own failure (its code and message), or
/// the connection (refused, timed out, closed, or answering what is not dqlite's protocol).
///
/// Every case names the node; `message` says what failed and what state the database may be
/// in, `help` what to do.
public enum DqliteError: Error, Equatable, Sendable {
  /// The node answered FAILURE: dqlite's code (an SQLite extended result code, or dqlite's own
  /// such as 10250, not the leader) and its message, for the statement sent if there was one.
  case failure(code: UInt64, message: String, sql: String?, node: String)
  /// The node could not be reached: `reason` is the system's words (connection refused, no
  /// such host).
  case unreachable(node: String, reason: String)
  /// The node did not answer within `seconds` while strata waited for `waitingFor`.
  case timedOut(node: String, waitingFor: String, seconds: Double)
  /// The node closed the connection (or it broke) while strata waited for `waitingFor`;
  /// `midMessage` when part of an answer had arrived.
  case closed(node: String, waitingFor: String, midMessage: Bool)
  /// The node answered bytes that are not dqlite's protocol: `detail` says what was wrong.
  case malformed(node: String, detail: String)
  /// The node announced a message larger than the configured limit.
  case tooLarge(node: String, bytes: UInt64, limit: Int)
  /// A value or request strata cannot send (too many parameters, text with a NUL byte).
  case cannotEncode(detail: String)
  /// No listed node is the leader or knows one: `attempts` says what each node answered.
  case noLeader(attempts: [String])
  /// The address is not `HOST:PORT`, `[IPv6]:PORT` or a Unix socket's path.
  case badAddress(String)
  /// A database's address is not `dqlite://HOST:PORT[,HOST:PORT…]/NAME`: `reason` says why.
  case badURL(String, reason: String)

  /// dqlite's code for "this node is not the leader" (SQLITE_IOERR | 40 << 8).
  package static let notLeaderCode: UInt64 = 10 | (40 << 8)
  /// dqlite's code for "leadership was lost while the request ran" (SQLITE_IOERR | 41 << 8).
  package static let leadershipLostCode: UInt64 = 10 | (41 << 8)

  /// True when another node may answer: the leader moved, was lost, or its connection broke.
  /// A new leader found with `DqliteLeader` can be asked again.
  package var isLeaderGone: Bool {
    switch self {
    case .failure(let code, _, _, _):
      code == Self.notLeaderCode || code == Self.leadershipLostCode
    case .unreachable, .closed, .timedOut: true
    default: false
    }
  }

  /// The failure as an `SQLiteError` (dqlite's codes are SQLite's), for code that reads
  /// SQLite's codes; nil for a connection error.
  package var sqliteError: SQLiteError? {
    guard case .failure(let code, let message, let sql, _) = self else { return nil }
    return SQLiteError(extendedCode: Int32(truncatingIfNeeded: code), message: message, sql: sql)
  }
}

extension DqliteError: StrataError {
  /// What failed, where, and the state the database may be in.
  public var message: String {
    switch self {
    case .failure(let code, let message, let sql, let node):
      var text = "dqlite node \(node) refused the request: \(message) (dqlite error \(code))"
      if let sql, !sql.isEmpty {
        let oneLine = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
        text += " - while executing `\(oneLine.prefix(200))`"
      }
      return text + "; that statement was not applied."
    case .unreachable(let node, let reason):
      return "Cannot connect to dqlite node \(node): \(reason)."
    case .timedOut(let node, let waitingFor, let seconds):
      return "Timed out after \(seconds) s waiting for \(waitingFor) from dqlite node \(node); "
        + "a statement in flight may or may not have been applied."
    case .closed(let node, let waitingFor, let midMessage):
      return "dqlite node \(node) closed the connection "
        + (midMessage ? "in the middle of its answer to" : "while strata waited for")
        + " \(waitingFor); a statement in flight may or may not have been applied."
    case .malformed(let node, let detail):
      return "dqlite node \(node) answered something that is not dqlite's protocol: \(detail)."
    case .tooLarge(let node, let bytes, let limit):
      return "dqlite node \(node) announced a message of \(bytes) bytes, more than the limit "
        + "of \(limit) bytes; nothing was read."
    case .cannotEncode(let detail):
      return "Cannot send the request to dqlite: \(detail); nothing was sent."
    case .noLeader(let attempts):
      // Each attempt may end with its own sentence's full stop.
      let said = attempts.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
      return "No dqlite node is the leader or knows one: " + said.joined(separator: "; ") + "."
    case .badAddress(let address):
      return "'\(address)' is not a dqlite node's address."
    case .badURL(let url, let reason):
      return "'\(url)' is not a dqlite database's address: \(reason)."
    }
  }

  /// One sentence on what to do next.
  public var help: String {
    switch self {
    case .failure:
      if isLeaderGone { return "The leader changed: connect again and retry." }
      return sqliteError?.help ?? "Fix the statement, then try again."
    case .unreachable, .closed:
      return "Check that the node is running and reachable, or list another node of the cluster."
    case .timedOut:
      return "Check the node's health and load, or raise the timeout; then check the database's "
        + "state before retrying."
    case .malformed, .tooLarge:
      return "Check that the address is a dqlite node's (its --db address), not another service."
    case .cannotEncode:
      return "Send fewer or smaller values."
    case .noLeader:
      return "Wait for the cluster to elect a leader (a majority of its nodes must be up), or "
        + "list a node that is up."
    case .badAddress:
      return "Give HOST:PORT, [IPv6]:PORT or the path of a Unix socket."
    case .badURL:
      return "Write it as dqlite://HOST:PORT[,HOST:PORT…]/NAME, such as "
        + "dqlite://10.0.0.1:9001,10.0.0.2:9001/app (any of the cluster's nodes will do)."
    }
  }

  /// The failure's `SQLiteError`, when the node refused a statement.
  public var underlyingError: (any Error)? { sqliteError }
}
