import Foundation

/// A database file written whole under a name that must not exist yet (a backup), as
/// `NewDatabaseFile` makes one: built in a temporary file beside the name, flushed, then
/// linked into place, so a file at the name is always complete and never replaced another,
/// even one made meanwhile.
package enum WholeNewFile {
  /// Calls `build` with a temporary path beside `destination`, then links what it wrote there
  /// to `destination`; the temporary files are removed either way.
  ///
  /// - Throws: `WholeNewFileError` when `destination` is taken or cannot be written; what
  ///   `build` throws (nothing is then at `destination`).
  package static func write(to destination: URL, _ build: (URL) throws -> Void) throws {
    if NewDatabaseFile.nameIsTaken(destination) {
      throw WholeNewFileError.exists(path: destination.path)
    }
    guard let temporary = NewDatabaseFile.temporaryURL(for: destination) else {
      throw WholeNewFileError.notWritable(path: destination.path, reason: "the name is too long")
    }
    defer { NewDatabaseFile.remove(temporary) }
    guard NewDatabaseFile.canLink(temporary) else {
      throw WholeNewFileError.notWritable(
        path: destination.path,
        reason: "its folder is missing, cannot be written, or cannot link files"
      )
    }
    try build(temporary)
    do {
      guard try NewDatabaseFile.linkIntoPlace(temporary, at: destination) else {
        throw WholeNewFileError.exists(path: destination.path)
      }
    } catch let error as FileSyncError {
      throw WholeNewFileError.notWritable(path: destination.path, reason: error.reason)
    }
  }
}

/// A file that `WholeNewFile` did not write; nothing else was changed.
package enum WholeNewFileError: Error, Equatable {
  case exists(path: String)
  case notWritable(path: String, reason: String)
}

extension WholeNewFileError: StrataError {
  package var message: String {
    switch self {
    case .exists(let path):
      "\(path) already exists; nothing was written and nothing was replaced."
    case .notWritable(let path, let reason):
      "Cannot write \(path): \(reason); nothing was written."
    }
  }

  package var help: String {
    switch self {
    case .exists: "Name a file that does not exist yet, or move the old one away first."
    case .notWritable: "Choose a folder that exists, that you can write to, with room to spare."
    }
  }
}
