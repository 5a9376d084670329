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
    guard bytes[start...].contains(0x0D) else { return Array(bytes[start...]) }
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

  static func normalize(_ text: String) -> String {
    String(decoding: normalize(Array(text.utf8)), as: UTF8.self)
  }

  /// The up and down parts of a file with dbmate markers, or the whole file as up.
  static func parseContent(
    _ rawText: String,
    file: String
  ) throws -> (up: MigrationScript, down: MigrationScript?) {
    try parseContent(bytes: Array(rawText.utf8), file: file)
  }

  /// The same, from the file's bytes (which must be UTF-8).
  static func parseContent(
    bytes rawBytes: [UInt8],
    file: String
  ) throws -> (up: MigrationScript, down: MigrationScript?) {
    let bytes = normalize(rawBytes)
    struct Section {
      let isUp: Bool
      let markerLine: Int
      let isTransactional: Bool
      /// Byte range of the body: from after the marker line to the next marker line.
      var start: Int
      var end: Int
    }
    var sections: [Section] = []
    var preambleEnd = bytes.count
    var lineStart = 0
    var lineNumber = 1
    while lineStart <= bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
      let line = bytes[lineStart..<lineEnd]
      guard let marker = try parseMarker(line, file: file, line: lineNumber) else {
        try refuseLookalike(line, file: file, line: lineNumber)
        lineStart = lineEnd + 1
        lineNumber += 1
        continue
      }
      if sections.contains(where: { $0.isUp == marker.isUp }) {
        throw MigrationError.invalidMarker(
          file: file,
          line: lineNumber,
          reason: "a second '-- migrate:\(marker.isUp ? "up" : "down")' marker"
        )
      }
      if sections.isEmpty {
        preambleEnd = lineStart
      } else {
        sections[sections.count - 1].end = max(sections[sections.count - 1].start, lineStart - 1)
      }
      let bodyStart = min(lineEnd + 1, bytes.count)
      sections.append(
        Section(
          isUp: marker.isUp,
          markerLine: lineNumber,
          isTransactional: marker.isTransactional,
          start: bodyStart,
          end: bytes.count
        )
      )
      lineStart = lineEnd + 1
      lineNumber += 1
    }
    if sections.isEmpty {
      let text = String(decoding: bytes, as: UTF8.self)
      guard containsSQL(bytes) else { throw MigrationError.emptyMigration(file: file) }
      return (MigrationScript(sql: text, file: file, firstLine: 1, isTransactional: true), nil)
    }
    let preamble = bytes[0..<preambleEnd]
    if containsSQL(preamble) {
      var line = 1
      var start = 0
      while start < preambleEnd {
        let end = preamble[start...].firstIndex(of: 0x0A) ?? preambleEnd
        if containsSQL(preamble[start..<end]) { break }
        start = end + 1
        line += 1
      }
      throw MigrationError.invalidMarker(
        file: file,
        line: line,
        reason: "SQL before the first '-- migrate:' marker"
      )
    }
    guard let upSection = sections.first(where: \.isUp) else {
      throw MigrationError.invalidMarker(
        file: file,
        line: sections[0].markerLine,
        reason: "'-- migrate:down' without a '-- migrate:up' part"
      )
    }
    func script(_ section: Section) -> MigrationScript? {
      let body = bytes[section.start..<max(section.start, section.end)]
      guard containsSQL(body) else { return nil }
      return MigrationScript(
        sql: String(decoding: body, as: UTF8.self),
        file: file,
        firstLine: section.markerLine + 1,
        isTransactional: section.isTransactional
      )
    }
    guard let up = script(upSection) else { throw MigrationError.emptyMigration(file: file) }
    let down = sections.first { !$0.isUp }.flatMap(script)
    return (up, down)
  }

  /// Refuses a file of an `.up.sql`/`.down.sql` pair that holds a marker line (the pair's
  /// files are one part each, so a `-- migrate:down` inside one would run as part of it), or a
  /// line that looks like one.
  static func refuseMarkers(bytes: [UInt8], file: String) throws {
    var lineStart = 0
    var lineNumber = 1
    while lineStart <= bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
      let line = bytes[lineStart..<lineEnd]
      if let marker = try parseMarker(line, file: file, line: lineNumber) {
        throw MigrationError.invalidMarker(
          file: file,
          line: lineNumber,
          reason: "'-- migrate:\(marker.isUp ? "up" : "down")' in one file of an "
            + ".up.sql/.down.sql pair, which holds one part only; none of it was run"
        )
      }
      try refuseLookalike(line, file: file, line: lineNumber)
      lineStart = lineEnd + 1
      lineNumber += 1
    }
  }

  /// Throws for a line that looks like a marker strata does not read (`MarkerLookalike`).
  private static func refuseLookalike(
    _ line: ArraySlice<UInt8>,
    file: String,
    line lineNumber: Int
  ) throws {
    guard let (tool, marker) = MarkerLookalike.match(line) else { return }
    let reason =
      tool.map {
        "'\(marker)' is a \($0) marker, which strata does not read; none of the file was run"
      }
      ?? "'\(marker)' looks like a marker but is not one: strata, like dbmate, reads exactly "
      + "'-- migrate:up' and '-- migrate:down' (lowercase, with the colon, ASCII only); none of "
      + "the file was run"
    throw MigrationError.invalidMarker(file: file, line: lineNumber, reason: reason)
  }

  /// `-- migrate:up [transaction:false]` or `-- migrate:down`; nil for any other line.
  private static func parseMarker(
    _ line: ArraySlice<UInt8>,
    file: String,
    line lineNumber: Int
  ) throws -> (isUp: Bool, isTransactional: Bool)? {
    var rest = line.drop { $0 == 0x20 || $0 == 0x09 }
    guard rest.starts(with: [0x2D, 0x2D]) else { return nil }
    rest = rest.dropFirst(2).drop { $0 == 0x20 || $0 == 0x09 }
    let prefix = Array("migrate:".utf8)
    guard rest.starts(with: prefix) else { return nil }
    let words = String(decoding: rest.dropFirst(prefix.count), as: UTF8.self)
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
