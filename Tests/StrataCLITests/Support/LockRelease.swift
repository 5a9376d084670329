import Foundation
import Strata
import Testing

extension StrataProcess {
  /// Runs `strata arguments…` while `holder` holds a lock on its database, checks that it is
  /// still waiting after 0.6 s, then commits the holder's transaction and returns the
  /// command's exit status.
  static func exitStatusAfterReleasing(
    _ holder: Connection,
    _ arguments: [String],
    in directory: URL,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Int32 {
    let process = try start(arguments, in: directory)
    usleep(600_000)
    #expect(process.isRunning, "did not wait for the lock", sourceLocation: sourceLocation)
    try holder.execute("COMMIT")
    process.waitUntilExit()
    return process.terminationStatus
  }
}
