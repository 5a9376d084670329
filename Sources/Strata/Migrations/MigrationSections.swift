/// A migration file whose lines a format's reader has sorted into up and down sections; builds
/// the parts strata runs and the checksum, the same way for every format.
///
/// Each part keeps its lines where they stand in the file (a marker or annotation line inside it
/// becomes an empty line), so an error's line number points into the file. The down sections of
/// a dbmate file with several sections run in reverse, the last one first; in that part only the
/// section that runs first is numbered from its own line, the others count on from it.
struct MigrationSections {
  /// What a line of the file is.
  enum Role: Equatable {
    /// A marker, an annotation, or a comment outside any section.
    case none
    /// SQL of the up part, in the section numbered so.
    case up(section: Int)
    /// SQL of the down part, in the section numbered so.
    case down(section: Int)
  }

  /// The file, BOM stripped and CRLF turned into LF.
  let bytes: [UInt8]
  /// Where each line starts and ends (without its newline).
  let lines: [Range<Int>]
  /// One per line.
  var roles: [Role]
  var upTransactional = true
  var downTransactional = true
  var reverseDownSections = false
  /// How many sections the file has (each starts with an up marker).
  var sectionCount = 1
  /// The sections that have a down marker; a section without one makes the file irreversible.
  var downMarked: Set<Int> = []

  init(bytes: [UInt8]) {
    self.bytes = bytes
    var lines: [Range<Int>] = []
    var start = 0
    while start <= bytes.count {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
      lines.append(start..<end)
      start = end + 1
    }
    self.lines = lines
    roles = Array(repeating: .none, count: lines.count)
  }

  /// The line's bytes (0-based index).
  func line(_ index: Int) -> ArraySlice<UInt8> { bytes[lines[index]] }

  /// The up part, the down part, and the checksum: of the up part's lines alone, without
  /// markers and annotations (see `MigrationSet.checksum`). A part without SQL is a no-op; the
  /// down part is nil (irreversible) only when a section has no down marker at all.
  ///
  /// - Throws: `MigrationError.unwrittenPart` for a part still as `strata new` wrote it.
  func parts(file: String) throws -> (up: MigrationScript, down: MigrationScript?, checksum: String)
  {
    let upLines = roles.indices.filter { if case .up = roles[$0] { true } else { false } }
    let up =
      script(groups: [upLines], transactional: upTransactional, file: file)
      ?? MigrationScript(sql: "", file: file, firstLine: 1, isTransactional: upTransactional)
    try UnwrittenPart.refuse(up, isDown: false)
    let canonical = upLines.map { String(decoding: line($0), as: UTF8.self) }
      .joined(separator: "\n")
    return (up, try down(file: file), MigrationSet.checksum(ofUp: canonical))
  }

  private func down(file: String) throws -> MigrationScript? {
    guard (0..<sectionCount).allSatisfy(downMarked.contains) else { return nil }
    var groups: [Int: [Int]] = [:]
    for (index, role) in roles.enumerated() {
      if case .down(let section) = role { groups[section, default: []].append(index) }
    }
    let ordered = groups.keys.sorted().compactMap { groups[$0] }
    let down =
      script(
        groups: reverseDownSections ? ordered.reversed() : ordered,
        transactional: downTransactional,
        file: file
      ) ?? MigrationScript(sql: "", file: file, firstLine: 1, isTransactional: downTransactional)
    try UnwrittenPart.refuse(down, isDown: true)
    return down
  }

  /// The lines of each group, from its first to its last, with the lines of another role
  /// between them left empty; groups joined in the order given.
  private func script(groups: [[Int]], transactional: Bool, file: String) -> MigrationScript? {
    let nonEmpty = groups.filter { !$0.isEmpty }
    guard let first = nonEmpty.first?.first else { return nil }
    let texts = nonEmpty.map { group -> String in
      let kept = Set(group)
      guard let low = group.first, let high = group.last else { return "" }
      return (low...high).map {
        kept.contains($0) ? String(decoding: line($0), as: UTF8.self) : ""
      }.joined(separator: "\n")
    }
    return MigrationScript(
      sql: texts.joined(separator: "\n"),
      file: file,
      firstLine: first + 1,
      isTransactional: transactional
    )
  }
}
