/// Reads migration file names and contents (dbmate markers, golang-migrate pairs).
package enum MigrationParser {
  /// True when `fileName` would be a migration's name but for a version too large for 64 bits.
  package static func hasOversizedVersion(_ fileName: String) -> Bool {
    guard parseFileName(fileName) == nil, fileName.lowercased().hasSuffix(".sql") else {
      return false
    }
    let digits = fileName.prefix { $0.isASCII && $0.isNumber }
    let rest = fileName.dropFirst(digits.count)
    return !digits.isEmpty && Int64(digits) == nil && rest.first == "_"
  }

  /// What a `.sql` file name says.
  package struct FileName: Equatable, Sendable {
    package enum Part: Equatable, Sendable { case whole, up, down }
    package let version: Int64
    package let name: String
    package let part: Part
  }

  /// Parses `0001_create_person_info.sql`, `0001_x.up.sql`, `0001_x.down.sql`; nil when the
  /// name does not start with digits, an underscore and a name.
  package static func parseFileName(_ fileName: String) -> FileName? {
    if let ascii = asciiFileName(fileName) { return ascii }
    guard fileName.lowercased().hasSuffix(".sql") else { return nil }
    var stem = String(fileName.dropLast(4))
    var part = FileName.Part.whole
    if stem.lowercased().hasSuffix(".up") {
      part = .up
      stem = String(stem.dropLast(3))
    } else if stem.lowercased().hasSuffix(".down") {
      part = .down
      stem = String(stem.dropLast(5))
    }
    let digits = stem.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let version = Int64(digits) else { return nil }
    let rest = stem.dropFirst(digits.count)
    guard rest.first == "_", rest.count > 1 else { return nil }
    return FileName(version: version, name: String(rest.dropFirst()), part: part)
  }

  /// Strips a UTF-8 BOM and turns CRLF into LF, so a checksum survives git and editors.
  package static func normalize(_ bytes: [UInt8]) -> [UInt8] {
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    guard bytes[start...].contains(0x0D) else { return start == 0 ? bytes : Array(bytes[start...]) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
        index += 1
        continue
      }
      out.append(byte)
      index += 1
    }
    return out
  }

  /// The up and down parts of a file with dbmate markers, or the whole file as up, from the
  /// file's bytes (which must be UTF-8), with the checksum.
  ///
  /// A file may hold several sections, each a `-- migrate:up` followed by at most one
  /// `-- migrate:down` (dbmate's README): the up sections run in order as one part, the down
  /// sections in reverse as one part, so the file succeeds or fails as a whole.
  static func parseContent(
    bytes rawBytes: [UInt8],
    file: String
  ) throws -> (up: MigrationScript, down: MigrationScript?, checksum: String) {
    try parseContent(normalized: normalize(rawBytes), file: file)
  }

  /// The same, from bytes already normalized (``normalize(_:)``: BOM stripped, CRLF → LF).
  static func parseContent(
    normalized bytes: [UInt8],
    file: String
  ) throws -> (up: MigrationScript, down: MigrationScript?, checksum: String) {
    var sections = MigrationSections(bytes: bytes)
    sections.reverseDownSections = true
    var current: MigrationSections.Role = .none
    var section = -1
    var hasDown = false
    var upOptions: (line: Int, transactional: Bool)?
    var downOptions: (line: Int, transactional: Bool)?
    for index in sections.lines.indices {
      let lineNumber = index + 1
      guard let marker = try parseMarker(sections.line(index), file: file, line: lineNumber) else {
        try refuseLookalike(sections.line(index), file: file, line: lineNumber, format: .dbmate)
        sections.roles[index] = current
        continue
      }
      if section < 0 { try refusePreamble(sections, before: index, file: file) }
      if marker.isUp {
        section += 1
        hasDown = false
        current = .up(section: section)
      } else {
        guard section >= 0 else {
          throw MigrationError.invalidMarker(
            file: file,
            line: lineNumber,
            reason: "'-- migrate:down' without a '-- migrate:up' part"
          )
        }
        if hasDown {
          throw MigrationError.invalidMarker(
            file: file,
            line: lineNumber,
            reason: "a second '-- migrate:down' marker after one '-- migrate:up' (each "
              + "'-- migrate:up' starts a section with at most one down part)"
          )
        }
        hasDown = true
        sections.downMarked.insert(section)
        current = .down(section: section)
      }
      let seen = marker.isUp ? upOptions : downOptions
      if let seen, seen.transactional != marker.isTransactional {
        throw MigrationError.invalidMarker(
          file: file,
          line: lineNumber,
          reason: "the '-- migrate:\(marker.isUp ? "up" : "down")' marker on line \(seen.line) "
            + "and this one differ in 'transaction:false'; the sections of a file run as one "
            + "part, so they must agree"
        )
      }
      if marker.isUp {
        upOptions = (lineNumber, marker.isTransactional)
      } else {
        downOptions = (lineNumber, marker.isTransactional)
      }
    }
    guard section >= 0 else {
      let text = String(decoding: bytes, as: UTF8.self)
      let up = MigrationScript(sql: text, file: file, firstLine: 1, isTransactional: true)
      try UnwrittenPart.refuse(up, isDown: false)
      return (up, nil, bytes.withUnsafeBufferPointer { MigrationSet.checksum(ofUp: $0) })
    }
    sections.sectionCount = section + 1
    sections.upTransactional = upOptions?.transactional ?? true
    sections.downTransactional = downOptions?.transactional ?? true
    return try sections.parts(file: file)
  }

  /// Refuses SQL before the first marker (dbmate refuses it too: it would run in neither part).
  private static func refusePreamble(
    _ sections: MigrationSections,
    before markerIndex: Int,
    file: String
  ) throws {
    let end = sections.lines[markerIndex].lowerBound
    guard containsSQL(sections.bytes[0..<end]) else { return }
    let line = (0..<markerIndex).first { containsSQL(sections.line($0)) } ?? 0
    throw MigrationError.invalidMarker(
      file: file,
      line: line + 1,
      reason: "SQL before the first '-- migrate:' marker"
    )
  }

  /// Refuses a file that is one part as a whole (a file of an `.up.sql`/`.down.sql` pair, a
  /// bundle's or sqlx's file) when it holds a marker line, since a `-- migrate:down` inside one
  /// would run as part of it, or a line that looks like one. `firstLineIsOption` skips sqlx's
  /// `-- no-transaction` first line. A near miss that names the part the file already is
  /// (`-- Up migration` atop an up file, `--- Down migration` atop a down file: `part`) is a
  /// title, not a section: the file holds one part, so it cannot mean another and is read as
  /// the comment it is, as the file's own tool reads it.
  static func refuseMarkers(
    bytes: [UInt8],
    file: String,
    format: MigrationFormat = .dbmate,
    isPairFile: Bool = true,
    part: MigrationParser.FileName.Part = .up,
    firstLineIsOption: Bool = false
  ) throws {
    var lineStart = 0
    var lineNumber = 1
    while lineStart <= bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
      let line = bytes[lineStart..<lineEnd]
      let parsed: (isUp: Bool, isTransactional: Bool)?
      do {
        parsed = try parseMarker(line, file: file, line: lineNumber)
      } catch MigrationError.invalidMarker(_, _, let reason) {
        throw markerProblem(file: file, line: lineNumber, format: format, reason: reason)
      }
      if let marker = parsed {
        let whole =
          isPairFile
          ? "one file of an .up.sql/.down.sql pair, which holds one part only"
          : "a \(format.rawValue) file, which runs whole as the up part"
        let reason =
          "'-- migrate:\(marker.isUp ? "up" : "down")' in \(whole); none of it was run"
        throw markerProblem(file: file, line: lineNumber, format: format, reason: reason)
      }
      if !(firstLineIsOption && lineNumber == 1) {
        try refuseLookalike(line, file: file, line: lineNumber, format: format, titling: part)
      }
      lineStart = lineEnd + 1
      lineNumber += 1
    }
  }

  /// True when `line` is a dbmate marker (`-- migrate:up`, `--migrate:down …`), well formed
  /// or not: what detection looks for.
  static func isMarker(_ line: ArraySlice<UInt8>) -> Bool {
    do { return try parseMarker(line, file: "", line: 0) != nil } catch { return true }
  }

  /// Throws for a line that looks like a marker the folder's format does not read
  /// (`MarkerLookalike`): a near miss of its own, or another tool's.
  /// With `titling`, the part a single-part file holds: a near miss naming that part is its
  /// title and passes.
  static func refuseLookalike(
    _ line: ArraySlice<UInt8>,
    file: String,
    line lineNumber: Int,
    format: MigrationFormat = .dbmate,
    titling part: MigrationParser.FileName.Part? = nil
  ) throws {
    guard let (found, marker) = MarkerLookalike.match(line) else { return }
    if found == nil, !isMarker(line), let part, MarkerLookalike.direction(line) == part { return }
    let tool = format != .dbmate && isMarker(line) ? "dbmate (strata)" : found
    let reason: String
    switch (format, tool) {
    case (.dbmate, let tool?):
      reason =
        "'\(marker)' is a \(tool) marker, which strata does not read; none of the file was run"
    case (.dbmate, nil):
      reason =
        "'\(marker)' looks like a marker but is not one: strata, like dbmate, reads exactly "
        + "'-- migrate:up' and '-- migrate:down' (lowercase, with the colon, ASCII only); none of "
        + "the file was run"
    case (.sqlx, "sqlx") where lineNumber == 1:
      reason =
        "'\(marker)' is not sqlx's option as sqlx reads it: only '-- no-transaction' exactly "
        + "(two dashes, a space) starts a file that runs outside a transaction, so sqlx would "
        + "take this line as a comment; none of the file was run"
    case (.sqlx, "sqlx"):
      reason =
        "'\(marker)' is sqlx's option, but sqlx reads it only at the very start of a "
        + "file; here it would be a comment; none of the file was run"
    case (_, let tool?):
      reason =
        "'\(marker)' is a \(tool) marker, which \(format.tool) does not read in this "
        + "folder's files; none of the file was run"
    case (_, nil):
      reason =
        "'\(marker)' looks like a marker but \(format.tool) does not read it as one "
        + "(reword the comment); none of the file was run"
    }
    throw markerProblem(file: file, line: lineNumber, format: format, reason: reason)
  }

  /// A marker problem: strata's own (`invalidMarker`) in its own format, the format's
  /// (`formatProblem`) in another, so that the help speaks of that format's markers.
  private static func markerProblem(
    file: String,
    line: Int,
    format: MigrationFormat,
    reason: String
  ) -> MigrationError {
    guard format == .dbmate else {
      return .formatProblem(file: file, line: line, format: format, reason: reason)
    }
    return .invalidMarker(file: file, line: line, reason: reason)
  }

  private static let dashes: [UInt8] = [0x2D, 0x2D]
  private static let markerPrefix = Array("migrate:".utf8)
  private static let upWord = Array("up".utf8)
  private static let downWord = Array("down".utf8)

  /// `-- migrate:up [transaction:false]` or `-- migrate:down`; nil for any other line.
  private static func parseMarker(
    _ line: ArraySlice<UInt8>,
    file: String,
    line lineNumber: Int
  ) throws -> (isUp: Bool, isTransactional: Bool)? {
    var rest = line.drop { $0 == 0x20 || $0 == 0x09 }
    guard rest.starts(with: dashes) else { return nil }
    rest = rest.dropFirst(2).drop { $0 == 0x20 || $0 == 0x09 }
    guard rest.starts(with: markerPrefix) else { return nil }
    let after = rest.dropFirst(markerPrefix.count)
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
    // `up` or `down` alone between ASCII blanks, as nearly every marker is: what the words
    // below make of it, without making them.
    let word = after.drop(while: isBlank)
    let tail = word.drop { !isBlank($0) }
    if tail.allSatisfy(isBlank) {
      let kind = word[..<tail.startIndex]
      if kind.elementsEqual(upWord) { return (true, true) }
      if kind.elementsEqual(downWord) { return (false, true) }
    }
    // The words after the colon. ASCII splits on its bytes as text splits on its characters;
    // other text is split as characters, where a blank that a combining mark follows is not
    // one.
    let words: [Substring] =
      after.allSatisfy({ $0 < 0x80 })
      ? after.split(whereSeparator: isBlank).map { Substring(decoding: $0, as: UTF8.self) }
      : String(decoding: after, as: UTF8.self)
        .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    let kind = words.first.map(String.init) ?? ""
    guard kind == "up" || kind == "down" else {
      throw MigrationError.invalidMarker(
        file: file,
        line: lineNumber,
        reason: "unknown marker '-- migrate:\(kind)'"
      )
    }
    var transactional = true
    for option in words.dropFirst() {
      switch option {
      case "transaction:false": transactional = false
      case "transaction:true": transactional = true
      default:
        throw MigrationError.invalidMarker(
          file: file,
          line: lineNumber,
          reason: "unknown option '\(option)' after '-- migrate:\(kind)'"
        )
      }
    }
    return (kind == "up", transactional)
  }
}
