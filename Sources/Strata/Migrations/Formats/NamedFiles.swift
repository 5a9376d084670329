/// The files of one version, as their names say (a whole file, or an up/down pair).
struct MigrationFileGroup: Sendable {
  /// A file of the folder: its name on disk, how messages show it, what its name says.
  struct File: Sendable {
    let name: String
    let shown: String
    let parsed: MigrationParser.FileName
    /// Named `<version>.sql`, as iOS bundles name files.
    let isBare: Bool
  }

  let version: MigrationVersion
  var whole: [File] = []
  var up: File?
  var down: File?

  init(version: MigrationVersion) { self.version = version }

  /// Adds a file; two `.up.sql` (or `.down.sql`) files of one version are refused at once.
  mutating func add(_ file: File) throws {
    let existing: File?
    switch file.parsed.part {
    case .whole:
      whole.append(file)
      return
    case .up: existing = up
    case .down: existing = down
    }
    if let existing {
      throw MigrationError.duplicateVersion(
        version: version,
        files: [existing.shown, file.shown]
      )
    }
    if file.parsed.part == .up { up = file } else { down = file }
  }

  /// Checks that the files make one migration, then reads them.
  ///
  /// - Throws: `MigrationError` for two files of one version, a down file alone, a pair whose
  ///   names differ, or a file that cannot be read, is not UTF-8 or holds a NUL byte.
  func load(_ readFile: MigrationFileRead) throws -> LoadedMigrationGroup {
    let files = whole.map(\.shown) + [up?.shown].compactMap { $0 }
    if files.count > 1 { throw MigrationError.duplicateVersion(version: version, files: files) }
    if let first = whole.first, let down {
      throw MigrationError.duplicateVersion(version: version, files: [first.shown, down.shown])
    }
    if whole.isEmpty, up == nil, let down { throw MigrationError.downWithoutUp(file: down.shown) }
    if let up, let down, up.parsed.name != down.parsed.name {
      throw MigrationError.mismatchedPair(version: version, up: up.shown, down: down.shown)
    }
    return LoadedMigrationGroup(
      version: version,
      whole: try whole.first.map { try LoadedMigrationFile(file: $0, read: readFile) },
      up: try up.map { try LoadedMigrationFile(file: $0, read: readFile) },
      down: try down.map { try LoadedMigrationFile(file: $0, read: readFile) }
    )
  }
}

/// A file and its bytes (valid UTF-8 without NUL), with what it says about the format.
struct LoadedMigrationFile: Sendable {
  let file: MigrationFileGroup.File
  let bytes: [UInt8]
  /// `bytes` BOM-stripped and CRLF → LF (`MigrationParser.normalize`), made once: the same
  /// storage when there was nothing to change.
  let normalized: [UInt8]
  let signal: MigrationFormat.Signal

  init(file: MigrationFileGroup.File, read readFile: MigrationFileRead) throws {
    let bytes: [UInt8]
    switch readFile(file.name) {
    case .success(let read): bytes = read
    case .failure(let failure):
      throw MigrationError.unreadable(file: file.shown, reason: failure.reason)
    }
    guard isUTF8(bytes) else {
      throw MigrationError.unreadable(file: file.shown, reason: "not UTF-8 text")
    }
    if let nul = bytes.firstIndex(of: 0) {
      let line = bytes[..<nul].count { $0 == 0x0A } + 1
      throw MigrationError.unreadable(
        file: file.shown,
        reason: "it holds a NUL byte (0x00) on line \(line), so it is not SQL text"
      )
    }
    self.file = file
    self.bytes = bytes
    normalized = MigrationParser.normalize(bytes)
    signal = MigrationFormat.signal(
      isPair: file.parsed.part != .whole,
      isBare: file.isBare,
      bytes: bytes,
      normalized: normalized
    )
  }

  /// The file as one part (a pair's file, an sqlx or bundle file): its script (a no-op when
  /// it has no SQL) and the checksum of its SQL. sqlx's `-- no-transaction` at the very start
  /// takes it out of a transaction and is not part of the checksum.
  ///
  /// - Throws: `MigrationError` for a marker line in it, or one that looks like a marker; for
  ///   a part still as `strata new` wrote it.
  func wholePart(format: MigrationFormat) throws -> (script: MigrationScript, checksum: String) {
    let text = normalized
    let noTransaction =
      format == .sqlx && bytes.starts(with: MigrationFormat.noTransactionOption)
    try MigrationParser.refuseMarkers(
      bytes: text,
      file: file.shown,
      format: format,
      isPairFile: file.parsed.part != .whole,
      part: file.parsed.part == .down ? .down : .up,
      firstLineIsOption: noTransaction
    )
    let sql = String(decoding: text, as: UTF8.self)
    let script = MigrationScript(
      sql: sql,
      file: file.shown,
      firstLine: 1,
      isTransactional: !noTransaction
    )
    try UnwrittenPart.refuse(script, isDown: file.parsed.part == .down)
    let checksum =
      noTransaction
      ? MigrationSet.checksum(ofUp: String(sql.drop { $0 != "\n" }))
      : text.withUnsafeBufferPointer { MigrationSet.checksum(ofUp: $0) }
    return (script, checksum)
  }
}

/// A group read and parsed as the format its files suggest (`guess`), before the folder's
/// format is known.
///
/// A class: the folder's groups pass through a few arrays, and a copy of a struct of all the
/// group's files and parts was a retain of every one of them.
final class ReadMigrationGroup: Sendable {
  let loaded: LoadedMigrationGroup
  let guess: MigrationFormat
  let parsed: Result<Migration?, any Error>

  init(_ loaded: LoadedMigrationGroup, guess chosen: MigrationFormat?) {
    self.loaded = loaded
    let guess = chosen ?? loaded.likelyFormat
    self.guess = guess
    parsed = Result { try loaded.migration(format: guess) }
  }
}

/// One version's files, read.
struct LoadedMigrationGroup: Sendable {
  let version: MigrationVersion
  let whole: LoadedMigrationFile?
  let up: LoadedMigrationFile?
  let down: LoadedMigrationFile?

  var files: [LoadedMigrationFile] { [whole, up, down].compactMap { $0 } }

  /// Each file as messages name it, and what it says about the format (detection's input).
  var signals: [(shown: String, signal: MigrationFormat.Signal)] {
    var signals: [(shown: String, signal: MigrationFormat.Signal)] = []
    if let whole { signals.append((whole.file.shown, whole.signal)) }
    if let up { signals.append((up.file.shown, up.signal)) }
    if let down { signals.append((down.file.shown, down.signal)) }
    return signals
  }

  /// The format the group's own files suggest (the first marker found), for parsing it
  /// before the folder's format is settled; only a guess.
  var likelyFormat: MigrationFormat {
    func suggested(_ file: LoadedMigrationFile?) -> MigrationFormat? {
      switch file?.signal {
      case .marked(let format)?: format
      case .pair?: .golangMigrate
      case .bare?: .bundle
      case .plain?, nil: nil
      }
    }
    return suggested(whole) ?? suggested(up) ?? suggested(down) ?? .dbmate
  }

  /// The migration, read as `format`'s tool reads its files.
  ///
  /// - Throws: `MigrationError` for a file the format does not read or reads as wrong.
  func migration(format: MigrationFormat) throws -> Migration? {
    if let whole { return try wholeMigration(whole, format: format) }
    guard let up else { return nil }
    guard format.readsPairs else {
      throw MigrationError.formatProblem(
        file: up.file.shown,
        line: 1,
        format: format,
        reason: "\(format.tool) reads one file per migration, not .up.sql/.down.sql pairs, "
          + "so it would not run this one"
      )
    }
    let upPart = try up.wholePart(format: format)
    let downScript = try down?.wholePart(format: format).script
    return Migration(
      version: version,
      name: up.file.parsed.name,
      up: upPart.script,
      down: downScript,
      checksum: upPart.checksum
    )
  }

  private func wholeMigration(
    _ whole: LoadedMigrationFile,
    format: MigrationFormat
  ) throws -> Migration {
    let shown = whole.file.shown
    if whole.file.isBare, format != .bundle { throw MigrationError.invalidFileName(file: shown) }
    let parts: (up: MigrationScript, down: MigrationScript?, checksum: String)
    try UnwrittenPart.refuseEarlierTemplate(whole.normalized, file: shown)
    switch format {
    case .dbmate:
      parts = try MigrationParser.parseContent(normalized: whole.normalized, file: shown)
    case .goose: parts = try GooseReader.parse(bytes: whole.bytes, file: shown)
    case .sqlMigrate: parts = try SQLMigrateReader.parse(bytes: whole.bytes, file: shown)
    case .sqlx, .bundle:
      let part = try whole.wholePart(format: format)
      parts = (part.script, nil, part.checksum)
    case .golangMigrate:
      throw MigrationError.formatProblem(
        file: shown,
        line: 1,
        format: format,
        reason: "golang-migrate reads only <version>_<name>.up.sql and .down.sql files, so it "
          + "would skip this one"
      )
    case .diesel:
      throw MigrationError.formatProblem(
        file: shown,
        line: 1,
        format: format,
        reason: "diesel reads one folder per migration (<version>_<name>/up.sql), so it "
          + "would not run this file"
      )
    case .flyway:
      throw MigrationError.formatProblem(
        file: shown,
        line: 1,
        format: format,
        reason: "Flyway reads only V<version>__<description>.sql, U… and R__… files, so it "
          + "would skip this one"
      )
    }
    return Migration(
      version: version,
      name: whole.file.parsed.name,
      up: parts.up,
      down: parts.down,
      checksum: parts.checksum
    )
  }
}
