import Strata
import StrataArguments

/// A one-line progress bar on standard error, redrawn in place; only for files large enough
/// to take a while, and only when standard error is a terminal.
final class SeedProgressBar {
  private let context: CommandContext
  private var drawn = false
  private var lastPercent = -1
  /// Smaller files finish too fast for a bar to help.
  private static let minimumBytes: Int64 = 1 << 20

  init(_ context: CommandContext) {
    self.context = context
  }

  func update(_ progress: SeedProgress) {
    guard let total = progress.totalBytes, total >= Self.minimumBytes else { return }
    if progress.isFinished {
      clear()
      return
    }
    let percent = Int(min(100, progress.bytesRead * 100 / max(1, total)))
    guard percent != lastPercent else { return }
    lastPercent = percent
    let width = 30
    let filled = percent * width / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let counter = progress.fileCount > 1 ? " (\(progress.fileNumber)/\(progress.fileCount))" : ""
    context.standardError(
      "\r\u{1B}[2KSeeding \(escapingControls(progress.table))\(counter) [\(bar)] \(percent)%  "
        + "\(progress.rowsRead) rows"
    )
    drawn = true
  }

  func clear() {
    guard drawn else { return }
    context.standardError("\r\u{1B}[2K")
    drawn = false
    lastPercent = -1
  }
}
