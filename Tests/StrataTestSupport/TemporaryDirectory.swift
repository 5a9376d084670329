import Foundation

/// A fresh folder for one test, removed when the test releases it. Shared by both test
/// targets.
public final class TemporaryDirectory {
  public let url: URL

  public init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// A path inside the folder (not created).
  public func path(_ relative: String) -> URL {
    url.appendingPathComponent(relative)
  }

  /// Writes `text` to `relative`, creating folders on the way.
  @discardableResult
  public func write(_ relative: String, _ text: String) throws -> URL {
    let file = path(relative)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try Data(text.utf8).write(to: file)
    return file
  }
}
