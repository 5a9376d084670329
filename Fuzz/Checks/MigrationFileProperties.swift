import Strata

/// The migration folder reader's promises, checked on a folder made from the input (files
/// separated by two NUL bytes, so that one NUL can still be in a file; in each, the first line
/// is the file name, the rest its content):
/// - the result does not change when every file gets CRLF line ends and a byte order mark;
/// - a folder that reads has one migration per version, in order, each part a slice of its
///   file starting at the line it names, with SQL in it;
/// - an error names a file of the folder, and a line inside that file;
/// - a file name that parses says what its leading digits and the rest say.
enum MigrationFileProperties {
  static let folder = "migrations"

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    let files = decodeFolder(input)
    for file in files { try checkFileName(file.name) }
    let result = try read(files)
    let windows = try read(files.map { ($0.name, withCRLFAndBOM($0.bytes)) })
    try require(
      windows == result,
      "with CRLF and a BOM the folder reads as \(windows), without as \(result)"
    )
    switch result {
    case .success(let migrations): try checkMigrations(migrations, of: files)
    case .failure(let error): try checkError(error, of: files)
    }
  }

  /// At most eight files: two NUL bytes separate them, the first line of each is its name.
  static func decodeFolder(_ input: [UInt8]) -> [(name: String, bytes: [UInt8])] {
    var files: [(name: String, bytes: [UInt8])] = []
    var parts: [ArraySlice<UInt8>] = []
    var start = input.startIndex
    while parts.count < 8, let separator = input[start...].firstRange(of: [0, 0]) {
      parts.append(input[start..<separator.lowerBound])
      start = separator.upperBound
    }
    if parts.count < 8 { parts.append(input[start...]) }
    for part in parts {
      let newline = part.firstIndex(of: 0x0A) ?? part.endIndex
      let name = String(decoding: part[part.startIndex..<newline], as: UTF8.self)
      let bytes = Array(part[min(newline + 1, part.endIndex)...])
      guard !name.isEmpty, !name.contains("/"), !files.contains(where: { $0.name == name }) else {
        continue
      }
      files.append((name, bytes))
    }
    return files
  }

  static func read(
    _ files: [(name: String, bytes: [UInt8])]
  ) throws(PropertyViolation) -> Result<[Migration], MigrationError> {
    do {
      return .success(try MigrationSet(files: files, directory: folder).migrations)
    } catch let error as MigrationError {
      return .failure(error)
    } catch {
      throw PropertyViolation("MigrationSet threw something other than a MigrationError: \(error)")
    }
  }

  /// The same text as an editor on Windows saves it: a BOM, and CRLF for every bare LF.
  static func withCRLFAndBOM(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? [] : [0xEF, 0xBB, 0xBF]
    for (index, byte) in bytes.enumerated() {
      if byte == 0x0A, index == 0 || bytes[index - 1] != 0x0D { out.append(0x0D) }
      out.append(byte)
    }
    return out
  }

  static func checkFileName(_ name: String) throws(PropertyViolation) {
    guard let parsed = MigrationParser.parseFileName(name) else { return }
    let digits = String(name.prefix { $0.isASCII && $0.isNumber })
    try require(
      !digits.isEmpty && Int64(digits) == parsed.version,
      "'\(name)' parsed as version \(parsed.version)"
    )
    try require(
      !parsed.name.isEmpty && name.dropFirst(digits.count).hasPrefix("_" + parsed.name),
      "'\(name)' parsed as name '\(parsed.name)'"
    )
  }

  static func shown(_ name: String) -> String { folder + "/" + name }

  static func checkMigrations(
    _ migrations: [Migration],
    of files: [(name: String, bytes: [UInt8])]
  ) throws(PropertyViolation) {
    let versions = Set(
      files.filter { !$0.name.hasPrefix(".") && $0.name.lowercased().hasSuffix(".sql") }
        .compactMap { fileVersion($0.name) }
    )
    try require(
      migrations.map(\.version) == versions.sorted().map(MigrationVersion.init(integer:)),
      "versions \(migrations.map(\.version)) from files of versions \(versions.sorted())"
    )
    for migration in migrations {
      for part in [migration.up, migration.down].compactMap({ $0 }) {
        guard let file = files.first(where: { shown($0.name) == part.file }) else {
          throw PropertyViolation("version \(migration.version) names '\(part.file)', not a file")
        }
        // A bare `<v>.sql` (an iOS bundle's name) gives its version and no name.
        let parsed = MigrationParser.parseFileName(file.name)
        let version = parsed?.version ?? fileVersion(file.name)
        try require(
          version == migration.version.integerValue && (parsed?.name ?? "") == migration.name,
          "version \(migration.version) '\(migration.name)' read from '\(file.name)'"
        )
        // A part without SQL is a no-op (its lines need not be the file's: it may be empty).
        if part.isNoOp { continue }
        // A part is the file's own lines from `firstLine` on. A dbmate file may hold several
        // sections: the lines of the other direction's sections between them are left empty
        // (so the line numbers stay the file's), and the down sections run in reverse order,
        // so every line of a part is (the start of) a line of the file and its first line is exact.
        let text = MigrationParser.normalize(file.bytes)
        let fileLines = text.split(separator: 0x0A, omittingEmptySubsequences: false).map(
          Array.init
        )
        let partLines = Array(part.sql.utf8).split(
          separator: 0x0A,
          omittingEmptySubsequences: false
        )
        .map(Array.init)
        let known = Set(fileLines)
        try require(
          part.firstLine >= 1 && part.firstLine <= fileLines.count
            && fileLines[part.firstLine - 1].starts(with: partLines.first ?? [])
            && partLines.allSatisfy { line in
              line.isEmpty || known.contains(line) || fileLines.contains { $0.starts(with: line) }
            },
          "a part of '\(file.name)' said to start on line \(part.firstLine) is not there"
        )
      }
    }
  }

  static func checkError(
    _ error: MigrationError,
    of files: [(name: String, bytes: [UInt8])]
  ) throws(PropertyViolation) {
    func file(_ path: String) throws(PropertyViolation) -> (name: String, bytes: [UInt8]) {
      guard let file = files.first(where: { shown($0.name) == path }) else {
        throw PropertyViolation("the error \(error) names '\(path)', not a file of the folder")
      }
      return file
    }
    switch error {
    case .invalidFileName(let path):
      try require(
        MigrationParser.parseFileName(try file(path).name) == nil,
        "'\(path)' refused as a name that parses"
      )
    case .versionTooLarge(let path):
      try require(
        MigrationParser.hasOversizedVersion(try file(path).name),
        "'\(path)' refused as too large a version"
      )
    case .versionZero(let path):
      // `0_a.sql`, or a bare `0.sql` (an iOS bundle's name).
      try require(fileVersion(try file(path).name) == 0, "'\(path)' refused as version 0")
    case .duplicateVersion(let version, let paths):
      // `6_a.sql` beside a bare `6.sql` (an iOS bundle's name) is a duplicate too.
      for path in paths {
        try require(
          fileVersion(try file(path).name) == version.integerValue,
          "'\(path)' listed as a duplicate of version \(version)"
        )
      }
    case .downWithoutUp(let path):
      try require(
        MigrationParser.parseFileName(try file(path).name)?.part == .down,
        "'\(path)' refused as a down part without an up part"
      )
    case .mismatchedPair(let version, let up, let down):
      let upName = MigrationParser.parseFileName(try file(up).name)
      let downName = MigrationParser.parseFileName(try file(down).name)
      try require(
        upName?.version == version.integerValue && downName?.version == version.integerValue
          && upName?.part == .up
          && downName?.part == .down && upName?.name != downName?.name,
        "'\(up)' and '\(down)' refused as a mismatched pair of version \(version)"
      )
    case .unreadable(let path, _):
      let bytes = try file(path).bytes
      try require(
        String(validating: bytes, as: UTF8.self) == nil || bytes.contains(0),
        "'\(path)' refused as unreadable although it is UTF-8 text without NUL bytes"
      )
    case .emptyMigration(let path):
      // No SQL at all, or (with markers) none in the up part.
      let text = MigrationParser.normalize(try file(path).bytes)
      try require(
        !containsSQL(text) || text.firstRange(of: Array("migrate:up".utf8)) != nil,
        "'\(path)' refused as empty although it holds SQL and no markers"
      )
    case .unwrittenPart(let path, let line, _):
      let text = MigrationParser.normalize(try file(path).bytes)
      let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
      try require(
        line >= 1 && line <= lines.count
          && (String(decoding: lines[line - 1], as: UTF8.self).contains("strata:todo")
            || line == 2),
        "'\(path)' refused as unwritten without a '-- strata:todo' line on line \(line)"
      )
    case .notSQL(let path):
      // A name with a version whose extension is not .sql: a step of another runner.
      try require(
        MigrationFileExclusion.isUnrunnableMigration(try file(path).name),
        "'\(path)' refused as a versioned file that is not SQL, but its name is not one"
      )
    case .formatProblem(let path, let line, _, _):
      // The format's own reading (a marker in a pair file, a goose annotation): a line of it.
      let text = MigrationParser.normalize(try file(path).bytes)
      let lineCount = text.count { $0 == 0x0A } + 1
      try require(
        line >= 1 && line <= lineCount,
        "format problem at line \(line) of '\(path)', which has \(lineCount) lines"
      )
    case .mixedFormats(_, let formats, let paths):
      try require(formats.count == 2 && paths.count == 2, "a mixed folder names two formats")
      for path in paths { _ = try file(path) }
    case .invalidMarker(let path, let line, _):
      let text = MigrationParser.normalize(try file(path).bytes)
      let lineCount = text.count { $0 == 0x0A } + 1
      try require(
        line >= 1 && line <= lineCount,
        "marker error at line \(line) of '\(path)', which has \(lineCount) lines"
      )
    default:
      throw PropertyViolation("reading a folder raised \(error)")
    }
    // Compared as bytes: a name that starts with a combining mark joins the `/` before it
    // into another character, and `String.contains` compares characters.
    try require(
      Array(error.message.utf8).firstRange(of: Array((folder + "/").utf8)) != nil,
      "the message does not name the file: \(error.message)"
    )
  }
}

/// The version a migration file's name gives: `<v>_<name>.sql` (and `.up`/`.down`), or a bare
/// `<v>.sql`, which the reader takes as an iOS bundle's name.
private func fileVersion(_ name: String) -> Int64? {
  if let parsed = MigrationParser.parseFileName(name) { return parsed.version }
  let stem = name.lowercased().hasSuffix(".sql") ? String(name.dropLast(4)) : name
  guard !stem.isEmpty, stem.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
  return Int64(stem)
}
