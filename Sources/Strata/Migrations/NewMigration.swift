import Foundation

extension MigrationSet {
  /// Writes an empty migration with up/down markers, numbered after the folder's newest:
  /// zero-padded to the width the folder uses (`0005`), or a UTC timestamp when the folder
  /// uses timestamps. Creates the folder when missing.
  ///
  /// - Returns: the new file's URL.
  /// - Throws: `MigrationError`: an invalid name, an unreadable folder, no version left, or a file
  ///   that could not be created (nothing is ever written over an existing file).
  public static func createMigrationFile(
    in directory: URL,
    name rawName: String,
    now: Date = Date()
  ) throws -> URL {
    let name = String(rawName.lowercased().map { $0 == " " || $0 == "-" ? "_" : $0 })
    guard !name.isEmpty,
      name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" })
    else {
      throw MigrationError.invalidName(name: rawName)
    }
    let folderIsNew = pathStatus(atPath: directory.path) == .missing
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      let reason = (error as NSError).localizedFailureReason ?? error.localizedDescription
      throw MigrationError.unreadable(
        file: directory.path,
        reason: "the folder could not be created (\(reason))"
      )
    }
    let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    var newest: Int64 = 0
    var newestFile = ""
    var width = 4
    for file in existing.sorted() {
      guard let parsed = MigrationParser.parseFileName(file) else {
        if MigrationParser.hasOversizedVersion(file) {
          throw MigrationError.versionTooLarge(file: directory.appendingPathComponent(file).path)
        }
        continue
      }
      if parsed.version >= newest {
        newest = parsed.version
        newestFile = file
        width = file.prefix { $0.isASCII && $0.isNumber }.count
      }
    }
    guard newest < Int64.max else {
      throw MigrationError.noVersionLeft(file: directory.appendingPathComponent(newestFile).path)
    }
    let versionText: String
    if width >= 14 {
      let formatter = DateFormatter()
      formatter.dateFormat = "yyyyMMddHHmmss"
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.locale = Locale(identifier: "en_US_POSIX")
      let stamp = Int64(formatter.string(from: now)) ?? newest + 1
      versionText = String(max(stamp, newest + 1))
    } else {
      let next = String(newest + 1)
      versionText = String(repeating: "0", count: max(0, width - next.count)) + next
    }
    let url = directory.appendingPathComponent("\(versionText)_\(name).sql")
    let content = "-- migrate:up\n\n\n-- migrate:down\n\n"
    // Never over a file that appeared since the folder was listed (another `new`, an editor).
    do {
      try Data(content.utf8).write(to: url, options: .withoutOverwriting)
    } catch {
      let exists = pathStatus(atPath: url.path) != .missing
      let reason =
        exists
        ? "a file with that name already exists"
        : (error as NSError).localizedFailureReason ?? error.localizedDescription
      throw MigrationError.notCreated(file: url.path, reason: reason, exists: exists)
    }
    // The file's name is only on disk once its folder is synced (and a new folder's name once
    // its parent is): without it a power cut after "Created …" can leave no file.
    do {
      try Durability.syncFile(at: url.path)
      try Durability.syncDirectory(directory)
      if folderIsNew { try Durability.syncDirectory(directory.deletingLastPathComponent()) }
    } catch let error as FileSyncError {
      try? FileManager.default.removeItem(at: url)
      throw MigrationError.notCreated(file: url.path, reason: error.reason, exists: false)
    }
    return url
  }
}
