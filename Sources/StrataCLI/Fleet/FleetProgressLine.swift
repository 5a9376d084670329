import Strata

/// `[120/1000] databases done, 1 failed` on standard error, redrawn in place as each database
/// of a fleet finishes; only when standard error is a terminal, and cleared before the summary.
/// The fleet calls it one database at a time, never twice at once.
final class FleetProgressLine: @unchecked Sendable {
  private let context: CommandContext
  private var drawn = false

  /// Nil when standard error is not a terminal (or NO_COLOR is set): nothing to redraw.
  static func make(_ context: CommandContext) -> FleetProgressLine? {
    context.standardErrorIsTerminal ? FleetProgressLine(context) : nil
  }

  private init(_ context: CommandContext) {
    self.context = context
  }

  /// Redraws the line with the fleet's counts, which the fleet's own report carries.
  func update(_ progress: FleetProgress) {
    drawn = true
    let failures = progress.failed == 0 ? "" : ", \(progress.failed) failed"
    context.standardError(
      "\r\u{1B}[2K[\(progress.finished)/\(progress.total)] databases done\(failures)"
    )
  }

  func clear() {
    if drawn { context.standardError("\r\u{1B}[2K") }
  }
}
