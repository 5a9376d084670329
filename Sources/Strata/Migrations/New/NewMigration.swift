import Foundation

/// The `new` writer: the next migration's files in a folder's own format, numbered after its
/// newest, written without ever replacing a file (`MigrationSet.createMigrationFiles` says what
/// it writes). Apart from the readers: it looks only at names and first bytes, enough to number
/// the files and pick the format.
enum NewMigration {
  /// Writes the next migration's files; `MigrationSet.createMigrationFiles` says which.
  static func write(
    in directory: URL,
    name rawName: String,
    format chosen: MigrationFormat? = nil,
    excluding exclusion: MigrationFileExclusion = MigrationFileExclusion(),
    content: NewMigrationContent? = nil,
    now: Date = Date()
  ) throws -> [URL] {
    let name = try migrationName(rawName)
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
    let planned = try plannedFiles(
      in: directory,
      name: name,
      format: chosen,
      excluding: exclusion,
      content: content,
      now: now
    )
    return try write(planned.files, stem: planned.stem, in: directory, folderIsNew: folderIsNew)
  }

  /// The texts `write` would write; see `MigrationSet.newMigrationTexts`.
  static func texts(
    in directory: URL,
    name rawName: String,
    format chosen: MigrationFormat?,
    excluding exclusion: MigrationFileExclusion,
    content: NewMigrationContent,
    now: Date
  ) throws -> (stem: String, files: [(ending: String, text: String)]) {
    let planned = try plannedFiles(
      in: directory,
      name: try migrationName(rawName),
      format: chosen,
      excluding: exclusion,
      content: content,
      now: now
    )
    return (planned.stem, planned.files.map { ($0.0, $0.1) })
  }

  /// `rawName` as a file name's part: lower case, `_` for spaces and dashes.
  ///
  /// - Throws: `MigrationError.invalidName` for a name with anything but ASCII letters and digits,
  ///   spaces, `_` and `-`, or an empty one.
  static func migrationName(_ rawName: String) throws -> String {
    let name = String(rawName.lowercased().map { $0 == " " || $0 == "-" ? "_" : $0 })
    guard !name.isEmpty,
      name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" })
    else {
      throw MigrationError.invalidName(name: rawName)
    }
    return name
  }

  /// The next migration's files in the folder's format, numbered after its newest: the name
  /// endings and contents, and the stem they follow (empty for Flyway, whose names are whole).
  private static func plannedFiles(
    in directory: URL,
    name: String,
    format chosen: MigrationFormat?,
    excluding exclusion: MigrationFileExclusion,
    content: NewMigrationContent?,
    now: Date
  ) throws -> (files: [(String, String)], stem: String) {
    let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    let isDiesel =
      chosen == .diesel
      || (chosen == nil
        && !DieselReader.migrationFolders(in: directory.path, names: existing).isEmpty)
    if isDiesel {
      return (
        newFiles(.diesel, pairs: false, content: content),
        "\(utcStamp(now, "yyyy-MM-dd-HHmmss"))_\(name)"
      )
    }
    let (newest, newestFile, width) = try newestVersion(
      in: directory,
      names: existing,
      excluding: exclusion
    )
    guard newest < Int64.max else {
      throw MigrationError.noVersionLeft(file: directory.appendingPathComponent(newestFile).path)
    }
    let versionText: String
    if width >= 14 {
      let stamp = Int64(utcStamp(now, "yyyyMMddHHmmss")) ?? newest + 1
      versionText = String(max(stamp, newest + 1))
    } else {
      let next = String(newest + 1)
      versionText = String(repeating: "0", count: max(0, width - next.count)) + next
    }
    if chosen == .flyway
      || (chosen == nil && existing.contains { FlywayFileName.looksLikeFlyway($0) })
    {
      let files = try flywayFiles(in: directory, names: existing, name: name, now: now)
      guard let content else { return (files, "") }
      let parts = content.parts(for: .flyway)
      return (
        [(files[0].0, parts.up)]
          + (files.count > 1 ? parts.down.map { [(files[1].0, $0)] } ?? [] : []),
        ""
      )
    }
    let format = try chosen ?? detectFormat(directory, names: existing)
    let hasPairs = existing.contains { MigrationParser.parseFileName($0)?.part == .up }
    return (newFiles(format, pairs: hasPairs, content: content), "\(versionText)_\(name)")
  }

  /// The folder's newest version (0 when there is none), its file, and the width of its digits
  /// (4 when there is none): what the next version follows.
  ///
  /// - Throws: `MigrationError.notSQL` for a file with a version that is not SQL and is not
  ///   excluded, `versionTooLarge` for a version beyond 64 bits.
  private static func newestVersion(
    in directory: URL,
    names existing: [String],
    excluding exclusion: MigrationFileExclusion
  ) throws -> (version: Int64, file: String, width: Int) {
    var newest: Int64 = 0
    var newestFile = ""
    var width = 4
    for file in existing.sorted() where !file.hasPrefix(".") {
      let excluded = exclusion.excludes(
        name: file,
        shown: directory.appendingPathComponent(file).path
      )
      if MigrationFileExclusion.isUnrunnableMigration(file) {
        guard excluded else {
          throw MigrationError.notSQL(file: directory.appendingPathComponent(file).path)
        }
        if let version = Int64(file.prefix { $0.isASCII && $0.isNumber }), version >= newest {
          newest = version
          newestFile = file
          width = file.prefix { $0.isASCII && $0.isNumber }.count
        }
        continue
      }
      // sql-migrate's names (`10-later.sql`) count by the number they start with, as
      // sql-migrate orders them.
      let digits = file.prefix { $0.isASCII && $0.isNumber }
      let leading = file.hasSuffix(".sql") ? Int64(digits) : nil
      guard let parsed = MigrationParser.parseFileName(file) ?? MigrationParser.bareVersion(file)
      else {
        if MigrationParser.hasOversizedVersion(file) {
          throw MigrationError.versionTooLarge(file: directory.appendingPathComponent(file).path)
        }
        if let version = leading, version >= newest {
          newest = version
          newestFile = file
          width = digits.count
        }
        continue
      }
      if parsed.version >= newest {
        newest = parsed.version
        newestFile = file
        width = file.prefix { $0.isASCII && $0.isNumber }.count
      }
    }
    return (newest, newestFile, width)
  }

  /// Why `url` (a `kind`: file or folder) could not be created: it exists, or what failed.
  private static func notCreated(_ url: URL, _ error: any Error, _ kind: String) -> MigrationError {
    let exists = pathStatus(atPath: url.path) != .missing
    let reason =
      exists
      ? "a \(kind) with that name already exists"
      : (error as NSError).localizedFailureReason ?? error.localizedDescription
    return .notCreated(file: url.path, reason: reason, exists: exists)
  }

  /// `now` in UTC as `format` lays it out.
  private static func utcStamp(_ now: Date, _ format: String) -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = format
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.locale = Locale(identifier: "en_US_POSIX")
    return formatter.string(from: now)
  }

  /// Writes each of `files` (name ending, content) as `stem` + ending, never over an existing
  /// file, and syncs them and their folders; an ending starting with `/` puts the files in a
  /// new folder named `stem` (diesel's).
  private static func write(
    _ files: [(String, String)],
    stem: String,
    in directory: URL,
    folderIsNew: Bool
  ) throws -> [URL] {
    var folders = [directory]
    if files.first?.0.hasPrefix("/") == true {
      let folder = directory.appendingPathComponent(stem)
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      } catch {
        throw notCreated(folder, error, "folder")
      }
      folders.insert(folder, at: 0)
    }
    var urls: [URL] = []
    for (suffix, content) in files {
      let url = directory.appendingPathComponent("\(stem)\(suffix)")
      // Never over a file that appeared since the folder was listed (another `new`, an editor).
      do {
        try Data(content.utf8).write(to: url, options: .withoutOverwriting)
      } catch {
        for written in urls { try? FileManager.default.removeItem(at: written) }
        if folders.count > 1 { try? FileManager.default.removeItem(at: folders[0]) }
        throw notCreated(url, error, "file")
      }
      urls.append(url)
    }
    // The file's name is only on disk once its folder is synced (and a new folder's name once
    // its parent is): without it a power cut after "Created …" can leave no file.
    do {
      for url in urls { try Durability.syncFile(at: url.path) }
      for folder in folders { try Durability.syncDirectory(folder) }
      if folderIsNew { try Durability.syncDirectory(directory.deletingLastPathComponent()) }
    } catch let error as FileSyncError {
      for url in urls { try? FileManager.default.removeItem(at: url) }
      throw MigrationError.notCreated(file: urls[0].path, reason: error.reason, exists: false)
    }
    return urls
  }

  /// The name endings and contents `new` writes in `format`: markers or annotations around
  /// `content`'s parts; without content no SQL, and in each part the `-- strata:todo` line that
  /// keeps it refused until it is written.
  private static func newFiles(
    _ format: MigrationFormat,
    pairs: Bool,
    content: NewMigrationContent?
  ) -> [(String, String)] {
    if let content { return generatedFiles(format, pairs: pairs, content.parts(for: format)) }
    let todo = UnwrittenPart.line
    return switch format {
    case .dbmate: [(".sql", "-- migrate:up\n\(todo)\n\n-- migrate:down\n\(todo)\n")]
    case .goose: [(".sql", "-- +goose Up\n\(todo)\n\n-- +goose Down\n\(todo)\n")]
    case .sqlMigrate: [(".sql", "-- +migrate Up\n\(todo)\n\n-- +migrate Down\n\(todo)\n")]
    case .golangMigrate: [(".up.sql", "\(todo)\n"), (".down.sql", "\(todo)\n")]
    case .sqlx where pairs:
      [
        (".up.sql", "-- Add up migration script here\n\(todo)\n"),
        (".down.sql", "-- Add down migration script here\n\(todo)\n"),
      ]
    case .sqlx: [(".sql", "-- Add migration script here\n\(todo)\n")]
    case .bundle, .flyway: [(".sql", "\(todo)\n")]
    // What `diesel migration generate` writes, and the line that keeps it refused until written.
    case .diesel:
      [
        ("/up.sql", "-- Your SQL goes here\n\(todo)\n"),
        ("/down.sql", "-- This file should undo anything in `up.sql`\n\(todo)\n"),
      ]
    }
  }

  /// The files of a generated migration in `format`; a part the format has no place for (the
  /// down part of a bundle or a single sqlx file), or that does not exist, is not written.
  private static func generatedFiles(
    _ format: MigrationFormat,
    pairs: Bool,
    _ parts: (up: String, down: String?)
  ) -> [(String, String)] {
    func marked(_ up: String, _ down: String) -> [(String, String)] {
      [(".sql", "\(up)\n\(parts.up)" + (parts.down.map { "\n\(down)\n\($0)" } ?? ""))]
    }
    func pair(_ up: String, _ down: String) -> [(String, String)] {
      [(up, parts.up)] + (parts.down.map { [(down, $0)] } ?? [])
    }
    return switch format {
    case .dbmate: marked("-- migrate:up", "-- migrate:down")
    case .goose: marked("-- +goose Up", "-- +goose Down")
    case .sqlMigrate: marked("-- +migrate Up", "-- +migrate Down")
    case .golangMigrate: pair(".up.sql", ".down.sql")
    case .sqlx where pairs: pair(".up.sql", ".down.sql")
    case .sqlx, .bundle, .flyway: [(".sql", parts.up)]
    case .diesel: pair("/up.sql", "/down.sql")
    }
  }

  /// The format of the folder's `.sql` files, from their names and first bytes; strata's own
  /// for an empty folder.
  private static func detectFormat(_ directory: URL, names: [String]) throws -> MigrationFormat {
    var signals: [(shown: String, signal: MigrationFormat.Signal)] = []
    for name in names.sorted() where !name.hasPrefix(".") && name.lowercased().hasSuffix(".sql") {
      let bare = MigrationParser.bareVersion(name)
      guard let parsed = MigrationParser.parseFileName(name) ?? bare else { continue }
      let url = directory.appendingPathComponent(name)
      let bytes = (try? Data(contentsOf: url)).map { [UInt8]($0) } ?? []
      signals.append(
        (
          url.path,
          MigrationFormat.signal(isPair: parsed.part != .whole, isBare: bare != nil, bytes: bytes)
        )
      )
    }
    return try MigrationFormat.detect(signals, directory: directory.path)
  }
}
