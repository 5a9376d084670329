import Strata

/// `[120/1000] databases done, 1 failed` on standard error, redrawn in place as each database
/// of a fleet finishes; only when standard error is a terminal, and cleared before the summary.
/// The fleet calls it one database at a time, never twice at once.
final class FleetProgressLine: @unchecked Sendable {
  private let context: CommandContext
  private let total: Int
  private var done = 0
  private var failed = 0

  /// Nil when standard error is not a terminal (or NO_COLOR is set): nothing to redraw.
  static func make(_ context: CommandContext, total: Int) -> FleetProgressLine? {
    context.standardErrorIsTerminal ? FleetProgressLine(context, total: total) : nil
  }

  private init(_ context: CommandContext, total: Int) {
    self.context = context
    self.total = total
  }

  func update(_ result: FleetDatabaseResult) {
    done += 1
    if result.error != nil { failed += 1 }
    let failures = failed == 0 ? "" : ", \(failed) failed"
    context.standardError("\r\u{1B}[2K[\(done)/\(total)] databases done\(failures)")
  }

  func clear() {
    if done > 0 { context.standardError("\r\u{1B}[2K") }
  }
}
