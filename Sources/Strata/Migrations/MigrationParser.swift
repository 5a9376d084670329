/// Reads migration file names and contents (dbmate markers, golang-migrate pairs).
enum MigrationParser {
  /// What a `.sql` file name says.
  struct FileName: Equatable {
    enum Part: Equatable { case whole, up, down }
    let version: Int64
    let name: String
    let part: Part
  }

  /// Parses `0001_create_person_info.sql`, `0001_x.up.sql`, `0001_x.down.sql`; nil when the
  /// name does not start with digits, an underscore and a name.
  static func parseFileName(_ fileName: String) -> FileName? {
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
  static func normalize(_ text: String) -> String {
    var text = text
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    // "\r\n" is one Character in Swift, so replace on the UTF-8 view.
    guard text.utf8.contains(0x0D) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte == 0x0A, previous == 0x0D { bytes.removeLast() }
      bytes.append(byte)
      previous = byte
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The up and down parts of a file with dbmate markers, or the whole file as up.
  static func parseContent(
    _ rawText: String,
    file: String
  ) throws -> (up: MigrationScript, down: MigrationScript?) {
    let text = normalize(rawText)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    struct Section {
      let isUp: Bool
      let markerLine: Int
      let isTransactional: Bool
      var body: [Substring] = []
    }
    var sections: [Section] = []
    var preamble: [Substring] = []
    for (index, line) in lines.enumerated() {
      let lineNumber = index + 1
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("--") {
        let comment = trimmed.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        if comment.hasPrefix("migrate:") {
          let words = comment.split(whereSeparator: { $0 == " " || $0 == "\t" })
          let kind = words[0].dropFirst("migrate:".count)
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
          let isUp = kind == "up"
          if sections.contains(where: { $0.isUp == isUp }) {
            throw MigrationError.invalidMarker(
              file: file,
              line: lineNumber,
              reason: "a second '-- migrate:\(kind)' marker"
            )
          }
          sections.append(
            Section(isUp: isUp, markerLine: lineNumber, isTransactional: transactional)
          )
          continue
        }
      }
      if sections.isEmpty {
        preamble.append(line)
      } else {
        sections[sections.count - 1].body.append(line)
      }
    }
    if sections.isEmpty {
      let up = MigrationScript(sql: text, file: file, firstLine: 1, isTransactional: true)
      guard containsSQL(text) else { throw MigrationError.emptyMigration(file: file) }
      return (up, nil)
    }
    if containsSQL(preamble.joined(separator: "\n")) {
      throw MigrationError.invalidMarker(
        file: file,
        line: (preamble.firstIndex { containsSQL(String($0)) } ?? 0) + 1,
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
    func script(_ section: Section) -> MigrationScript {
      MigrationScript(
        sql: section.body.joined(separator: "\n"),
        file: file,
        firstLine: section.markerLine + 1,
        isTransactional: section.isTransactional
      )
    }
    let up = script(upSection)
    guard containsSQL(up.sql) else { throw MigrationError.emptyMigration(file: file) }
    let down = sections.first { !$0.isUp }.map(script).flatMap { containsSQL($0.sql) ? $0 : nil }
    return (up, down)
  }
}
